/* global document, window, localStorage, navigator, Headers */
/**
 * The playground's behaviour: the same API a program calls (/api/search, /api/crawl,
 * /api/usage, /healthz, /openapi.json), with the key from the key field as
 * `Authorization: Bearer`. Answers are shown through the DOM only (textContent and
 * markdown-dom.js), never as HTML: pages and results are hostile input.
 */
import { renderMarkdown, safeHref } from './markdown-dom.js';

const KEY_STORAGE = 'websearch-mcp.api-key';
const $ = (id) => document.getElementById(id);

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function apiKey() {
  return $('api-key').value.trim();
}

function headers(json, key) {
  const out = { accept: 'application/json' };
  if (json) out['content-type'] = 'application/json';
  if (key) out.authorization = `Bearer ${key}`;
  return out;
}

/**
 * One API call: its status, its JSON (or undefined), its headers and the key it was sent
 * with (the field may hold another by the time it answers); a network failure is status 0.
 */
async function call(method, path, body) {
  const key = apiKey();
  try {
    const res = await fetch(path, {
      method,
      headers: headers(body !== undefined, key),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    let json;
    try {
      json = await res.json();
    } catch {
      json = undefined;
    }
    return { status: res.status, json, headers: res.headers, key };
  } catch (err) {
    return {
      status: 0,
      json: { error: { code: 'network', message: String(err.message || err) } },
      headers: new Headers(),
      key,
    };
  }
}

/** What to do about a refusal, in a person's words. */
const ADVICE = {
  401: 'Enter a valid API key above (the operator creates one with "websearch-mcp keys create").',
  402: "This key's credits are spent or held by requests in progress; ask the operator to top it up.",
  429: 'Too many requests for this key right now; wait and try again.',
};

function errorBox(res) {
  const error = res.json?.error ?? {};
  const box = h('div', { className: 'error', role: 'alert' });
  box.append(
    h('strong', { text: `${res.status || 'No answer'} ${error.code ?? 'error'}` }),
    ': ',
    error.message ?? 'the request failed',
  );
  for (const d of error.details ?? []) box.append(h('div', { text: `${d.path}: ${d.message}` }));
  if (ADVICE[res.status]) box.append(h('div', { className: 'hint', text: ADVICE[res.status] }));
  return box;
}

/** After a metered request: the balance it left, then the account read again (held credits, the new record). */
function afterMetered(res) {
  if (res.key !== apiKey()) return; // the answer of a key no longer in the field
  const remaining = res.headers.get('x-credits-remaining');
  if (remaining !== null) $('credits').textContent = `Credits remaining: ${remaining}`;
  if (res.key && res.status !== 0) loadUsage(false, false);
}

function busy(form, on) {
  const button = form.querySelector('button[type=submit]');
  button.setAttribute('aria-busy', on ? 'true' : 'false');
  button.disabled = on;
}

function fact(dl, name, value) {
  if (value === undefined || value === null || value === '') return;
  dl.append(h('dt', { text: name }), h('dd', { text: String(value) }));
}

function linkTo(url, text) {
  const href = safeHref(url);
  return href ? h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank', text }) : h('span', { text });
}

/* ---------- forms to requests ---------- */

/** A control this server has (its row shown) and that applies to the rest of the form (enabled). */
function offered(control) {
  return !control.closest('.row').hidden && !control.disabled;
}

/**
 * Options that mean something only with another are enabled only with it: the server
 * refuses them alone (docs/decisions.md, "Query-focused passages").
 */
function syncOptions() {
  const content = $('include-content').checked;
  $('content-mode').disabled = !content;
  $('search-max-passages').disabled = !content || $('content-mode').value !== 'passages';
  const html = $('format').value === 'html';
  $('query').disabled = html;
  $('max-passages').disabled = html || $('query').value.trim() === '';
}

function searchBody() {
  const body = { q: $('q').value.trim() };
  const engines = [...document.querySelectorAll('#engines input:checked')].map((i) => i.value);
  if (engines.length > 0) body.engines = engines;
  for (const [id, name] of [
    ['country', 'country'],
    ['language', 'language'],
    ['time-range', 'time_range'],
  ]) {
    const value = $(id).value.trim();
    if (value) body[name] = value;
  }
  const max = Number($('max-results').value);
  if (Number.isInteger(max) && max !== 10) body.max_results = max;
  if ($('include-content').checked) {
    body.include_content = true;
    if (offered($('content-mode')) && $('content-mode').value === 'passages') {
      body.content_mode = 'passages';
      const passages = $('search-max-passages');
      if (offered(passages) && passages.value !== '') body.max_passages = Number(passages.value);
    }
  }
  return body;
}

function extractBody() {
  const urls = $('urls')
    .value.split('\n')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const body = { urls };
  if ($('format').value !== 'markdown') body.format = $('format').value;
  if ($('stealth').checked) body.stealth = true;
  // Options the server's schema has (openapi.json), sent only when filled.
  if (offered($('query')) && $('query').value.trim()) body.query = $('query').value.trim();
  const passages = $('max-passages');
  if (body.query && offered(passages) && passages.value !== '') body.max_passages = Number(passages.value);
  const render = $('render');
  if (offered(render) && render.value !== '') {
    body.render = render.value === 'true' ? true : render.value === 'false' ? false : render.value;
  }
  return body;
}

/* ---------- passages (docs/decisions.md, "Query-focused passages") ---------- */

/** Which passage, the headings it sits under, and where it is in the page's full Markdown. */
function passageHead(p, index, count, totalChars) {
  const section = p.heading_path.length > 0 ? p.heading_path.join(' › ') : '(top of the page)';
  const of = totalChars === undefined ? '' : ` of ${totalChars}`;
  return h(
    'p',
    { className: 'passage-head' },
    h('strong', { text: `Passage ${index + 1} of ${count}` }),
    ' · ',
    h('span', { className: 'passage-section', text: `section: ${section}` }),
    ' · ',
    h('span', { className: 'passage-offsets', text: `characters ${p.start_char}–${p.end_char}${of}` }),
  );
}

/** A page's passages, in page order: rendered (as the Markdown preview is) beside their raw text. */
function passagePanes(passages, label, baseUrl, totalChars) {
  if (passages.length === 0) return h('p', { className: 'meta', text: 'No passage of this page answers the query.' });
  const shown = h('ol', { className: 'passages' });
  const raw = h('ol', { className: 'passages' });
  passages.forEach((p, i) => {
    // A table row or list item past its header: the preview shows it under that header.
    const text = h('div', { className: 'passage-text' });
    text.append(renderMarkdown(p.lead_in ? `${p.lead_in}\n${p.text}` : p.text, document, baseUrl));
    shown.append(h('li', { className: 'passage' }, passageHead(p, i, passages.length, totalChars), text));
    const source = h('li', { className: 'passage' }, passageHead(p, i, passages.length, totalChars));
    if (p.lead_in) {
      source.append(
        h('p', { className: 'hint', text: 'Its header (lead_in, outside the offsets):' }),
        h('pre', { className: 'raw lead-in', text: p.lead_in }),
      );
    }
    source.append(h('pre', { className: 'raw', text: p.text }));
    raw.append(source);
  });
  return h(
    'div',
    { className: 'panes' },
    h(
      'section',
      { className: 'pane preview', 'aria-label': `Preview of the passages of ${label}`, tabindex: '0' },
      h('h4', { className: 'pane-title', text: 'Preview of the passages' }),
      shown,
    ),
    h(
      'section',
      { className: 'pane', 'aria-label': `Raw passages of ${label}`, tabindex: '0' },
      h('h4', { className: 'pane-title', text: 'Raw passages' }),
      raw,
    ),
  );
}

/* ---------- search ---------- */

async function search(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const out = $('search-out');
  busy(form, true);
  out.replaceChildren(h('p', { className: 'meta', text: 'Searching…' }));
  const res = await call('POST', '/api/search', searchBody());
  busy(form, false);
  afterMetered(res);
  if (res.status !== 200) {
    out.replaceChildren(errorBox(res));
    return;
  }
  const { results, metadata, engines } = res.json;
  const summary = [
    `${metadata.number_of_results} result(s)`,
    `status ${metadata.status}`,
    `engines ${engines.join(', ')}`,
    `${metadata.credits_used} credit(s)`,
    `${metadata.response_time} s`,
  ];
  if (metadata.from_cache) summary.push('from cache');
  const nodes = [h('p', { className: 'meta', id: 'search-summary', text: summary.join(' · ') })];
  for (const failed of metadata.failed_engines ?? []) {
    nodes.push(h('p', { className: 'meta', text: `${failed.engine} failed: ${failed.error}: ${failed.message}` }));
  }
  const list = h('ol', { className: 'results' });
  for (const r of results) {
    const item = h('li', { className: 'search-result' });
    item.append(
      h('h3', {}, linkTo(r.url, r.title || r.url)),
      h('div', { className: 'url', text: r.url }),
      h('p', { text: r.snippet ?? '' }),
      h('p', {
        className: 'meta engines',
        text: `position ${r.position} · engines: ${(r.engines ?? [r.engine]).join(', ')}${r.published_at ? ` · ${r.published_at}` : ''}`,
      }),
    );
    if (r.passages !== undefined) {
      const details = h('details', { open: true }, h('summary', { text: `Passages (${r.passages.length})` }));
      details.append(passagePanes(r.passages, r.url, r.url, r.content_total_chars));
      item.append(details);
    } else if (r.content !== undefined) {
      const details = h('details', {}, h('summary', { text: 'Page content' }));
      const preview = h('div', { className: 'pane preview' });
      preview.append(renderMarkdown(r.content, document, r.url));
      details.append(preview);
      item.append(details);
    } else if (r.content_error) {
      item.append(h('p', { className: 'meta', text: `content: ${r.content_error}` }));
    }
    list.append(item);
  }
  nodes.push(list);
  out.replaceChildren(...nodes);
}

/* ---------- extract ---------- */

function extractResult(r, index) {
  const article = h('article', { className: 'result', 'aria-labelledby': `result-${index}` });
  article.append(h('h3', { id: `result-${index}` }, linkTo(r.url, r.url)));
  const facts = h('dl', { className: 'facts' });
  fact(facts, 'outcome', r.success ? 'success' : 'failed');
  fact(facts, 'status', r.status_code);
  fact(facts, 'title', r.title);
  fact(facts, 'description', r.description);
  fact(facts, 'content type', r.content_type);
  fact(facts, 'page type', r.page_type);
  fact(
    facts,
    'rendered',
    r.rendered === undefined ? undefined : r.rendered ? 'yes (headless browser)' : 'no (static response)',
  );
  fact(facts, 'final URL', r.final_url !== r.url ? r.final_url : undefined);
  fact(facts, 'language', r.language);
  fact(facts, 'published', r.published_at);
  fact(facts, 'characters', r.total_chars);
  fact(facts, 'passages', r.passages?.length);
  fact(facts, 'continue at', r.next_start_char);
  article.append(facts);
  if (!r.success) {
    const box = h('div', { className: 'error url-error', role: 'alert' });
    box.append(h('strong', { text: r.error_type ?? 'error' }), ': ', r.error ?? 'the URL failed');
    article.append(box);
    return article;
  }
  if (r.passages !== undefined) {
    article.append(passagePanes(r.passages, r.url, r.final_url ?? r.url, r.total_chars));
    // With query, the Markdown is empty unless max_chars asked for it too.
    if (r.markdown === '') return article;
  }
  const raw = r.html ?? r.markdown;
  const panes = h('div', { className: 'panes' });
  const preview = h('section', { className: 'pane preview', 'aria-label': `Preview of ${r.url}`, tabindex: '0' });
  preview.append(h('h4', { className: 'pane-title', text: 'Preview' }));
  if (r.html !== undefined) preview.append(h('p', { className: 'hint', text: 'HTML is shown as source only.' }));
  else preview.append(renderMarkdown(r.markdown, document, r.final_url ?? r.url));
  const source = h('section', {
    className: 'pane',
    'aria-label': `Raw ${r.html !== undefined ? 'HTML' : 'Markdown'} of ${r.url}`,
    tabindex: '0',
  });
  source.append(
    h('h4', { className: 'pane-title', text: r.html !== undefined ? 'Raw HTML' : 'Raw Markdown' }),
    h('pre', { className: 'raw', text: raw }),
  );
  panes.append(preview, source);
  article.append(panes);
  return article;
}

async function extract(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const out = $('extract-out');
  busy(form, true);
  out.replaceChildren(h('p', { className: 'meta', text: 'Extracting…' }));
  const res = await call('POST', '/api/crawl', extractBody());
  busy(form, false);
  afterMetered(res);
  if (res.status !== 200) {
    out.replaceChildren(errorBox(res));
    return;
  }
  const m = res.json.metadata;
  const summary = [
    `${m.successful_crawls} of ${m.total_urls} extracted`,
    `${m.failed_crawls} failed`,
    `${m.credits_used} credit(s)`,
    `${m.response_time} s`,
  ];
  if (m.cached_free) summary.push(`${m.cached_free} from cache (free)`);
  out.replaceChildren(
    h('p', { className: 'meta', id: 'extract-summary', text: summary.join(' · ') }),
    ...res.json.results.map(extractResult),
  );
}

/* ---------- balance and usage ---------- */

/** Typing a key fires an input per character: its account is asked for once the field rests. */
const KEY_SETTLE_MS = 300;

/**
 * The account shown is always the key's in the field: each read takes a ticket, and only
 * the answer to the latest one, for the key still there, is shown (a late answer for a
 * previous key, or an older read, is dropped).
 */
const account = { key: '', ticket: 0, cursor: undefined, timer: undefined };

/** Another key: the previous one's figures go at once, and its reads still under way are dropped. */
function keyChanged(now) {
  const key = apiKey();
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
  if (key === account.key) return;
  account.key = key;
  account.ticket += 1;
  account.cursor = undefined;
  clearTimeout(account.timer);
  $('credits').textContent = '';
  $('usage-out').replaceChildren();
  $('usage-older').hidden = true;
  if (!key) return;
  if (now) loadUsage(false, false);
  else account.timer = setTimeout(() => loadUsage(false, false), KEY_SETTLE_MS);
}

/** GET /api/usage for the key in the field: its balance beside the key, its records in "Balance and usage". */
async function loadUsage(older, asked) {
  const ticket = ++account.ticket;
  const out = $('usage-out');
  // Asked for by a button: the figures on screen are not this answer's until it comes.
  if (asked) out.replaceChildren(h('p', { className: 'meta', text: 'Loading…' }));
  const cursor = older ? account.cursor : undefined;
  const res = await call('GET', `/api/usage?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  if (ticket !== account.ticket || res.key !== apiKey()) return;
  if (res.status !== 200) {
    const code = res.json?.error?.code ?? 'error';
    if (res.key) $('credits').textContent = `Balance unavailable: ${res.status || 'no answer'} ${code}`;
    out.replaceChildren(errorBox(res));
    return;
  }
  const u = res.json;
  account.cursor = u.next_cursor;
  $('usage-older').hidden = account.cursor === undefined;
  if (!u.metered) {
    out.replaceChildren(
      h('p', { className: 'meta', text: 'Open mode: this server has no API keys, so nothing is metered.' }),
    );
    return;
  }
  const head = h('p', {
    className: 'meta',
    id: 'usage-balance',
    text: `${u.key.name} (${u.key.prefix}…): balance ${u.balance ?? 'unlimited'} · held by requests in progress ${u.held_credits}`,
  });
  const held = u.held_credits > 0 ? ` (${u.held_credits} held by requests in progress)` : '';
  $('credits').textContent = u.balance === null ? 'Credits: unlimited' : `Credits remaining: ${u.balance}${held}`;
  const table = h('table', { className: 'usage' });
  const headRow = h('tr');
  for (const name of ['when', 'operation', 'credits', 'URLs or query', 'request id'])
    headRow.append(h('th', { scope: 'col', text: name }));
  table.append(h('thead', {}, headRow));
  const body = h('tbody');
  for (const r of u.records) {
    const row = h('tr');
    for (const cell of [r.at, r.operation, r.credits, r.query ?? (r.urls ?? []).join(' '), r.request_id])
      row.append(h('td', { text: cell }));
    body.append(row);
  }
  table.append(body);
  // It scrolls sideways on a narrow screen: reachable from the keyboard.
  const wrap = h(
    'div',
    { className: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Usage records' },
    table,
  );
  out.replaceChildren(head, u.records.length ? wrap : h('p', { className: 'meta', text: 'No usage recorded yet.' }));
}

/* ---------- copy: curl and MCP client config ---------- */

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlCommand(form) {
  const [path, body] = form === 'search' ? ['/api/search', searchBody()] : ['/api/crawl', extractBody()];
  const lines = [`curl -s ${shellQuote(window.location.origin + path)}`, `-H 'content-type: application/json'`];
  if (apiKey()) lines.push(`-H "Authorization: Bearer $WEBSEARCH_KEY"`);
  lines.push(`-d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n  ');
}

function mcpConfig() {
  const server = { url: `${window.location.origin}/mcp` };
  if (apiKey()) server.headers = { Authorization: 'Bearer ${env:WEBSEARCH_KEY}' };
  return JSON.stringify({ mcpServers: { websearch: server } }, null, 2);
}

async function copy(event) {
  const button = event.currentTarget;
  const text = button.dataset.copy === 'curl' ? curlCommand(button.dataset.form) : mcpConfig();
  let note =
    button.dataset.copy === 'curl' ? 'The curl command' : 'The MCP client configuration (Cursor format; mcp.json)';
  if (apiKey()) note += ' reads the key from $WEBSEARCH_KEY: the key itself is never copied.';
  // Shown at once, whatever the clipboard does (it may refuse, or wait for a permission).
  $('copy-text').textContent = text;
  $('copy-note').textContent = note;
  $('copy-card').hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $('copy-note').textContent = `${note} Copied to the clipboard.`;
  } catch {
    $('copy-note').textContent = `${note} Select it below to copy it.`;
  }
}

/* ---------- start ---------- */

async function status() {
  const line = $('status');
  const [health, index] = await Promise.all([call('GET', '/healthz'), call('GET', '/')]);
  const version = index.json?.version ? `websearch-mcp ${index.json.version} · ` : '';
  if (health.status === 200) {
    line.className = 'status ok';
    line.textContent = `${version}server ok · store ${health.json.store} answered in ${health.json.store_ms} ms`;
  } else {
    line.className = 'status down';
    line.textContent = `${version}server unavailable: ${health.json?.error ?? `status ${health.status}`}`;
  }
}

/** The options the server's own schemas have: engines to tick, and extraction options added since this page was written. */
async function schema() {
  const res = await call('GET', '/openapi.json');
  const schemas = res.json?.components?.schemas ?? {};
  // Only the engines this server can query; none ticked asks for its defaults.
  const property = schemas.SearchRequest?.properties?.engines ?? {};
  const engines = property['x-configured'] ?? property.items?.enum ?? [];
  const defaults = property['x-default'] ?? [];
  $('engines').replaceChildren(
    ...engines.map((id) =>
      h(
        'label',
        { title: defaults.includes(id) ? 'queried when none is ticked' : 'queried only when ticked' },
        h('input', { type: 'checkbox', name: 'engines', value: id }),
        id,
      ),
    ),
  );
  const crawl = schemas.CrawlRequest?.properties ?? {};
  for (const row of document.querySelectorAll('[data-option]')) row.hidden = !(row.dataset.option in crawl);
  const searching = schemas.SearchRequest?.properties ?? {};
  for (const row of document.querySelectorAll('[data-search-option]'))
    row.hidden = !(row.dataset.searchOption in searching);
  for (const [id, property] of [
    ['max-passages', crawl.max_passages],
    ['search-max-passages', searching.max_passages],
  ]) {
    if (property?.maximum !== undefined) $(id).max = String(property.maximum);
  }
  const render = crawl.render;
  if (render) {
    const values = render.enum ?? (render.type === 'boolean' ? [true, false] : []);
    $('render').append(...values.map((v) => h('option', { value: String(v), text: String(v) })));
  }
}

function start() {
  const key = $('api-key');
  key.value = localStorage.getItem(KEY_STORAGE) ?? '';
  key.addEventListener('input', (e) => keyChanged(e.inputType === 'insertFromPaste'));
  $('key-form').addEventListener('submit', (e) => e.preventDefault());
  $('key-forget').addEventListener('click', () => {
    key.value = '';
    keyChanged(true);
  });
  $('key-show').addEventListener('click', (e) => {
    const shown = key.type === 'text';
    key.type = shown ? 'password' : 'text';
    e.currentTarget.textContent = shown ? 'Show' : 'Hide';
    e.currentTarget.setAttribute('aria-pressed', String(!shown));
  });
  $('search-form').addEventListener('submit', search);
  $('extract-form').addEventListener('submit', extract);
  for (const form of ['search-form', 'extract-form']) {
    $(form).addEventListener('input', syncOptions);
    $(form).addEventListener('change', syncOptions);
  }
  syncOptions();
  $('usage-load').addEventListener('click', () => loadUsage(false, true));
  $('usage-older').addEventListener('click', () => loadUsage(true, true));
  for (const button of document.querySelectorAll('[data-copy]')) button.addEventListener('click', copy);
  keyChanged(true); // a stored key: its balance at once
  status().catch((err) => console.error(err));
  schema()
    .catch((err) => console.error(err))
    .finally(() => document.documentElement.setAttribute('data-ready', 'true'));
}

start();
