/**
 * The fixture site's named scenarios, one row per path. Add yours to the table (or pass
 * extra rows to startFixtureSite): `path` is matched exactly, `:name` segments capture.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  binaryAsTextBytes,
  bomUtf8Bytes,
  encodeBody,
  gzipBomb,
  latin1Bytes,
  pdfBytes,
  pngBytes,
  shiftJisBytes,
} from './fixture-binaries.js';
import * as pages from './fixture-pages.js';
import { hostileBody } from '../../bench/fixtures/hostile-pages.mjs';

export type RobotsMode =
  | 'ok'
  | '404'
  | '401'
  | '403'
  | '429'
  | '500'
  | '503'
  | 'timeout'
  | 'redirect'
  | 'huge'
  | { body: string; status?: number };

export interface ScenarioContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request URL, absolute. */
  url: URL;
  /** Captured `:name` segments. */
  params: Record<string, string>;
  /** The site's origin, e.g. http://127.0.0.1:41234 */
  origin: string;
  robots: RobotsMode;
  /** Runs `fn` when the connection of this request closes (stop timers of endless responses). */
  onClose(fn: () => void): void;
}

export interface Scenario {
  path: string;
  description: string;
  handle(ctx: ScenarioContext): void | Promise<void>;
}

const MiB = 1024 * 1024;
const HTML = 'text/html; charset=utf-8';

export function send(
  res: ServerResponse,
  status: number,
  type: string | undefined,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // 1xx/204/304 never have a body (RFC 9110 6.4.1), hence no Content-Length either.
  const bodiless = status < 200 || status === 204 || status === 304;
  res.writeHead(status, {
    ...(type ? { 'content-type': type } : {}),
    ...(bodiless ? {} : { 'content-length': String(bytes.length) }),
    ...headers,
  });
  res.end(bodiless ? undefined : bytes);
}

const page = (type: string | undefined, body: string | Buffer | (() => Buffer)) => (ctx: ScenarioContext) =>
  send(ctx.res, 200, type, typeof body === 'function' ? body() : body);

/** Writes `total` bytes in `chunk`-sized pieces, respecting backpressure, then ends. */
function stream(ctx: ScenarioContext, total: number, chunk: Buffer): void {
  let sent = 0;
  let closed = false;
  ctx.onClose(() => (closed = true));
  const pump = (): void => {
    while (!closed && sent < total) {
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      if (!ctx.res.write(piece)) {
        ctx.res.once('drain', pump);
        return;
      }
    }
    if (!closed) ctx.res.end();
  };
  pump();
}

/** Sends headers and never anything more (the socket stays open until the client leaves). */
function hold(ctx: ScenarioContext): void {
  ctx.onClose(() => undefined);
}

function robotsTxt(ctx: ScenarioContext): void {
  const mode = ctx.robots;
  const text = 'text/plain; charset=utf-8';
  if (typeof mode === 'object') return send(ctx.res, mode.status ?? 200, text, mode.body);
  switch (mode) {
    case 'ok':
      return send(ctx.res, 200, text, pages.DEFAULT_ROBOTS_TXT);
    case 'huge':
      return send(ctx.res, 200, text, pages.hugeRobotsTxt());
    case 'redirect':
      return send(ctx.res, 301, text, 'moved', { location: '/robots-moved.txt' });
    case 'timeout':
      return hold(ctx); // never answers
    default:
      return send(ctx.res, Number(mode), text, `robots.txt status ${mode}`);
  }
}

export const scenarios: Scenario[] = [
  { path: '/robots.txt', description: 'robots.txt in the mode the site was started with', handle: robotsTxt },
  {
    path: '/robots-moved.txt',
    description: 'target of the robots "redirect" mode',
    handle: page('text/plain', pages.DEFAULT_ROBOTS_TXT),
  },

  // Content types.
  { path: '/html', description: 'UTF-8 article with boilerplate', handle: page(HTML, pages.ARTICLE_HTML) },
  {
    path: '/product',
    description: 'product page: description in a sheet dialog, price only in JSON-LD',
    handle: page(HTML, pages.PRODUCT_HTML),
  },
  {
    path: '/formulas',
    description: 'lecture page: MathJax 2 and KaTeX formulas, a table with lists in its cells',
    handle: page(HTML, pages.FORMULAS_HTML),
  },
  { path: '/text', description: 'text/plain', handle: page('text/plain; charset=utf-8', pages.TEXT_PAGE) },
  {
    path: '/markdown',
    description: 'text/markdown',
    handle: page('text/markdown; charset=utf-8', pages.MARKDOWN_PAGE),
  },
  { path: '/csv', description: 'text/csv', handle: page('text/csv; charset=utf-8', pages.CSV_PAGE) },
  { path: '/json', description: 'application/json', handle: page('application/json', pages.JSON_PAGE) },
  { path: '/ld-json', description: 'application/ld+json', handle: page('application/ld+json', pages.LD_JSON_PAGE) },
  { path: '/rss', description: 'RSS 2.0 feed', handle: page('application/rss+xml; charset=utf-8', pages.RSS_PAGE) },
  { path: '/atom', description: 'Atom feed', handle: page('application/atom+xml; charset=utf-8', pages.ATOM_PAGE) },
  { path: '/sitemap.xml', description: 'XML sitemap', handle: page('application/xml', pages.SITEMAP_PAGE) },
  { path: '/xml', description: 'generic XML', handle: page('text/xml; charset=utf-8', pages.XML_PAGE) },
  { path: '/xhtml', description: 'XHTML', handle: page('application/xhtml+xml; charset=utf-8', pages.XHTML_PAGE) },
  {
    path: '/latin1',
    description: 'windows-1252 bytes, charset in the header',
    handle: page('text/html; charset=ISO-8859-1', () => latin1Bytes(false)),
  },
  {
    path: '/latin1-meta',
    description: 'windows-1252 bytes, charset only in <meta>',
    handle: page('text/html', () => latin1Bytes(true)),
  },
  { path: '/shift-jis', description: 'Shift_JIS bytes', handle: page('text/html; charset=Shift_JIS', shiftJisBytes) },
  {
    path: '/bom-utf8',
    description: 'UTF-8 with BOM, no charset in the header',
    handle: page('text/html', bomUtf8Bytes),
  },
  { path: '/empty', description: '200 text/html with an empty body', handle: page(HTML, '') },
  {
    path: '/no-content-type',
    description: 'HTML without a Content-Type header',
    handle: page(undefined, pages.SMALL_PAGE('No type', 'This page has no Content-Type header.')),
  },
  {
    path: '/challenge',
    description: 'Cloudflare-style "Just a moment..." served with 200',
    handle: page(HTML, pages.CHALLENGE_HTML),
  },
  { path: '/captcha', description: 'captcha form served with 200', handle: page(HTML, pages.CAPTCHA_HTML) },
  {
    path: '/private/page',
    description: 'disallowed for everyone by robots.txt',
    handle: page(HTML, pages.SMALL_PAGE('Private', 'Crawlers should not see this.')),
  },
  {
    path: '/no-bot/page',
    description: 'disallowed for websearch-mcp by robots.txt',
    handle: page(HTML, pages.SMALL_PAGE('No bot', 'Not for websearch-mcp.')),
  },
  {
    path: '/after-cut/page',
    description: 'disallowed only after the 500 KiB cut of the huge robots.txt',
    handle: page(HTML, pages.SMALL_PAGE('After cut', 'Allowed when robots.txt is truncated.')),
  },

  // Binaries (the two with extensions must never be requested by the extraction service).
  { path: '/pdf', description: 'PDF as application/pdf', handle: page('application/pdf', pdfBytes) },
  { path: '/doc.pdf', description: 'PDF with a .pdf path', handle: page('application/pdf', pdfBytes) },
  { path: '/image.png', description: 'PNG with a .png path', handle: page('image/png', pngBytes) },
  { path: '/pdf-as-html', description: 'PDF bytes labelled text/html', handle: page(HTML, pdfBytes) },
  { path: '/png-as-html', description: 'PNG bytes labelled text/html', handle: page(HTML, pngBytes) },
  {
    path: '/binary-as-text',
    description: 'control bytes labelled text/plain',
    handle: page('text/plain', binaryAsTextBytes),
  },

  // Compression.
  {
    path: '/gzip',
    description: 'gzip-encoded article',
    handle: (c) =>
      send(c.res, 200, HTML, encodeBody(Buffer.from(pages.ARTICLE_HTML), ['gzip']), { 'content-encoding': 'gzip' }),
  },
  {
    path: '/brotli',
    description: 'br-encoded article',
    handle: (c) =>
      send(c.res, 200, HTML, encodeBody(Buffer.from(pages.ARTICLE_HTML), ['br']), { 'content-encoding': 'br' }),
  },
  {
    path: '/deflate',
    description: 'zlib-wrapped deflate article',
    handle: (c) =>
      send(c.res, 200, HTML, encodeBody(Buffer.from(pages.ARTICLE_HTML), ['deflate']), {
        'content-encoding': 'deflate',
      }),
  },
  {
    path: '/deflate-raw',
    description: 'raw DEFLATE labelled "deflate" (old IIS)',
    handle: (c) =>
      send(c.res, 200, HTML, encodeBody(Buffer.from(pages.ARTICLE_HTML), ['deflate-raw']), {
        'content-encoding': 'deflate',
      }),
  },
  {
    path: '/encoded',
    description: 'the article with ?ce=<codings, in applied order>, e.g. ?ce=gzip,br or ?ce=zstd (left unencoded)',
    handle: (c) => {
      const codings = (c.url.searchParams.get('ce') ?? '').split(',').filter(Boolean);
      send(c.res, 200, HTML, encodeBody(Buffer.from(pages.ARTICLE_HTML), codings), {
        'content-encoding': codings.join(', '),
      });
    },
  },
  {
    path: '/corrupt-gzip',
    description: 'labelled gzip, but not gzip',
    handle: (c) => send(c.res, 200, HTML, 'this is not gzip at all', { 'content-encoding': 'gzip' }),
  },
  {
    path: '/gzip-bomb',
    description: '~100 KB of gzip inflating to 100 MiB of HTML-looking text (a page head, then spaces)',
    handle: async (c) => send(c.res, 200, HTML, await gzipBomb(), { 'content-encoding': 'gzip' }),
  },

  // Size.
  {
    path: '/huge-chunked',
    description: '12 MiB, chunked, no Content-Length',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': HTML });
      stream(c, 12 * MiB, Buffer.alloc(64 * 1024, '<p>harbour</p>\n'));
    },
  },
  {
    path: '/huge-declared',
    description: 'Content-Length: 50 MiB; the body only starts 300 ms after the headers, if the client is still there',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': HTML, 'content-length': String(50 * MiB) });
      c.res.flushHeaders();
      const timer = setTimeout(() => stream(c, 50 * MiB, Buffer.alloc(64 * 1024, 'x')), 300);
      c.onClose(() => clearTimeout(timer));
    },
  },
  {
    path: '/content-length-lie',
    description: 'announces 1000 bytes, sends 100, closes the connection',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': HTML, 'content-length': '1000' });
      c.res.write(Buffer.alloc(100, 'a'), () => c.res.socket?.destroy());
    },
  },
  {
    path: '/content-length-lie-more',
    description: 'announces 10 bytes, sends 100 on the raw socket',
    handle: (c) => {
      // Written on the raw socket: node:http itself refuses to send a body that
      // contradicts its Content-Length.
      c.res.socket?.end(
        `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 10\r\nconnection: close\r\n\r\n${'b'.repeat(100)}`,
      );
    },
  },

  // Time.
  {
    path: '/slow-drip',
    description: 'one byte every 500 ms (or ?interval=ms), forever',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': HTML });
      c.res.write('<');
      const timer = setInterval(() => c.res.write('p'), Number(c.url.searchParams.get('interval') ?? 500));
      c.onClose(() => clearInterval(timer));
    },
  },
  { path: '/hang', description: 'never answers (not even headers)', handle: hold },
  {
    path: '/hang-body',
    description: 'headers and a first chunk, then silence',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': HTML });
      c.res.write('<!doctype html><title>stalled</title>');
      hold(c);
    },
  },
  {
    path: '/delay/:ms',
    description: 'a small page after :ms milliseconds',
    handle: (c) => {
      const timer = setTimeout(
        () => send(c.res, 200, HTML, pages.SMALL_PAGE('Delayed', `after ${c.params.ms} ms`)),
        Number(c.params.ms),
      );
      c.onClose(() => clearTimeout(timer));
    },
  },

  // Status and redirects.
  {
    path: '/status/:code',
    description: 'any status with a short text body (no Location for 3xx)',
    handle: (c) => send(c.res, Number(c.params.code), 'text/plain; charset=utf-8', `Status ${c.params.code}`),
  },
  {
    path: '/redirect/:n',
    description: ':n hops then /html (?status=301|302|303|307|308, ?to=<final path>)',
    handle: (c) => {
      const n = Number(c.params.n);
      const query = c.url.search;
      const to = c.url.searchParams.get('to') ?? '/html';
      const location = n <= 1 ? to : `/redirect/${n - 1}${query}`;
      send(c.res, Number(c.url.searchParams.get('status') ?? 302), 'text/plain', `redirecting to ${location}`, {
        location,
      });
    },
  },
  {
    path: '/redirect-loop',
    description: 'redirects to itself',
    handle: (c) => send(c.res, 302, 'text/plain', 'again', { location: '/redirect-loop' }),
  },
  {
    path: '/redirect-to',
    description: 'redirects to ?url=<any URL> with ?status= (default 302)',
    handle: (c) =>
      send(c.res, Number(c.url.searchParams.get('status') ?? 302), 'text/plain', 'redirecting', {
        location: c.url.searchParams.get('url') ?? '/',
      }),
  },
  {
    path: '/hostile/:name',
    description: 'a page built to make conversion slow or hungry (hostile-pages.ts)',
    handle: (c) => {
      const body = hostileBody(c.params.name as string);
      if (body === undefined) send(c.res, 404, 'text/plain', 'no such hostile page');
      else send(c.res, 200, HTML, body);
    },
  },
  {
    path: '/echo',
    description: 'JSON of the request method, headers and body',
    handle: async (c) => {
      const parts: Buffer[] = [];
      for await (const part of c.req) parts.push(part as Buffer);
      send(
        c.res,
        200,
        'application/json',
        JSON.stringify({ method: c.req.method, headers: c.req.headers, body: Buffer.concat(parts).toString('utf8') }),
      );
    },
  },
];
