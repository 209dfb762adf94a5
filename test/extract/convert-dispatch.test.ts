import iconv from 'iconv-lite';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/core/errors.js';

// The HTML cascade is a colleague's module; the dispatcher's contract with it is the
// signature only, so it is replaced by a stub that shows what it was given.
const { htmlToMarkdown } = vi.hoisted(() => ({
  htmlToMarkdown: vi.fn((html: string, url: string) => ({
    markdown: `converted ${html.length} chars from ${url}`,
    title: 'Cascade title',
    stage: 'stub',
    pageType: 'product',
  })),
}));
vi.mock('../../src/extract/html/html-to-markdown.js', () => ({ htmlToMarkdown }));

const { convert, classifyContentType, decodeText, isChallengePage, parseContentType, rejectedExtension, sniffBinary } =
  await import('../../src/extract/index.js');

const URL_ = 'https://site.example/path/page';
const utf8 = (text: string) => new TextEncoder().encode(text);
const md = (body: string | Uint8Array, contentType: string | null, url = URL_) =>
  convert({ bytes: typeof body === 'string' ? utf8(body) : body, contentType, url, format: 'markdown' });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

const ARTICLE = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Brot &amp; Butter</title>
<meta name="description" content="Alles &uuml;ber Brot"><meta property="article:published_time" content="2024-03-05T10:00:00+01:00">
</head><body><article><h1>Brot</h1><p>Mehl, Wasser, Salz.</p></article></body></html>`;

beforeEach(() => {
  htmlToMarkdown.mockClear();
});

describe('convert: kinds by Content-Type', () => {
  it('html goes through the cascade with the final URL, metadata gaps filled from the head', async () => {
    const result = await md(ARTICLE, 'text/html; charset=utf-8');
    // No page controls asked for: none reach the cascade.
    expect(htmlToMarkdown).toHaveBeenCalledWith(ARTICLE, URL_, undefined);
    expect(result).toEqual({
      markdown: `converted ${ARTICLE.length} chars from ${URL_}`,
      title: 'Cascade title',
      description: 'Alles über Brot',
      language: 'de',
      published_at: '2024-03-05T10:00:00+01:00',
      page_type: 'product',
      content_type: 'text/html',
    });
  });

  it('xhtml is parsed as HTML', async () => {
    const result = await md(
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>',
      'application/xhtml+xml',
    );
    expect(htmlToMarkdown).toHaveBeenCalledOnce();
    expect(result.content_type).toBe('application/xhtml+xml');
  });

  it('text and markdown pass through tidied', async () => {
    expect(await md('line  \r\nnext\r\n', 'text/plain')).toEqual({
      markdown: 'line\nnext',
      content_type: 'text/plain',
    });
    expect(await md('# Read me\r\n\r\n\r\nBody', 'text/markdown; charset=utf-8')).toEqual({
      markdown: '# Read me\n\nBody',
      title: 'Read me',
      content_type: 'text/markdown',
    });
  });

  it('csv becomes a table; TSV uses the tab', async () => {
    expect(await md('a,b\n1,2\n', 'text/csv')).toEqual({
      markdown: '| a | b |\n| --- | --- |\n| 1 | 2 |',
      content_type: 'text/csv',
    });
    expect((await md('a,x\tb\n1\t2\n', 'text/tab-separated-values')).markdown).toBe(
      '| a,x | b |\n| --- | --- |\n| 1 | 2 |',
    );
  });

  it('json and +json are pretty-printed', async () => {
    expect(await md('{"@type":"Article"}', 'application/ld+json')).toEqual({
      markdown: '```json\n{\n  "@type": "Article"\n}\n```',
      content_type: 'application/ld+json',
    });
  });

  it('xml feeds are rendered with their title', async () => {
    const feed =
      '<rss version="2.0"><channel><title>News</title><description>Daily</description><item><title>One</title><link>/1</link></item></channel></rss>';
    expect(await md(feed, 'application/rss+xml', 'https://news.example/feed')).toEqual({
      markdown: '# News\n\nDaily\n\n- [One](https://news.example/1)',
      title: 'News',
      description: 'Daily',
      content_type: 'application/rss+xml',
    });
  });

  it('decodes the charset before converting', async () => {
    const bytes = iconv.encode('Prix,Nom\n5 €,Café\n', 'windows-1252');
    expect((await md(bytes, 'text/csv; charset=iso-8859-1')).markdown).toBe(
      '| Prix | Nom |\n| --- | --- |\n| 5 € | Café |',
    );
    const sjis = iconv.encode('こんにちは', 'shift_jis');
    expect((await md(sjis, 'text/plain; charset=shift_jis')).markdown).toBe('こんにちは');
  });
});

describe('convert: unsupported content', () => {
  it('refuses a type outside the allowlist before looking at the bytes', async () => {
    const error = await failure(md(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png'));
    expect(error.code).toBe('unsupported_content_type');
    expect(error.message).toBe(
      'Content type image/png is not supported: only HTML, text, Markdown, CSV, JSON and XML can be extracted',
    );
    expect((await failure(md('<svg/>', 'image/svg+xml'))).code).toBe('unsupported_content_type');
    expect((await failure(md('%PDF-1.4', 'application/pdf'))).code).toBe('unsupported_content_type');
    expect((await failure(md('x', 'application/octet-stream'))).code).toBe('unsupported_content_type');
  });

  it('refuses a binary served under a text type', async () => {
    const error = await failure(md('%PDF-1.7\n1 0 obj\n', 'text/html'));
    expect(error.code).toBe('unsupported_content_type');
    expect(error.message).toContain('application/pdf (served as text/html)');
    expect(htmlToMarkdown).not.toHaveBeenCalled();
    const gif = Uint8Array.from([...utf8('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0]);
    expect((await failure(md(gif, 'text/plain'))).message).toContain('image/gif');
    expect((await failure(md('<svg xmlns="http://www.w3.org/2000/svg"/>', 'text/xml'))).message).toContain(
      'image/svg+xml',
    );
  });

  it('refuses a binary without Content-Type', async () => {
    const error = await failure(md(Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2]), null));
    expect(error.message).toBe(
      'Content type application/gzip is not supported: only HTML, text, Markdown, CSV, JSON and XML can be extracted',
    );
    expect((await failure(md(Uint8Array.from([1, 2, 3, 0, 4, 5]), null))).message).toContain(
      'application/octet-stream',
    );
  });
});

describe('convert: challenge pages', () => {
  it('turns a challenge page into a blocked error', async () => {
    const challenge =
      '<html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={}</script></body></html>';
    const error = await failure(md(challenge, 'text/html'));
    expect(error.code).toBe('blocked');
    expect(htmlToMarkdown).not.toHaveBeenCalled();
    expect(
      (await failure(convert({ bytes: utf8(challenge), contentType: 'text/html', url: URL_, format: 'html' }))).code,
    ).toBe('blocked');
  });

  it('does not look for challenges in non-HTML content', async () => {
    expect((await md('Just a moment... verify you are human', 'text/plain')).markdown).toBe(
      'Just a moment... verify you are human',
    );
  });
});

describe('convert: missing Content-Type', () => {
  it('sniffs HTML from the doctype, the html tag and common start tags', async () => {
    for (const body of [
      '<!DOCTYPE html><p>x</p>',
      '  \n<HTML><body>x</body></HTML>',
      '<!-- hi --><div>x</div>',
      '\ufeff<html>x</html>',
    ]) {
      expect((await md(body, null)).content_type, body).toBe('text/html');
    }
    expect(
      (await md('<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"></html>', null))
        .content_type,
    ).toBe('text/html');
    expect(htmlToMarkdown).toHaveBeenCalledTimes(5);
  });

  it('sniffs XML from the declaration and feed roots', async () => {
    const feed = await md('<rss version="2.0"><channel><title>Untyped</title></channel></rss>', null);
    expect(feed).toEqual({ markdown: '# Untyped', title: 'Untyped', content_type: 'application/xml' });
    expect((await md('<?xml version="1.0"?><note>x</note>', null)).markdown).toBe(
      '```xml\n<?xml version="1.0"?><note>x</note>\n```',
    );
    expect((await md('<urlset><url><loc>https://a.example/</loc></url></urlset>', null)).markdown).toBe(
      '# Sitemap\n\n- <https://a.example/>',
    );
  });

  it('sniffs JSON only when it parses', async () => {
    expect((await md('[1, 2]', null)).content_type).toBe('application/json');
    expect(await md('[citation needed] is a tag', null)).toEqual({
      markdown: '[citation needed] is a tag',
      content_type: 'text/plain',
    });
  });

  it('falls back to the URL extension, then to text', async () => {
    expect((await md('# Title\n\ntext', null, 'https://x.example/README.md')).content_type).toBe('text/markdown');
    expect((await md('a,b\n1,2', null, 'https://x.example/data.csv')).markdown).toBe(
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
    );
    expect((await md('a\tb\n1\t2', null, 'https://x.example/data.tsv')).content_type).toBe('text/tab-separated-values');
    expect(await md('just words', null)).toEqual({ markdown: 'just words', content_type: 'text/plain' });
    expect(await md('', null)).toEqual({ markdown: '', content_type: 'text/plain' });
  });

  it('sniffs UTF-16 text with a BOM', async () => {
    const bytes = Uint8Array.from([0xff, 0xfe, ...iconv.encode('<html><p>Grüße</p></html>', 'utf-16le')]);
    const result = await convert({ bytes, contentType: null, url: URL_, format: 'html' });
    expect(result.html).toBe('<html><p>Grüße</p></html>');
    expect(result.content_type).toBe('text/html');
  });
});

describe('convert: format html', () => {
  it('returns the decoded page with head metadata and no Markdown', async () => {
    const bytes = iconv.encode(
      '<html lang="fr"><head><meta charset="windows-1252"><title>Caf\u00e9 &amp; cr\u00e8me</title></head><body>5 \u20ac</body></html>',
      'windows-1252',
    );
    const result = await convert({ bytes, contentType: 'text/html', url: URL_, format: 'html' });
    expect(result).toEqual({
      markdown: '',
      html: '<html lang="fr"><head><meta charset="windows-1252"><title>Café &amp; crème</title></head><body>5 €</body></html>',
      title: 'Café & crème',
      language: 'fr',
      content_type: 'text/html',
    });
    expect(htmlToMarkdown).not.toHaveBeenCalled();
  });

  it('returns other kinds as the decoded document', async () => {
    expect(
      await convert({ bytes: utf8('{"a":1}'), contentType: 'application/json', url: URL_, format: 'html' }),
    ).toEqual({
      markdown: '',
      html: '{"a":1}',
      content_type: 'application/json',
    });
  });
});

describe('index re-exports', () => {
  it('exposes the gate, classification, sniffing, challenge and charset helpers', async () => {
    expect(rejectedExtension(new URL('https://x.example/a.pdf'))).toBe('pdf');
    expect(classifyContentType('text/html')).toBe('html');
    expect(parseContentType('text/html; charset=UTF-8')).toEqual({ essence: 'text/html', charset: 'utf-8' });
    expect(await sniffBinary(utf8('%PDF-1.4'))).toBe('application/pdf');
    expect(isChallengePage('<title>Just a moment...</title>')).toBe(true);
    expect(decodeText(utf8('ok'), null, 'text')).toEqual({ text: 'ok', encoding: 'utf-8' });
  });
});
