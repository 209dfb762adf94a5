/**
 * Fixture-site scenarios for the page controls (include_links, include/exclude_selectors,
 * wait_for_selector, max_age, screenshot): pass `pageControlScenarios()` to
 * startFixtureSite. Each page's facts are exported beside it for the tests to assert on.
 */
import { send, type Scenario } from './fixture-scenarios.js';

const HTML = 'text/html; charset=utf-8';

const PARAGRAPHS = [
  'The harbour master keeps the tide tables for the whole estuary and posts them on the pier every morning before the first ferry leaves.',
  'Visitors moor on the west pontoon, pay the berth fee at the office and may stay for up to three nights when the season is busy.',
  'The lights on both pier heads are lit from sunset to sunrise, and the white sector light on the hill marks the safe line into the harbour.',
];

/**
 * `/controls/links`: relative, duplicate, tracking-tagged, `javascript:`, `mailto:`, `tel:`,
 * in-page and self-with-fragment links, a navigation outside the article and an image link.
 */
export const LINKS_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour guide</title></head>
<body>
<nav class="site-nav"><a href="/">Home</a> <a href="/controls/about">About the harbour</a> <a href="/controls/contact">Contact</a></nav>
<article>
<h1>Harbour guide</h1>
<p>${PARAGRAPHS[0]} See the <a href="tides.html?utm_source=newsletter&amp;utm_medium=email">tide tables</a> and the
<a href="/controls/berths">berth prices</a>.</p>
<p>${PARAGRAPHS[1]} Again: <a href="./tides.html">the tide tables</a>, <a href="https://example.org/lights#north">the lights</a>
and <a href="#moorings">moorings below</a>.</p>
<p id="moorings">${PARAGRAPHS[2]} <a href="javascript:void(0)">Open map</a> <a href="mailto:office@example.org">Write to us</a>
<a href="tel:+441234">Call</a> <a href="/controls/links#top">Back to top</a>
<a href="/controls/gallery"><img src="/x.png" alt="Harbour gallery"></a></p>
</article>
<footer><a href="/controls/imprint?fbclid=abc123">Imprint</a> <a href="/controls/about">About</a></footer>
</body></html>`;

/** The links LINKS_HTML yields at `origin`, in page order (in_content as the extractor decides it). */
export function expectedLinks(origin: string): { url: string; text: string; in_content: boolean }[] {
  return [
    { url: `${origin}/`, text: 'Home', in_content: false },
    { url: `${origin}/controls/about`, text: 'About the harbour', in_content: false },
    { url: `${origin}/controls/contact`, text: 'Contact', in_content: false },
    { url: `${origin}/controls/tides.html`, text: 'tide tables', in_content: true },
    { url: `${origin}/controls/berths`, text: 'berth prices', in_content: true },
    { url: 'https://example.org/lights#north', text: 'the lights', in_content: true },
    { url: `${origin}/controls/gallery`, text: 'Harbour gallery', in_content: true },
    { url: `${origin}/controls/imprint`, text: 'Imprint', in_content: false },
  ];
}

/** `/controls/many-links`: 1,200 distinct links, past the list's cap of 1,000. */
export const MANY_LINKS_HTML = `<!doctype html><html><head><title>Index</title></head><body><h1>Index</h1><p>${PARAGRAPHS[0]}</p><ul>${Array.from(
  { length: 1200 },
  (_, i) => `<li><a href="/item/${i}">Item ${i}</a></li>`,
).join('')}</ul></body></html>`;

/** The sidebar page's article and sidebar texts. */
export const SIDEBAR_ARTICLE = PARAGRAPHS[0] as string;
export const SIDEBAR_NOTE = 'Opening hours of the harbour office: weekdays from eight until six, Saturdays until noon.';
export const SIDEBAR_ASIDE = 'Related reading: the lighthouse keepers of the northern coast and their logbooks.';
export const SIDEBAR_REMARK =
  'Editor’s remark: the old customs house by the quay is now a museum of the herring trade.';

/** `/controls/sidebar`: an article, a sidebar holding a note, a related box and a remark. */
export const SIDEBAR_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour office</title></head>
<body>
<header><p>Harbour of Port Ellen</p></header>
<main><article class="post"><h1>Harbour office</h1><p>${SIDEBAR_ARTICLE}</p><p>${PARAGRAPHS[1]}</p>
<p class="remark">${SIDEBAR_REMARK}</p><p>${PARAGRAPHS[2]}</p></article></main>
<aside class="sidebar"><div class="note"><h2>Hours</h2><p>${SIDEBAR_NOTE}</p></div>
<div class="related"><p>${SIDEBAR_ASIDE}</p><div class="note inner"><p>Nested note inside the related box.</p></div></div></aside>
</body></html>`;

/** Text a script writes 1 s after the load. */
export const LATE_TEXT = 'The evening ferry leaves the east pier at half past seven when the tide allows it';

/** `/controls/late`: a page with static text (nothing makes `auto` render it) and a timetable a script writes 1 s after load. */
export const LATE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ferry times</title></head>
<body><h1>Ferry times</h1><p>${PARAGRAPHS[0]}</p><p>${PARAGRAPHS[2]}</p><div id="slot"><p>Loading the timetable…</p></div>
<script>setTimeout(() => {
  const slot = document.getElementById('slot');
  slot.innerHTML = '<section id="timetable"><p>${LATE_TEXT}.</p><p>${PARAGRAPHS[1]}</p></section>';
}, 1000);</script></body></html>`;

/** `/controls/screenshot`: a known picture: a 1280-wide page 1,500 px tall, white, a red block at the top left, a blue band at 1,200 px. */
export const SCREENSHOT_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Colours</title>
<style>html,body{margin:0;background:#ffffff}#red{position:absolute;left:0;top:0;width:200px;height:100px;background:#ff0000}
#blue{position:absolute;left:0;top:1200px;width:100%;height:100px;background:#0000ff}#tall{height:1500px}</style></head>
<body><div id="tall"><p style="margin:0;padding:150px 0 0 20px">${PARAGRAPHS[0]}</p></div><div id="red"></div><div id="blue"></div></body></html>`;

/** The visit counter's text: it changes on every fetch, so a test can tell a cached copy from a fresh one. */
export const visitText = (n: number): string =>
  `This is visit number ${n} to the harbour notice board. ${PARAGRAPHS[2]}`;

export function pageControlScenarios(): Scenario[] {
  const page = (body: string) => (ctx: { res: Parameters<typeof send>[0] }) => send(ctx.res, 200, HTML, body);
  return [
    { path: '/controls/links', description: 'every kind of link', handle: page(LINKS_HTML) },
    { path: '/controls/many-links', description: '1,200 distinct links', handle: page(MANY_LINKS_HTML) },
    { path: '/controls/sidebar', description: 'an article beside a sidebar', handle: page(SIDEBAR_HTML) },
    { path: '/controls/late', description: 'text written by a script after 1 s', handle: page(LATE_HTML) },
    { path: '/controls/screenshot', description: 'a known picture', handle: page(SCREENSHOT_HTML) },
    countingPage('/controls/visits', 'a page that counts its visits'),
    countingPage('/controls/visits-stealth', 'the same, for the stealth cache key'),
  ];
}

/** A page whose text names how many times it was fetched: a cache hit shows an old count. */
function countingPage(path: string, description: string): Scenario {
  let visits = 0;
  return {
    path,
    description,
    handle: (ctx) => {
      visits += 1;
      send(
        ctx.res,
        200,
        HTML,
        `<!doctype html><html><head><title>Notice board</title></head><body><article><h1>Notice board</h1><p>${visitText(visits)}</p></article></body></html>`,
      );
    },
  };
}
