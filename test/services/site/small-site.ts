/**
 * A small site on 127.0.0.1 for the site map and crawl tests: robots.txt (a disallowed
 * section, a sitemap index), a gzipped child sitemap, a feed, pages that link to each
 * other, a redirect, a canonical duplicate, a near-duplicate mirror, a calendar trap and
 * session-id links. Counts every request by path and the concurrency it saw.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface SmallSite {
  origin: string;
  hits: Map<string, number>;
  maxConcurrent: number;
  /** Holds every answer from now on (the requests stay open) until resume(). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const TOPICS = ['harbours', 'lighthouses', 'tides', 'ferries', 'estuaries', 'dunes'];

function words(topic: string, n: number): string {
  const pool = [
    'the',
    'coast',
    'keeps',
    'its',
    'records',
    'of',
    topic,
    'and',
    'measures',
    'every',
    'season',
    'with',
    'care',
    'while',
    'keepers',
    'note',
    'the',
    'weather',
  ];
  return Array.from({ length: n }, (_, i) => pool[(i * 7 + topic.length) % pool.length]).join(' ');
}

function page(title: string, body: string, head = ''): string {
  const nav = TOPICS.map((t) => `<a href="/guide/${t}">${t}</a>`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><header><nav>${nav} <a href="/calendar/2026/01">Calendar</a> <a href="/private/secret">Staff</a></nav></header><main><article><h1>${title}</h1>${body}</article></main><footer><a href="https://offsite.invalid/">Elsewhere</a></footer></body></html>`;
}

function article(topic: string, extra = ''): string {
  return Array.from(
    { length: 6 },
    (_, i) => `<p>${extra}Paragraph ${i + 1} about ${topic}: ${words(topic, 60)} number ${i * 13 + topic.length}.</p>`,
  ).join('');
}

export interface SmallSiteOptions {
  robotsStatus?: number;
  crawlDelay?: number;
  /** Each response waits this long first. */
  latencyMs?: number;
  /** Pages /tree/0../tree/(n-1) in a binary tree under /tree/0, linked from the home page. */
  treePages?: number;
}

export async function startSmallSite(options: SmallSiteOptions = {}): Promise<SmallSite> {
  let origin = '';
  const hits = new Map<string, number>();
  let current = 0;
  let held: (() => void)[] | undefined;
  const site: SmallSite = {
    origin,
    hits,
    maxConcurrent: 0,
    pause: () => {
      held ??= [];
    },
    resume: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    // A request is open from its arrival to its answer's end, latency included.
    current += 1;
    site.maxConcurrent = Math.max(site.maxConcurrent, current);
    res.on('close', () => (current -= 1));
    const go = (): void => {
      if (held) held.push(() => answer(req, res));
      else answer(req, res);
    };
    if (options.latencyMs) setTimeout(go, options.latencyMs);
    else go();
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', origin);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    const html = (body: string) => send(200, 'text/html; charset=utf-8', body);
    const p = url.pathname;
    if (p === '/robots.txt') {
      if (options.robotsStatus !== undefined) return send(options.robotsStatus, 'text/plain', 'down');
      return send(
        200,
        'text/plain',
        `User-agent: *\nDisallow: /private/\n${options.crawlDelay !== undefined ? `Crawl-delay: ${options.crawlDelay}\n` : ''}Sitemap: ${origin}/sitemap-index.xml\n`,
      );
    }
    if (p === '/sitemap-index.xml')
      return send(
        200,
        'application/xml',
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemaps/guides.xml.gz</loc></sitemap></sitemapindex>`,
      );
    if (p === '/sitemaps/guides.xml.gz') {
      const urls = TOPICS.map(
        (t, i) =>
          `<url><loc>${origin}/guide/${t}${i === 0 ? '?utm_source=sitemap' : ''}</loc><lastmod>2026-0${i + 1}-15</lastmod></url>`,
      ).join('');
      const extra = `<url><loc>${origin}/private/hidden</loc></url><url><loc>${origin}/old/tides</loc></url>`;
      return send(
        200,
        'application/gzip',
        gzipSync(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}${extra}</urlset>`,
        ),
      );
    }
    if (p === '/sitemap.xml') return send(404, 'text/plain', 'none');
    if (p === '/feed.xml')
      return send(
        200,
        'application/rss+xml',
        `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><title>Storm season notes</title><link>${origin}/news/storm</link></item></channel></rss>`,
      );
    if (p === '/') {
      return html(
        page(
          'Coastal guides',
          `<p>Welcome. ${words('coast', 80)}</p><ul>${TOPICS.map((t) => `<li><a href="/guide/${t}?sessionid=abc${t.length}">${t} guide</a></li>`).join('')}<li><a href="/print/tides">Print tides</a></li><li><a href="/mirror/ferries">Ferries mirror</a></li>${options.treePages ? '<li><a href="/tree/0">Tree</a></li>' : ''}</ul>`,
          `<link rel="alternate" type="application/rss+xml" href="/feed.xml" title="News">`,
        ),
      );
    }
    const guide = /^\/guide\/(\w+)$/.exec(p);
    if (guide && TOPICS.includes(guide[1]!)) return html(page(`Guide to ${guide[1]}`, article(guide[1]!)));
    if (p === '/print/tides')
      return html(page('Guide to tides', article('tides'), `<link rel="canonical" href="${origin}/guide/tides">`));
    // The same article on another path, only its date line new: a near-duplicate without a canonical link.
    if (p === '/mirror/ferries')
      return html(page('Guide to ferries', `<p>Updated 28 November.</p>${article('ferries')}`));
    if (p === '/old/tides') {
      res.writeHead(301, { location: '/guide/tides' });
      res.end();
      return;
    }
    if (p === '/news/storm') return html(page('Storm season notes', article('storms')));
    const month = /^\/calendar\/(\d+)\/(\d+)$/.exec(p);
    if (month) {
      const n = Number(month[1]) * 12 + Number(month[2]);
      const next = `/calendar/${Math.floor((n + 1) / 12)}/${((n + 1) % 12) + 1}`;
      return html(
        page(
          `Calendar ${month[1]}-${month[2]}`,
          `<p>Events of month ${n}: ${words('calendar', 30 + (n % 7))} ${n}</p><a href="${next}">Next month</a>`,
        ),
      );
    }
    if (p.startsWith('/private/')) return html(page('Private', article('private')));
    const tree = /^\/tree\/(\d+)$/.exec(p);
    const pages = options.treePages ?? 0;
    if (tree && Number(tree[1]) < pages) {
      const n = Number(tree[1]);
      const kids = [2 * n + 1, 2 * n + 2]
        .filter((k) => k < pages)
        .map((k) => `<a href="/tree/${k}">Tree page ${k}</a>`);
      return html(
        page(
          `Tree page ${n}`,
          `<p>Tree page ${n} of ${pages}: ${words(`leaf${n}`, 40 + (n % 11))} ${n} ${n * n}.</p>${kids.join(' ')}`,
        ),
      );
    }
    return send(404, 'text/plain', 'not found');
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.origin = origin;
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return site;
}
