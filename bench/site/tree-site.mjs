// A plain site on loopback for the fleet benchmark (bench/fleet-bench.mjs): `pages` pages in a
// tree (page 0 at `/`, page i at `/p/<i>`, page i's children i*fanout+1 .. i*fanout+fanout),
// every answer after `latencyMs` so that a crawl of it is bound by I/O, not by the site. Each
// page has its own text (seeded words, so no two pages are near-duplicates), links to its
// children, its parent and the home page (links already seen: the crawl's de-duplication
// works too). No traps, redirects or errors: every page of the tree is a 200, so a crawl's
// rate is the crawler's. robots.txt allows everything and names /sitemap.xml, which lists
// every page in breadth-first order (for `use_sitemap: true`). Every page request is logged
// (performance.now() when it came and when its answer was sent): a bench in the same process
// reads the crawl's timeline on its own clock. Node's standard library only.
import http from 'node:http';

const WORDS = (
  'harbour lantern tide ferry estuary dune keeper signal beacon current shoal pier anchor ' +
  'rope sail mast hull keel rudder compass chart sounding fathom buoy channel reef cove ' +
  'inlet cliff headland spit marsh reed heron gull tern plover curlew oyster mussel crab ' +
  'lobster net trawl catch market quay warehouse crane cargo barrel timber salt brine ' +
  'storm gale squall calm fog mist drizzle sleet frost thaw spring summer autumn winter ' +
  'morning evening night dawn dusk noon ledger record survey map measure count weigh ' +
  'north south east west river bridge ford mill wheel stone brick slate roof chimney ' +
  'garden orchard meadow hedge lane road track path gate fence field barn stable cart'
).split(' ');

/** mulberry32: seeded numbers in [0, 1). @param {number} seed */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @param {number} i */
const pathOf = (i) => (i === 0 ? '/' : `/p/${i}`);

/**
 * Starts the tree site on `host` (a free port).
 * @param {{ pages?: number; fanout?: number; latencyMs?: number; host?: string; words?: number }} [options]
 *   pages: pages in the tree (default 2,000); fanout: children per page (default 10);
 *   latencyMs: milliseconds before every answer (default 200); words: words of text per page (default 150).
 * @returns {Promise<{ origin: string; pages: number; urls: string[]; stats(): { requests: number; pageRequests: number; refetched: number; maxConcurrent: number; open: number; timeline: { page: number; at: number; answered: number }[] }; resetStats(): void; close(): Promise<void> }>}
 */
export async function startTreeSite(options = {}) {
  const { pages = 2_000, fanout = 10, latencyMs = 200, host = '127.0.0.1', words = 150 } = options;
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`pages must be a positive integer, got ${pages}`);
  if (!Number.isInteger(fanout) || fanout < 1) throw new RangeError(`fanout must be a positive integer, got ${fanout}`);
  let origin = '';
  let requests = 0;
  /** @type {Map<number, number>} page -> requests */
  let hits = new Map();
  let current = 0;
  let maxConcurrent = 0;
  /** @type {{ page: number; at: number; answered: number }[]} page requests: when each came and was answered (performance.now()) */
  let timeline = [];

  /** @param {number} i */
  const page = (i) => {
    const r = generator(Math.imul(i + 1, 0x9e3779b1));
    const text = [];
    for (let p = 0; p < 3; p++) {
      const sentence = Array.from({ length: Math.ceil(words / 3) }, () => WORDS[Math.floor(r() * WORDS.length)]);
      text.push(`<p>Record ${i}.${p + 1}: ${sentence.join(' ')}.</p>`);
    }
    const children = [];
    for (let c = i * fanout + 1; c <= i * fanout + fanout && c < pages; c++)
      children.push(`<li><a href="${pathOf(c)}">Page ${c}</a></li>`);
    const parent = i === 0 ? '' : `<a href="${pathOf(Math.floor((i - 1) / fanout))}">Up</a> `;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page ${i} | Tree site</title></head>
<body><nav><a href="/">Home</a> ${parent}</nav>
<main><article><h1>Page ${i}</h1>
${text.join('\n')}
${children.length ? `<ul>${children.join('')}</ul>` : ''}
</article></main></body></html>
`;
  };

  const sitemap = () =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
      { length: pages },
      (_, i) => `<url><loc>${origin}${pathOf(i)}</loc></url>`,
    ).join('\n')}\n</urlset>\n`;

  const server = http.createServer((req, res) => {
    requests += 1;
    current += 1;
    if (current > maxConcurrent) maxConcurrent = current;
    let counted = true;
    const finished = () => {
      if (counted) current -= 1;
      counted = false;
    };
    res.once('finish', finished);
    res.once('close', finished);
    const at = performance.now();
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    /** @type {[number, string, string]} */
    let reply;
    const match = /^\/p\/(\d{1,9})$/.exec(url.pathname);
    const index = url.pathname === '/' ? 0 : match ? Number(match[1]) : -1;
    if (index >= 0 && index < pages && (index === 0 || String(index) === match?.[1])) {
      hits.set(index, (hits.get(index) ?? 0) + 1);
      const entry = { page: index, at, answered: NaN };
      timeline.push(entry);
      res.once('finish', () => (entry.answered = performance.now()));
      reply = [200, 'text/html; charset=utf-8', page(index)];
    } else if (url.pathname === '/robots.txt')
      reply = [200, 'text/plain; charset=utf-8', `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`];
    else if (url.pathname === '/sitemap.xml') reply = [200, 'application/xml; charset=utf-8', sitemap()];
    else reply = [404, 'text/plain; charset=utf-8', 'Not found\n'];
    const send = () => {
      const body = Buffer.from(reply[2]);
      res.writeHead(reply[0], { 'content-type': reply[1], 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (latencyMs > 0) setTimeout(send, latencyMs);
    else setImmediate(send);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    origin,
    pages,
    urls: Array.from({ length: pages }, (_, i) => origin + pathOf(i)),
    stats: () => ({
      requests,
      pageRequests: [...hits.values()].reduce((a, b) => a + b, 0),
      refetched: [...hits.values()].filter((n) => n > 1).length,
      maxConcurrent,
      open: current,
      timeline: timeline.map((e) => ({ ...e })),
    }),
    resetStats: () => {
      requests = 0;
      hits = new Map();
      timeline = [];
      maxConcurrent = current;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
