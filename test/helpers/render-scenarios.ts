/**
 * Fixture-site scenarios for the rendering tests: a single-page app whose text exists only
 * after its scripts ran, a page that tries every way out to a canary origin, a page that
 * never finishes loading, and a bot wall that lets only a real browser through.
 */
import { send, type Scenario } from './fixture-scenarios.js';

const HTML = 'text/html; charset=utf-8';

/** A sentence that exists only once the app's script ran. */
export const SPA_TEXT = 'The harbour opens at dawn when the tide turns';

const SPA_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide app</title></head>
<body><div id="root"></div><script src="/spa/app.js"></script></body></html>`;

const SPA_SCRIPT = `fetch('/spa/data.json').then((r) => r.json()).then((data) => {
  const root = document.getElementById('root');
  const article = document.createElement('article');
  const h1 = document.createElement('h1');
  h1.textContent = data.title;
  article.append(h1);
  for (const text of data.paragraphs) {
    const p = document.createElement('p');
    p.textContent = text;
    article.append(p);
  }
  root.append(article);
});`;

const SPA_DATA = {
  title: 'Harbour timetable',
  paragraphs: [
    `${SPA_TEXT}, and the pilot boat waits by the east pier until the channel is deep enough for the ferries.`,
    'Fishing boats leave two hours before high water and return on the ebb; visitors should moor on the west pontoon and ask at the office for a berth.',
    'The lights on both pier heads are lit from sunset to sunrise, and the white sector light on the hill marks the safe line into the harbour.',
  ],
};

/** Outcomes the guard page reports once every attempt finished (one word each). */
export const GUARD_ATTEMPTS = 12;

/** The guard page: every kind of request a page can make, aimed at the canary's port. */
function guardHtml(canaryPort: number): string {
  const canary = `http://127.0.0.1:${canaryPort}`;
  const redirect = (path: string) => `/redirect-to?url=${encodeURIComponent(`${canary}${path}`)}`;
  // A worker's own requests are no page's: a dedicated worker's fetch and WebSocket, and a
  // shared worker (a browser-wide one) fetching.
  const worker = `fetch('${canary}/worker-fetch', { mode: 'no-cors' }).then(() => postMessage('reached'), () => {
  const ws = new WebSocket('ws://127.0.0.1:${canaryPort}/worker-ws');
  ws.onopen = () => postMessage('reached');
  ws.onerror = ws.onclose = () => postMessage('refused');
});`;
  const shared = `onconnect = (event) => fetch('${canary}/shared-fetch', { mode: 'no-cors' }).then(() => event.ports[0].postMessage('reached'), () => event.ports[0].postMessage('refused'));`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Guarded page</title>
<link rel="preconnect" href="${canary}">
<link rel="dns-prefetch" href="http://localhost:${canaryPort}">
<link rel="prefetch" href="${canary}/prefetch">
<link rel="stylesheet" href="${redirect('/style.css')}">
<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["${canary}/speculative-prefetch"]}], "prerender": [{"source": "list", "urls": ["${canary}/speculative-prerender"]}]}</script>
<script src="${canary}/script.js"></script>
</head><body><h1>Guarded page</h1><p id="status">attempts running</p>
<img src="${canary}/image.png" alt="">
<iframe src="${canary}/frame"></iframe>
<iframe src="http://localhost:${canaryPort}/frame-by-name"></iframe>
<iframe src="${redirect('/frame-redirected')}"></iframe>
<iframe name="posted" src="about:blank"></iframe>
<form id="post" method="post" action="${canary}/form" target="posted"><input name="q" value="harbour"></form>
<script>
const attempt = (p) => p.then(() => 'reached', () => 'refused');
const blob = (source) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
document.getElementById('post').submit();
navigator.sendBeacon('${canary}/beacon', 'seen');
Promise.all([
  attempt(fetch('${canary}/fetch', { mode: 'no-cors' })),
  attempt(fetch('${redirect('/fetch-redirected')}', { mode: 'no-cors' })),
  attempt(fetch('http://[::ffff:127.0.0.1]:${canaryPort}/mapped', { mode: 'no-cors' })),
  attempt(fetch('https://127.0.0.1:${canaryPort}/tls', { mode: 'no-cors' })),
  new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', '${canary}/xhr');
    xhr.onload = () => resolve('reached');
    xhr.onerror = () => resolve('refused');
    xhr.send();
  }),
  new Promise((resolve) => {
    const ws = new WebSocket('ws://127.0.0.1:${canaryPort}/ws');
    ws.onopen = () => resolve('reached');
    ws.onerror = ws.onclose = () => resolve('refused');
  }),
  new Promise((resolve) => {
    const ws = new WebSocket('wss://127.0.0.1:${canaryPort}/wss');
    ws.onopen = () => resolve('reached');
    ws.onerror = ws.onclose = () => resolve('refused');
  }),
  new Promise((resolve) => {
    const worker = new Worker(blob(${JSON.stringify(worker)}));
    worker.onmessage = (event) => resolve('worker-' + event.data);
    setTimeout(() => resolve('worker-waiting'), 1500);
  }),
  new Promise((resolve) => {
    try {
      const shared = new SharedWorker(blob(${JSON.stringify(shared)}));
      shared.port.onmessage = (event) => resolve('shared-' + event.data);
      setTimeout(() => resolve('shared-waiting'), 1500);
    } catch (error) {
      resolve('no-shared-worker');
    }
  }),
  // A service worker (served by the allowed origin) would fetch for the page, past its route.
  navigator.serviceWorker.register('/sw.js').then((registration) => (registration ? 'sw-registered' : 'sw-blocked'), () => 'sw-refused'),
  // WebRTC's STUN (UDP) and TURN (UDP, TCP) and WebTransport (QUIC) do not use the proxy by themselves.
  new Promise((resolve) => {
    try {
      const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${canaryPort}' }, { urls: ['turn:127.0.0.1:${canaryPort}?transport=udp', 'turn:127.0.0.1:${canaryPort}?transport=tcp'], username: 'u', credential: 'p' }] });
      pc.createDataChannel('probe');
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve('gathered');
      pc.createOffer().then((offer) => pc.setLocalDescription(offer));
      setTimeout(() => resolve('gathering'), 1500);
    } catch (error) {
      resolve('no-webrtc');
    }
  }),
  new Promise((resolve) => {
    try {
      const wt = new WebTransport('https://127.0.0.1:${canaryPort}/wt');
      wt.ready.then(() => resolve('reached'), () => resolve('refused'));
      setTimeout(() => resolve('waiting'), 1500);
    } catch (error) {
      resolve('no-webtransport');
    }
  }),
]).then((outcomes) => {
  document.getElementById('status').textContent = 'all attempts finished: ' + outcomes.join(' ');
});
</script>
<!-- Holds the load event (and so the render) until the attempts above have had their time. -->
<script src="/delay/2000"></script></body></html>`;
}

/** The bot wall's verdict on a request: the content, a challenge a browser can pass, or a flat refusal. */
function wall(headers: Record<string, string | string[] | undefined>): 'content' | 'challenge' | 'refused' {
  const ua = String(headers['user-agent'] ?? '');
  const browserLike =
    /Chrome\/\d+/.test(ua) &&
    !/Headless|websearch-mcp/i.test(ua) &&
    /"Chromium"/.test(String(headers['sec-ch-ua'] ?? '')) &&
    headers['sec-ch-ua-platform'] === '"Linux"';
  if (!browserLike) return 'refused';
  return /(?:^|;\s*)wall=passed(?:;|$)/.test(String(headers.cookie ?? '')) ? 'content' : 'challenge';
}

const WALL_CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title></head>
<body><p>Checking your browser before accessing the harbour site.</p>
<script>document.cookie = 'wall=passed; path=/'; setTimeout(() => location.reload(), 50);</script></body></html>`;

const WALL_CONTENT = `<!doctype html><html lang="en"><head><title>Harbour notices</title></head><body><main><article>
<h1>Harbour notices</h1>
<p>The south slipway is closed for repairs until the end of the month; launch from the north ramp instead.</p>
<p>Browser check: <span id="profile"></span></p>
<script>document.getElementById('profile').textContent = 'webdriver=' + navigator.webdriver + ' tz=' + Intl.DateTimeFormat().resolvedOptions().timeZone + ' lang=' + navigator.language;</script>
</article></main></body></html>`;

export function renderScenarios(canaryPort: () => number): Scenario[] {
  return [
    {
      path: '/spa',
      description: 'single-page app: an empty root until /spa/app.js runs',
      handle: ({ res }) => send(res, 200, HTML, SPA_HTML),
    },
    {
      path: '/spa/app.js',
      description: 'the app: fetches its data and writes the article',
      handle: ({ res }) => send(res, 200, 'text/javascript', SPA_SCRIPT),
    },
    {
      path: '/spa/data.json',
      description: 'the app data',
      handle: ({ res }) => send(res, 200, 'application/json', JSON.stringify(SPA_DATA)),
    },
    {
      path: '/late',
      description: 'an app that writes its text on a timer, 600 ms after load, with the network long quiet',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Late app</title></head><body><div id="root"></div><script>addEventListener('load', () => setTimeout(() => { document.getElementById('root').innerHTML = '<article><h1>Late</h1><p>${SPA_TEXT}.</p></article>'; }, 600));</script></body></html>`,
        ),
    },
    {
      path: '/hop',
      description: 'an empty page whose script moves on, 300 ms after load, to /hop/there, which has the text',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Moving</title></head><body><div id="root"></div><script>addEventListener('load', () => setTimeout(() => location.replace('/hop/there'), 300));</script></body></html>`,
        ),
    },
    {
      path: '/hop/there',
      description: 'where /hop moves to',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><html><head><title>Arrived</title></head><body><article><h1>Arrived</h1><p>${SPA_TEXT}.</p></article></body></html>`,
        ),
    },
    {
      path: '/guarded',
      description: 'a page reaching for the canary origin every way it can',
      handle: ({ res }) => send(res, 200, HTML, guardHtml(canaryPort())),
    },
    {
      path: '/sw.js',
      description: 'a service worker that reaches for the canary',
      handle: ({ res }) =>
        send(
          res,
          200,
          'text/javascript',
          `self.addEventListener('install', () => fetch('http://127.0.0.1:${canaryPort()}/service-worker', { mode: 'no-cors' }));`,
        ),
    },
    {
      path: '/memory',
      description: 'a page that shows what an earlier visit left (cookie, localStorage), then leaves some',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          `<!doctype html><title>Memory</title><p id="seen"></p><script>
document.getElementById('seen').textContent = 'Left by earlier visits: cookie [' + document.cookie + '] storage [' + (localStorage.getItem('visit') ?? '') + ']';
document.cookie = 'visit=1; path=/; max-age=3600';
localStorage.setItem('visit', 'one');
</script>`,
        ),
    },
    {
      path: '/never-loads',
      description: 'text, and a script that never arrives: the load event never fires',
      handle: ({ res }) =>
        send(
          res,
          200,
          HTML,
          '<!doctype html><title>Slow</title><p>Waiting for a script that never comes.</p><script src="/hang"></script>',
        ),
    },
    {
      path: '/wall',
      description:
        'bot wall: 403 for the project, a script challenge for browsers, the content once the challenge set its cookie',
      handle: ({ req, res }) => {
        const verdict = wall(req.headers);
        if (verdict === 'content') send(res, 200, HTML, WALL_CONTENT);
        else if (verdict === 'challenge') send(res, 403, HTML, WALL_CHALLENGE, { 'cache-control': 'no-store' });
        else
          send(res, 403, HTML, '<!doctype html><title>Access denied</title><p>Automated clients are not allowed.</p>');
      },
    },
  ];
}
