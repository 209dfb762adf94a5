/**
 * Markdown to DOM for the playground's preview. Pages are hostile input: nothing here
 * parses HTML. Every piece of text becomes a text node (textContent), every element is
 * made with createElement, links keep only http(s) and mailto targets (resolved against
 * the page's URL), and images become links, so a preview never loads anything from
 * another host. Covers what the extractor writes: headings, paragraphs, lists, quotes,
 * fenced code, tables, rules, and the inline forms (code, emphasis, links, images).
 */

/** Nesting deeper than this (quotes in quotes, lists in lists) is shown as plain text. */
const MAX_DEPTH = 16;
/**
 * How far an opening mark (`*`, `` ` ``, `[`) looks for its closing one: a bound, so a
 * page of thousands of unmatched marks costs linear time, not quadratic.
 */
const REACH = 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * @param {string} markdown
 * @param {Document} doc
 * @param {string} [baseUrl] the page's URL, for relative links
 * @returns {DocumentFragment}
 */
export function renderMarkdown(markdown, doc, baseUrl) {
  const fragment = doc.createDocumentFragment();
  const lines = String(markdown).replace(/\r\n?/g, '\n').split('\n');
  appendBlocks(fragment, lines, { doc, baseUrl, depth: 0 });
  return fragment;
}

function el(ctx, tag, text) {
  const node = ctx.doc.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function startsBlock(line, next) {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes('|') && next !== undefined && TABLE_RULE.test(next) && next.includes('-'))
  );
}

function appendBlocks(parent, lines, ctx) {
  if (ctx.depth > MAX_DEPTH) {
    parent.appendChild(el(ctx, 'pre', lines.join('\n')));
    return;
  }
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1];
      const body = [];
      i += 1;
      while (i < lines.length && !new RegExp(`^ {0,3}${mark[0]}{${mark.length},}\\s*$`).test(lines[i])) {
        body.push(lines[i]);
        i += 1;
      }
      i += 1; // the closing fence (or the end)
      const pre = el(ctx, 'pre');
      pre.appendChild(el(ctx, 'code', body.join('\n')));
      parent.appendChild(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // Page headings sit under the playground's own (h3 per result): shifted down, capped at h6.
      const level = Math.min(6, heading[1].length + 3);
      const h = el(ctx, `h${level}`);
      appendInline(h, heading[2] ?? '', ctx);
      parent.appendChild(h);
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      parent.appendChild(el(ctx, 'hr'));
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const body = [];
      while (i < lines.length && QUOTE.test(lines[i])) {
        body.push(QUOTE.exec(lines[i])[1]);
        i += 1;
      }
      const quote = el(ctx, 'blockquote');
      appendBlocks(quote, body, { ...ctx, depth: ctx.depth + 1 });
      parent.appendChild(quote);
      continue;
    }
    if (ITEM.test(line)) {
      i = appendList(parent, lines, i, ctx);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      i = appendTable(parent, lines, i, ctx);
      continue;
    }
    const text = [line];
    i += 1;
    while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines[i], lines[i + 1])) {
      text.push(lines[i]);
      i += 1;
    }
    const p = el(ctx, 'p');
    appendInline(p, text.join('\n'), ctx);
    parent.appendChild(p);
  }
}

/** A list from line `start`: items at its first indent, each with its more-indented lines as its own blocks. */
function appendList(parent, lines, start, ctx) {
  const first = ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = el(ctx, ordered ? 'ol' : 'ul');
  if (ordered && parseInt(first[2], 10) !== 1) list.setAttribute('start', String(parseInt(first[2], 10)));
  let i = start;
  while (i < lines.length) {
    const item = ITEM.exec(lines[i]);
    if (!item || item[1].length !== indent || /\d/.test(item[2]) !== ordered) break;
    const body = [item[3] ?? ''];
    const inner = indent + item[2].length + 1;
    i += 1;
    while (i < lines.length) {
      const l = lines[i];
      const lead = l.length - l.trimStart().length;
      if (l.trim() === '') {
        // A blank line ends the list unless the item goes on after it.
        const next = lines[i + 1];
        if (next === undefined || next.trim() === '' || next.length - next.trimStart().length < inner) break;
        body.push('');
      } else if (lead >= inner || (lead > indent && ITEM.test(l))) {
        body.push(l.slice(Math.min(lead, inner)));
      } else if (lead <= indent && (ITEM.test(l) || startsBlock(l, lines[i + 1]))) {
        break;
      } else {
        body.push(l.trim()); // a lazy continuation of the item's paragraph
      }
      i += 1;
    }
    const li = el(ctx, 'li');
    const task = /^\[([ xX])\]\s+/.exec(body[0]);
    if (task) {
      const box = el(ctx, 'input');
      box.type = 'checkbox';
      box.disabled = true;
      box.checked = task[1] !== ' ';
      box.setAttribute('aria-label', box.checked ? 'done' : 'not done');
      li.appendChild(box);
      body[0] = body[0].slice(task[0].length);
    }
    if (body.length === 1) appendInline(li, body[0], ctx);
    else appendBlocks(li, body, { ...ctx, depth: ctx.depth + 1 });
    list.appendChild(li);
    while (i < lines.length && lines[i].trim() === '' && ITEM.test(lines[i + 1] ?? '')) i += 1;
  }
  parent.appendChild(list);
  return i;
}

function cells(line) {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  // A pipe escaped as \| stays in its cell.
  return row.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function appendTable(parent, lines, start, ctx) {
  const wrap = el(ctx, 'div');
  wrap.className = 'table-wrap';
  // It scrolls sideways when the table is wider than the pane: reachable from the keyboard.
  wrap.setAttribute('tabindex', '0');
  const table = el(ctx, 'table');
  const head = el(ctx, 'thead');
  const headRow = el(ctx, 'tr');
  for (const cell of cells(lines[start])) {
    const th = el(ctx, 'th');
    th.setAttribute('scope', 'col');
    appendInline(th, cell, ctx);
    headRow.appendChild(th);
  }
  head.appendChild(headRow);
  table.appendChild(head);
  const body = el(ctx, 'tbody');
  let i = start + 2;
  while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') {
    const tr = el(ctx, 'tr');
    for (const cell of cells(lines[i])) {
      const td = el(ctx, 'td');
      appendInline(td, cell, ctx);
      tr.appendChild(td);
    }
    body.appendChild(tr);
    i += 1;
  }
  table.appendChild(body);
  wrap.appendChild(table);
  parent.appendChild(wrap);
  return i;
}

/** An http(s) or mailto URL, resolved against the page; anything else (javascript:, data:...) is no link. */
export function safeHref(raw, baseUrl) {
  try {
    const url = new URL(raw.trim(), baseUrl);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function link(ctx, href, label) {
  const a = el(ctx, 'a');
  a.href = href;
  a.rel = 'noopener noreferrer nofollow';
  a.target = '_blank';
  if (typeof label === 'string') a.textContent = label;
  return a;
}

/** The index of the `]` closing the `[` at `open`, or -1. */
function closingBracket(text, open) {
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + REACH); i++) {
    const ch = text[i];
    if (ch === '\\') i += 1;
    else if (ch === '[') depth += 1;
    else if (ch === ']' && --depth === 0) return i;
  }
  return -1;
}

/** `(url "title")` right after a `]` at `at`: the URL and the index after `)`, or undefined. */
function destination(text, at) {
  if (text[at] !== '(') return undefined;
  const match = /^\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"[^"\n]*")?\s*\)/.exec(
    text.slice(at, at + 4096),
  );
  if (!match) return undefined;
  const url = match[1].startsWith('<') ? match[1].slice(1, -1) : match[1];
  return { url, end: at + match[0].length };
}

const EMPHASIS = [
  { mark: '**', tag: 'strong' },
  { mark: '__', tag: 'strong' },
  { mark: '~~', tag: 'del' },
  { mark: '*', tag: 'em' },
  { mark: '_', tag: 'em' },
];

function appendInline(parent, text, ctx) {
  if (ctx.depth > MAX_DEPTH) {
    parent.appendChild(ctx.doc.createTextNode(text));
    return;
  }
  const inner = { ...ctx, depth: ctx.depth + 1 };
  let plain = '';
  const flush = () => {
    if (plain !== '') parent.appendChild(ctx.doc.createTextNode(plain));
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      if (text[i + 1] === '\n') {
        flush();
        parent.appendChild(el(ctx, 'br'));
      } else if (/[!-/:-@[-`{-~]/.test(text[i + 1])) {
        plain += text[i + 1];
      } else {
        plain += '\\' + text[i + 1];
      }
      i += 2;
      continue;
    }
    if (ch === '\n') {
      // Two trailing spaces make a hard break (CommonMark 6.7).
      if (plain.endsWith('  ')) {
        plain = plain.trimEnd();
        flush();
        parent.appendChild(el(ctx, 'br'));
      } else {
        plain += ' ';
      }
      i += 1;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(text.slice(i))[0];
      const close = indexWithin(text, run, i + run.length);
      if (close > 0) {
        flush();
        const code = text.slice(i + run.length, close).replace(/\n/g, ' ');
        parent.appendChild(
          el(ctx, 'code', code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code),
        );
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if ((ch === '[' || (ch === '!' && text[i + 1] === '[')) && closingBracket(text, ch === '!' ? i + 1 : i) > 0) {
      const open = ch === '!' ? i + 1 : i;
      const close = closingBracket(text, open);
      const dest = destination(text, close + 1);
      if (dest) {
        const label = text.slice(open + 1, close);
        const href = safeHref(dest.url, ctx.baseUrl);
        flush();
        if (ch === '!') {
          // An image as a link to it: the preview fetches nothing from the page's hosts.
          const caption = `image: ${label.trim() || 'no description'}`;
          parent.appendChild(href ? link(ctx, href, `[${caption}]`) : el(ctx, 'span', `[${caption}]`));
        } else if (href) {
          const a = link(ctx, href);
          appendInline(a, label, inner);
          parent.appendChild(a);
        } else {
          appendInline(parent, label, inner);
        }
        i = dest.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+|mailto:[^\s<>]+)>/i.exec(text.slice(i, i + 4096));
      const href = auto && safeHref(auto[1]);
      if (href) {
        flush();
        parent.appendChild(link(ctx, href, auto[1]));
        i += auto[0].length;
        continue;
      }
    }
    const emphasis = EMPHASIS.find((e) => text.startsWith(e.mark, i));
    if (emphasis) {
      const { mark } = emphasis;
      const after = text[i + mark.length];
      const before = text[i - 1];
      // Opens only before a non-space, and `_` not inside a word (snake_case stays as is).
      const opens = after !== undefined && !/\s/.test(after) && !(mark[0] === '_' && before && /\w/.test(before));
      const close = opens ? findClose(text, mark, i + mark.length) : -1;
      if (close > 0) {
        flush();
        const node = el(ctx, emphasis.tag);
        appendInline(node, text.slice(i + mark.length, close), inner);
        parent.appendChild(node);
        i = close + mark.length;
        continue;
      }
      plain += mark;
      i += mark.length;
      continue;
    }
    plain += ch;
    i += 1;
  }
  flush();
}

/** Where `mark` closes an emphasis opened before `from`: after a non-space, not inside a word for `_`. */
function findClose(text, mark, from) {
  let at = indexWithin(text, mark, from + 1, from + REACH);
  while (at > 0) {
    const before = text[at - 1];
    const after = text[at + mark.length];
    const ok = !/\s/.test(before) && !(mark[0] === '_' && after && /\w/.test(after));
    // A single `*` must not close on the first half of a `**`.
    const single = mark.length === 1 && (text[at + 1] === mark || text[at - 1] === mark);
    if (ok && !single) return at;
    at = indexWithin(text, mark, at + 1, from + REACH);
  }
  return -1;
}

/** `text.indexOf(mark, from)`, looking no further than `limit`: -1 beyond it. */
function indexWithin(text, mark, from, limit = from + REACH) {
  const at = text.slice(from, limit + mark.length).indexOf(mark);
  return at < 0 ? -1 : from + at;
}
