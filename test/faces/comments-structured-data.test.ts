/**
 * include_comments, include_structured_data and `authors` on every face, end to end against
 * the fixture site: POST /api/crawl (markdown and html), the 400s naming the field,
 * options in the cache key, extract_urls (structured result and text), and the reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

const STORY = [
  'The harbour board voted on Tuesday to rebuild the north pier in stone before the winter storms, after divers found the timber piles had rotted through in three places.',
  'Work will start in September and take about fourteen weeks. The fishing boats will moor at the south quay while it lasts, and the ferry will keep its usual berth.',
  'The board said the cost would be met from its reserves and a grant from the county, so harbour dues will not rise this year.',
];
const COMMENTS = [
  [
    'Morwenna Tallis',
    '2024-06-04T09:12:00Z',
    'About time. The timber has been creaking under the tractors for years and nobody wanted to be the one to say it.',
  ],
  [
    'Fergus Abara',
    '2024-06-04T10:40:00Z',
    'Fourteen weeks sounds hopeful to me. The last repair on the slipway took twice as long as they said it would.',
  ],
  [
    'Isolde Prentice',
    '2024-06-04T12:05:00Z',
    'Will the south quay have room for the visiting yachts as well as the fishing boats over the summer?',
  ],
  [
    'Caspar Lindqvist',
    '2024-06-05T08:30:00Z',
    'Good to hear the dues will not go up. The grant from the county is the part that surprised me most.',
  ],
];

const JSON_LD = {
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: 'North pier to be rebuilt in stone',
  datePublished: '2024-06-03T18:00:00Z',
  author: { '@type': 'Person', name: 'Ada Quill' },
  publisher: { '@type': 'Organization', name: 'The Harbour Herald' },
};

const STORY_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>North pier to be rebuilt in stone</title>
<meta property="og:title" content="North pier to be rebuilt in stone"><meta property="og:type" content="article">
<script type="application/ld+json">${JSON.stringify(JSON_LD)}</script></head>
<body><article><h1>North pier to be rebuilt in stone</h1>${STORY.map((p) => `<p>${p}</p>`).join('')}</article>
<section id="comments"><h2>${COMMENTS.length} comments</h2><ol class="comment-list">${COMMENTS.map(
  ([name, date, text], i) =>
    `<li class="comment"><div class="comment-author vcard"><b class="fn">${name}</b></div><time datetime="${date}">${date}</time><p>${text}</p><a href="?replytocom=${i}#respond">Reply</a></li>`,
).join('')}</ol></section></body></html>`;

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
