/**
 * include_comments, include_structured_data and `authors` on every face, end to end against
 * the fixture site: POST /api/crawl (markdown and html), the 400s naming the field,
 * options in the cache key, extract_urls (structured result and text), and the reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { COMMENTS, STORY, STORY_HTML } from '../helpers/harbour-story.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

const BYLINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide tables</title><meta name="author" content="Bram Oyelowo"></head>
<body><article><h1>Tide tables</h1><p>${STORY[0]}</p><p>${STORY[1]}</p></article></body></html>`;

let site: FixtureSite;
let api: TestApi;
beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/sd/story',
        description: 'a story with JSON-LD, Open Graph and comments',
        handle: (ctx) => send(ctx.res, 200, 'text/html; charset=utf-8', STORY_HTML),
      },
      {
        path: '/sd/byline',
        description: 'a page naming its author in a meta only',
        handle: (ctx) => send(ctx.res, 200, 'text/html; charset=utf-8', BYLINE_HTML),
      },
    ],
  });
  api = await startTestApi({ cache: { ttlMs: 60_000 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

const u = (path: string) => `${site.origin}${path}`;

describe('authors', () => {
  it('every HTML result names its authors: the structured data first, else the byline', async () => {
    const { json } = await api.crawl({ urls: [u('/sd/story'), u('/sd/byline')] });
    expect(json.results[0]).toMatchObject({ success: true, authors: ['Ada Quill'] });
    expect(json.results[1]).toMatchObject({ success: true, authors: ['Bram Oyelowo'] });
    expect(json.results[0]).not.toHaveProperty('structured_data');
    const html = await api.crawl({ urls: [u('/sd/byline')], format: 'html' });
    expect(html.json.results[0]).toMatchObject({ success: true, authors: ['Bram Oyelowo'] });
  });
});

describe('include_comments', () => {
  it('left out by default; asked for, after the story under "## Comments", fetched apart from the plain copy', async () => {
    const plain = await api.crawl({ urls: [u('/sd/story')] });
    const markdown: string = plain.json.results[0].markdown;
    expect(markdown).toContain(STORY[2]);
    for (const [, , text] of COMMENTS) expect(markdown).not.toContain(text);
    const asked = await api.crawl({ urls: [u('/sd/story')], include_comments: true });
    const result = asked.json.results[0];
    expect(result).toMatchObject({ success: true, from_cache: false });
    expect(result.markdown.startsWith(markdown)).toBe(true);
    const section: string = result.markdown.slice(markdown.length);
    expect(section.startsWith('\n\n## Comments\n\n')).toBe(true);
    for (const [name, date, text] of COMMENTS) expect(section).toContain(`**${name}** · ${date}\n\n${text}`);
    expect(section).not.toMatch(/^Reply$/m);
  });

  it('with format html is a 400 naming include_comments; a value that is no boolean too', async () => {
    const html = await api.crawl({ urls: [u('/sd/story')], format: 'html', include_comments: true });
    expect(html.status).toBe(400);
    expect(html.json.error.details.map((d: { path: string }) => d.path)).toEqual(['include_comments']);
    const wrong = await api.crawl({ urls: [u('/sd/story')], include_structured_data: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.details.map((d: { path: string }) => d.path)).toEqual(['include_structured_data']);
  });
});

describe('include_structured_data', () => {
  it("returns the page's items and cards, in markdown and in html format", async () => {
    for (const format of ['markdown', 'html']) {
      const { json } = await api.crawl({ urls: [u('/sd/story')], format, include_structured_data: true });
      const data = json.results[0].structured_data;
      expect(data.items[0]).toMatchObject({
        type: 'NewsArticle',
        sources: ['json-ld'],
        headline: 'North pier to be rebuilt in stone',
        date_published: '2024-06-03T18:00:00Z',
        authors: [{ name: 'Ada Quill' }],
        publisher: { name: 'The Harbour Herald' },
      });
      expect(data.open_graph).toMatchObject({ title: 'North pier to be rebuilt in stone', type: 'article' });
    }
  });

  it('a page that declares nothing answers an empty list', async () => {
    const { json } = await api.crawl({ urls: [u('/sd/byline')], include_structured_data: true });
    expect(json.results[0].structured_data).toEqual({ items: [] });
  });

  it('extract_urls returns it in the structured result and shows it, and the authors, in the text', async () => {
    const mcp = await inMemoryMcpClient(api.core);
    try {
      const result = await mcp.client.callTool({
        name: 'extract_urls',
        arguments: { urls: [u('/sd/story')], include_structured_data: true, include_comments: true },
      });
      const structured = result.structuredContent as { results: { structured_data: { items: { type: string }[] } }[] };
      expect(structured.results[0]?.structured_data.items[0]?.type).toBe('NewsArticle');
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(text).toContain('by Ada Quill');
      expect(text).toContain('<structured_data>');
      expect(text).toContain('"headline": "North pier to be rebuilt in stone"');
      expect(text).toContain('## Comments');
    } finally {
      await mcp.close();
    }
  });

  it('the reader shows it as JSON under the content, and the authors in its header', async () => {
    const res = await fetch(`${api.url}/r/${encodeURIComponent(u('/sd/story'))}?include_structured_data=true`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Authors: Ada Quill');
    const [, json] = text.split('## Structured data\n\n```json\n');
    expect(JSON.parse((json ?? '').split('\n```')[0] ?? '').items[0].type).toBe('NewsArticle');
  });
});
