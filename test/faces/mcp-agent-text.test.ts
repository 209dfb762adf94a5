/**
 * What an agent reads in extract_urls' text block at a page's end, and in a bad call's
 * error: a slice that reaches (or starts past) the end says so, a passage that ends the
 * page is not followed by a call that answers nothing, and a validation problem is stated
 * once, as a list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools } from '../../src/faces/mcp/create-mcp-server.js';
import { renderExtractMarkdown } from '../../src/faces/mcp/tools/render-extract-markdown.js';
import { createLogger } from '../../src/logging.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, startTestApi, testConfig } from '../helpers/test-server.js';

const rows = Array.from({ length: 30 }, (_, i) => `<tr><td>Boat ${i}</td><td>${i % 2 ? 'kevlar' : 'wood'}</td></tr>`);
// The query's best match is the table's last row, which is the end of the page.
const TABLE_HTML = `<!doctype html><html lang="en"><head><title>Boats</title></head><body><main>
<h1>Boats</h1><p>The boats of the club, by name and by what they are made of.</p>
<table><thead><tr><th>Name</th><th>Material</th></tr></thead><tbody>${rows.join('')}
<tr><td>Boat 99</td><td>carbon</td></tr></tbody></table></main></body></html>`;

const links = Array.from(
  { length: 400 },
  (_, i) =>
    `<li><a href="/far/away/a/rather/long/path/to/page/${i}?q=1">Link ${i} with a descriptive anchor text</a></li>`,
);
const LINKS_HTML = `<!doctype html><html lang="en"><head><title>Links</title></head><body><main>
<h1>Link farm</h1><p>A page that is mostly links to other pages, with a sentence of its own.</p>
<ul>${links.join('')}</ul></main></body></html>`;

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let api: TestApi;
let mcp: Awaited<ReturnType<typeof inMemoryMcpClient>>;

beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/links/:n',
        description: 'a short page with 400 long links',
        handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LINKS_HTML),
      },
      {
        path: '/boats',
        description: 'a table whose last row ends the page',
        handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(TABLE_HTML),
      },
    ],
  });
  api = await startTestApi({ cache: { ttlMs: 0 } });
  mcp = await inMemoryMcpClient(api.core);
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await site?.close();
});

async function extract(args: Record<string, unknown>) {
  const result = await mcp.client.callTool({ name: 'extract_urls', arguments: args });
  return {
    result,
    text: (result.content as { type: string; text: string }[])[0]!.text,
    json: result.structuredContent as any,
  };
}

describe('extract_urls text at the end of a page', () => {
  it('says the page has ended when a slice reaches its end or starts past it', async () => {
    const whole = await extract({ urls: [`${site.origin}/boats`], max_chars: 100_000 });
    const total = whole.json.results[0].total_chars as number;
    expect(total).toBeGreaterThan(100);
    expect(whole.text).toContain(`[End of page: it has ${total} characters.]`);
    expect(whole.text).not.toContain('[Cut at character');

    const past = await extract({ urls: [`${site.origin}/boats`], start_char: total, max_chars: 500 });
    expect(past.json.results[0]).toMatchObject({ success: true, markdown: '', total_chars: total });
    expect(past.text).toContain(`[End of page: it has ${total} characters.]`);

    // Cut before the end: the next call, no end notice.
    const cut = await extract({ urls: [`${site.origin}/boats`], max_chars: 50 });
    expect(cut.text).toContain('[Cut at character');
    expect(cut.text).not.toContain('[End of page');
  });

  it('does not offer to read on from a passage that ends the page', async () => {
    const { json, text } = await extract({ urls: [`${site.origin}/boats`], query: 'carbon', max_passages: 1 });
    const page = json.results[0];
    expect(page.passages).toHaveLength(1);
    expect(page.passages[0].end_char).toBe(page.total_chars);
    expect(text).toContain('[This passage ends the page.]');
    expect(text).not.toContain(`"start_char":${page.total_chars}`);
  });

  it('offers the last passage that leaves text after it, and says the last one ends the page', async () => {
    const { json, text } = await extract({
      urls: [`${site.origin}/boats`],
      query: 'carbon clubs boats',
      max_passages: 3,
    });
    const passages = json.results[0].passages as { end_char: number }[];
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.at(-1)!.end_char).toBe(json.results[0].total_chars);
    expect(text).toContain(`"start_char":${passages.at(-2)!.end_char}`);
    expect(text).toContain('The last passage ends the page.');
  });
});

/** The arguments of the read-on call a text block names. */
function nextCall(text: string): Record<string, unknown> {
  const found = /For the rest call extract_urls with (\{.*\})\.\]/.exec(text);
  expect(found).not.toBeNull();
  return JSON.parse(found![1]!) as Record<string, unknown>;
}

describe('extract_urls read-on calls', () => {
  it('repeat the selectors, so the next slice continues the selected text', async () => {
    const whole = await extract({ urls: [`${site.origin}/boats`], include_selectors: ['table'] });
    const selected = whole.json.results[0].markdown as string;
    const first = await extract({ urls: [`${site.origin}/boats`], include_selectors: ['table'], max_chars: 60 });
    const next = nextCall(first.text);
    expect(next).toMatchObject({ include_selectors: ['table'], start_char: 60 });
    const second = await extract(next);
    expect(first.json.results[0].markdown + second.json.results[0].markdown).toBe(
      selected.slice(0, 60 + (second.json.results[0].markdown as string).length),
    );
  });

  it('repeat format "html", so the next slice is HTML at the HTML offset', async () => {
    const first = await extract({ urls: [`${site.origin}/boats`], format: 'html', max_chars: 80 });
    const next = nextCall(first.text);
    expect(next).toMatchObject({ format: 'html', start_char: 80 });
    const second = await extract(next);
    expect(second.json.results[0].html).toBe(TABLE_HTML.slice(80, 80 + 30_000));
  });

  it('repeat them after passages too', async () => {
    const { text } = await extract({ urls: [`${site.origin}/boats`], exclude_selectors: ['p'], query: 'kevlar' });
    expect(text).toMatch(/e\.g\. \{"urls":\[[^\]]*\],"exclude_selectors":\["p"\],"start_char":\d+/);
  });
});

describe('extract_urls with include_links under the output budget', () => {
  it('cuts the link lists of ten link-heavy pages to fit, says so, and keeps room for the contents', async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `${site.origin}/links/${i}`);
    const { result, text, json } = await extract({ urls, include_links: true });
    const budget = api.core.config.mcp.outputBudgetChars;
    expect(text.length).toBeLessThanOrEqual(budget);
    expect(JSON.stringify(json).length).toBeLessThan(2 * budget);
    expect(text).toMatch(/^\[Output budget: 10 page\(s\) were cut/);
    for (const page of json.results) {
      expect(page.links.length).toBeGreaterThan(0);
      expect(page.links.length).toBeLessThan(400);
      expect(page.links_truncated).toBe(true);
      expect(page.markdown).toContain('A page that is mostly links');
    }
    expect(text).toContain('the list is cut (links_truncated)');
    expect(result.isError).toBeFalsy();
  });
});

describe('a bad tool call', () => {
  it('states each validation problem once, as a list under the code', async () => {
    const { result, text } = await extract({ urls: [], timeout_ms: 5 });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^invalid_request: Invalid request:\n- urls: /);
    expect(text).toContain('\n- timeout_ms: ');
    expect(text.match(/urls: /g)).toHaveLength(1);
    expect(text.match(/timeout_ms: /g)).toHaveLength(1);
  });
});

describe('extract_urls text facts', () => {
  it('says when the headless browser produced the page (rendered), as structuredContent does', () => {
    const page = { url: 'https://a.example/', success: true, markdown: 'Hello.', status_code: 200 };
    const metadata = {
      total_urls: 1,
      processed_urls: 1,
      successful_crawls: 1,
      failed_crawls: 0,
      credits_used: 1,
      cached_free: 0,
      response_time: 0,
      timestamp: '',
    };
    expect(renderExtractMarkdown({ results: [{ ...page, rendered: true }], metadata })).toContain(
      'rendered in a headless browser',
    );
    expect(renderExtractMarkdown({ results: [{ ...page, rendered: false }], metadata })).not.toContain('rendered');
  });
});

describe('web_search description', () => {
  const describeWith = (engines: string | undefined) => {
    const config = testConfig(engines === undefined ? {} : { search: { engines } });
    const deps = {
      config,
      logger: createLogger(config),
      engines: ['duckduckgo', 'wikipedia', 'mojeek'],
      services: () => Promise.reject(new Error('not called')),
    };
    return listTools(deps).find((t) => t.name === 'web_search')!.description;
  };

  it('names the engines a search without `engines` uses when WEBSEARCH_ENGINES narrows them', () => {
    expect(describeWith('wikipedia')).toContain(
      'Engines configured here: duckduckgo, wikipedia, mojeek (a search without engines uses wikipedia).',
    );
    expect(describeWith(undefined)).toContain('Engines configured here: duckduckgo, wikipedia, mojeek. Narrow');
  });
});
