/**
 * Fixture-site scenarios for the browser's options and bounds: pages that move the main
 * frame by script or meta refresh, a redirect that sets a cookie the page after it needs, a
 * page that shows an element late, pages to take a picture of, and pages whose scripts
 * allocate memory.
 */
import { send, type Scenario } from './fixture-scenarios.js';

const HTML = 'text/html; charset=utf-8';

/** Text the late element holds, written `:ms` after load (in two parts: the source does not hold it). */
export const LATE_TEXT = 'The ferry timetable for the winter season is now posted';

/** The picture page: CSS pixels and the colours a probe should find there. */
export const PICTURE = {
  height: 5_000,
  probes: [
    { x: 100, y: 100, rgb: [255, 0, 0] },
    { x: 100, y: 2_000, rgb: [255, 255, 255] },
    { x: 100, y: 3_100, rgb: [0, 0, 255] },
    // The image, which a text render does not load but a screenshot does.
    { x: 700, y: 100, rgb: [0, 255, 0] },
  ],
} as const;

const GREEN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00ff00"/></svg>';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page a `hog` allocates in: `heap` (arrays, in the V8 heap) or `buffers` (outside it),
 * `mb` in all, in a tight loop or one step every `paceMs`; its load waits `holdMs`; after
 * its load, a request of `busyMs` keeps its network busy.
 */
function hogHtml(kind: string, mb: number, paceMs: number, holdMs: number, busyMs = 0): string {
  const step =
    kind === 'heap'
      ? // 128 Ki doubles: 1 MB of V8 heap each (a repeated string would be a rope of a few bytes).
        `keep.push(new Array(1 << 17).fill(got + 0.5)); got += 1;`
      : `const b = new Uint8Array(16 << 20); b.fill(got & 255 || 1); keep.push(b); got += 16;`;
  const loop =
    paceMs > 0
      ? `const next = () => { if (got >= ${mb}) return done(); ${step} setTimeout(next, ${paceMs}); }; next();`
      : `while (got < ${mb}) { ${step} } done();`;
  return `<!doctype html><html><head><title>Hog</title></head><body><p id="out">Allocating memory in a loop.</p>
<script>
window.keep = [];
const keep = window.keep;
let got = 0;
const done = () => { document.getElementById('out').textContent = 'Allocated ' + got + ' MB and kept it.'; };
${loop}
${busyMs > 0 ? `window.addEventListener('load', () => fetch('/delay/${busyMs}'));` : ''}
</script>${holdMs > 0 ? `<script src="/delay/${holdMs}"></script>` : ''}</body></html>`;
}

export function browserScenarios(): Scenario[] {
  return [
    {
      path: '/moves/script',
      description: 'a page whose script moves the main frame to ?to= at once',
      handle: ({ res, url }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Moving</title></head><body><p>Moving on to the next page.</p><script>location.href = ${JSON.stringify(url.searchParams.get('to') ?? '/')};</script></body></html>`,
        ),
    },
    {
      path: '/moves/refresh',
      description: 'a page whose meta refresh moves the main frame to ?to= at once',
      handle: ({ res, url }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Moving</title><meta http-equiv="refresh" content="0; url=${escapeHtml(url.searchParams.get('to') ?? '/')}"></head><body><p>Moving on to the next page.</p></body></html>`,
        ),
    },
    {
      path: '/cookie-gate/set',
      description: 'a 302 to /cookie-gate/check that sets the cookie the check wants',
      handle: ({ res }) =>
        send(res, 302, 'text/plain', 'on to the check', {
          location: '/cookie-gate/check',
          'set-cookie': 'gate=passed; Path=/; Max-Age=600',
        }),
    },
    {
      path: '/cookie-gate/check',
      description: 'the page after the gate: says whether the request carried its cookie',
      handle: ({ req, res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Gate</title></head><body><p>${/(?:^|;\s*)gate=passed(?:;|$)/.test(String(req.headers.cookie ?? '')) ? 'The gate saw its cookie and let the visitor through.' : 'The gate saw no cookie.'}</p></body></html>`,
        ),
    },
    {
      path: '/shows-late/:ms',
      description: 'readable text at once; a #late element written :ms after load',
      handle: ({ res, params }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Timetable</title></head><body><main><h1>Timetable</h1><p>Loading the timetable, one moment please.</p><div id="slot"></div></main>
<script>addEventListener('load', () => setTimeout(() => { document.getElementById('slot').innerHTML = '<section id="late"><p>' + ${JSON.stringify(LATE_TEXT.slice(0, 10))} + ${JSON.stringify(LATE_TEXT.slice(10))} + '.</p></section>'; }, ${Number(params.ms)}));</script></body></html>`,
        ),
    },
    {
      path: '/picture',
      description: `a ${PICTURE.height} px page: a red band on top, a green image, a blue band at 3,000 px`,
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Picture</title><style>body{margin:0;background:#fff}div{width:100%}</style></head><body>
<div style="height:400px;background:#ff0000;position:relative"><img src="/picture/green.svg" style="position:absolute;left:600px;top:0;width:200px;height:200px" alt=""></div>
<div style="height:2600px"><p style="margin:0;padding:20px;font:16px sans-serif">A page to take a picture of: red on top, blue further down.</p></div>
<div style="height:400px;background:#0000ff"></div><div style="height:1600px"></div></body></html>`,
        ),
    },
    {
      path: '/picture/green.svg',
      description: 'a green square',
      handle: ({ res }) => send(res, 200, 'image/svg+xml', GREEN_SVG),
    },
    {
      path: '/picture/tall',
      description: 'a page 20,000 px tall',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          '<!doctype html><html><head><title>Tall</title></head><body style="margin:0"><p>A very tall page.</p><div style="height:20000px"></div></body></html>',
        ),
    },
    {
      path: '/picture/noise',
      description: 'a canvas of random pixels (a PNG that does not compress)',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Noise</title></head><body style="margin:0"><p>Noise below.</p><canvas id="c" width="1280" height="800"></canvas>
<script>const c = document.getElementById('c').getContext('2d'); const img = c.createImageData(1280, 800); for (let i = 0; i < img.data.length; i++) img.data[i] = (Math.random() * 256) | 0; c.putImageData(img, 0, 0);</script></body></html>`,
        ),
    },
    {
      path: '/hog',
      description:
        'a script that allocates ?mb= MB (default 3072) in a loop and keeps it: ?kind=heap (arrays) or buffers; a step every ?pace= ms (default: a tight loop); ?hold= ms before load; ?busy= ms of a request after load',
      handle: ({ res, url }) =>
        send(
          res,
          200,
          HTML,
          hogHtml(
            url.searchParams.get('kind') ?? 'heap',
            Number(url.searchParams.get('mb') ?? 3072),
            Number(url.searchParams.get('pace') ?? 0),
            Number(url.searchParams.get('hold') ?? 0),
            Number(url.searchParams.get('busy') ?? 0),
          ),
        ),
    },
  ];
}
