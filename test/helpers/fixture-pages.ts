/**
 * Text documents served by the fixture site. All content is original, written for these
 * tests (a small fictional harbour). Keep pages deterministic: tests compare output.
 */

export const ARTICLE_TITLE = 'Tide Tables and Harbour Lights';

export const ARTICLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${ARTICLE_TITLE}</title>
<meta name="description" content="A short field guide to reading tide tables and the lights of a small harbour.">
<meta name="author" content="Harbour Notes">
<link rel="canonical" href="/html">
<style>body { font-family: serif; } .site-nav a { margin: 0 4px; }</style>
<script>window.analyticsQueue = [];</script>
</head>
<body>
<nav class="site-nav"><a href="/">Home</a> <a href="/archive">Archive</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<header><p class="site-name">Harbour Notes</p></header>
<main>
<article>
<h1>${ARTICLE_TITLE}</h1>
<p class="byline">Written for the fixture site, 3 March 2024</p>
<p>Every small harbour keeps two clocks. One is the clock on the harbour office wall; the other is the
sea, which rises and falls twice a day on a schedule that drifts by almost an hour from one day to the next.
Skippers who ignore the second clock learn about it the hard way, usually while sitting on the mud.</p>
<p>This guide explains how to read the printed tide table pinned beside the slipway, how to estimate the
depth of water at the entrance between high and low water, and what the three lights on the pier heads mean
when you come home after dark.</p>
<h2>Reading a tide table</h2>
<p>A tide table lists, for each day, the times of high and low water and the predicted height of each one
above chart datum. Chart datum is a conservative reference level: on most days there is more water than the
chart shows, never much less.</p>
<table>
<caption>Predicted tides for the first week of March</caption>
<thead><tr><th>Day</th><th>High water</th><th>Height (m)</th><th>Low water</th><th>Height (m)</th></tr></thead>
<tbody>
<tr><td>Monday</td><td>06:12</td><td>4.8</td><td>12:25</td><td>0.9</td></tr>
<tr><td>Tuesday</td><td>06:58</td><td>4.6</td><td>13:10</td><td>1.1</td></tr>
<tr><td>Wednesday</td><td>07:47</td><td>4.3</td><td>14:01</td><td>1.4</td></tr>
</tbody>
</table>
<h3>The rule of twelfths</h3>
<p>Between low and high water the tide does not rise evenly. A rough rule divides the range into twelve parts:
one twelfth in the first hour, two in the second, three in the third and fourth, two in the fifth and one in
the last. The middle hours move the most water, which is also when the current at the entrance runs hardest.</p>
<pre><code class="language-python">def height_after(hours, low, high):
    twelfths = [1, 2, 3, 3, 2, 1]
    done = sum(twelfths[:int(hours)])
    return low + (high - low) * done / 12
</code></pre>
<h2>Lights at the entrance</h2>
<p>The east pier shows a fixed red light and the west pier a flashing green one every five seconds. A white
sector light on the hill behind the town marks the safe line in: stay in the white and you stay in deep water.</p>
<figure><img src="/image.png" alt="A red harbour light on the end of a stone pier" width="1" height="1"><figcaption>The east pier light at dusk.</figcaption></figure>
<ul>
<li>Fixed red: the east (port-hand) pier head.</li>
<li>Flashing green, five seconds: the west (starboard-hand) pier head.</li>
<li>White sector: the leading line through the entrance.</li>
</ul>
<blockquote><p>When in doubt, wait for the flood. The harbour will still be there in an hour.</p></blockquote>
<p>More notes are in the <a href="/text">plain text version</a> and the <a href="/markdown">Markdown notes</a>.</p>
</article>
</main>
<aside class="related"><h4>Related</h4><a href="/rss">Feed</a></aside>
<footer><p>Harbour Notes fixture site. <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></p></footer>
</body>
</html>
`;

/**
 * A shop's product page built as a script app: the description sits in a sheet a
 * "Description" button opens (a dialog, chrome on any other page), the price only in the
 * buy box and the JSON-LD the page declares for search engines.
 */
export const PRODUCT_DESCRIPTION_TEXT =
  'The Harbour oilskin is waxed cotton cut long enough to sit on a wet thwart, with a storm flap over a brass zip, ' +
  'a corduroy collar that turns up against spray, and two deep pockets that drain through eyelets when a wave comes over the bow. ' +
  'Rewax it once a season and it keeps the weather out for years.';

export const PRODUCT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour Oilskin Jacket | Quayside Outfitters</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Harbour Oilskin Jacket',
  description: PRODUCT_DESCRIPTION_TEXT,
  offers: { '@type': 'Offer', price: '189.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
})}</script></head>
<body><header><nav><a href="/">Quayside Outfitters</a> <a href="/jackets">Jackets</a> <a href="/cart">Cart</a></nav></header>
<main><h1>Harbour Oilskin Jacket</h1>
<div class="buy-box"><span class="price-tag">One hundred eighty-nine euros</span><button>Add to bag</button></div>
<section class="accordion"><button aria-expanded="false">Description</button>
<div role="dialog" aria-modal="false"><aside><h5>Description</h5><div class="sheet-body">
<p>${PRODUCT_DESCRIPTION_TEXT}</p><ul><li>Waxed cotton shell</li><li>Corduroy collar</li><li>Brass two-way zip</li></ul>
</div></aside></div></section>
<section><h2>Reviews</h2><ul class="filters">${Array.from({ length: 10 }, (_, i) => `<li>Filter ${i}: sailing, walking, fishing, cycling</li>`).join('')}</ul>
${Array.from({ length: 4 }, (_, i) => `<div class="review"><p>Review ${i}: warm and dry on the ferry, though the sleeves run a little long.</p></div>`).join('')}</section>
</main><footer><a href="/imprint">Imprint</a></footer></body></html>`;

/** A lecture page whose formulas come in MathJax 2 and KaTeX markup, with a table of lists. */
export const FORMULAS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The rule of twelfths | Harbour Notes</title></head>
<body>
<nav class="site-nav"><a href="/">Home</a> <a href="/archive">Archive</a></nav>
<main><article>
<h1>The rule of twelfths</h1>
<p>Between low and high water the tide does not rise evenly. Skippers estimate the height at any hour with
the rule of twelfths, which splits the range into twelve parts and lets the water rise by one, two, three,
three, two and one of them in the six hours of the flood.</p>
<p>After <span class="MathJax_Preview">t</span><script type="math/tex">t</script> hours the height above low water is</p>
<script type="math/tex; mode=display">h(t) = \\frac{R}{12} \\sum_{k=1}^{t} w_k</script>
<p>where the range is <span class="katex"><span class="katex-mathml"><math><semantics><mi>R</mi><annotation encoding="application/x-tex">R = H - L</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">R=H−L</span></span> for high water H and low water L.</p>
<table>
<tr><th>Hour</th><th>Twelfths risen</th></tr>
<tr><td>1</td><td><ul><li>one</li><li>running total 1</li></ul></td></tr>
<tr><td>2</td><td><ul><li>two</li><li>running total 3</li></ul></td></tr>
</table>
<p>The rule is rough near springs and neaps, and useless in harbours with a double high water.</p>
</article></main>
</body></html>`;

export const TEXT_PAGE = `Harbour office notes
====================

The slipway is closed for repairs on the second Tuesday of every month.
Visitors should call the harbour office on channel 14 before entering.
Fuel is available from the pontoon between 08:00 and 18:00.
`;

export const MARKDOWN_PAGE = `# Mooring notes

Visiting boats tie up on the **north pontoon**. Raft no more than three deep.

## Fees

| Length | Per night |
| ------ | --------- |
| < 8 m  | 12        |
| 8-12 m | 18        |

- Pay at the office before 10:00.
- Showers use the same key as the pontoon gate.
`;

export const CSV_PAGE = `day,high_water,height_m,low_water,height_m
Monday,06:12,4.8,12:25,0.9
Tuesday,06:58,4.6,13:10,1.1
Wednesday,07:47,4.3,14:01,1.4
`;

export const JSON_PAGE = JSON.stringify(
  {
    harbour: 'Harbour Notes',
    berths: 42,
    lights: [
      { pier: 'east', colour: 'red', character: 'fixed' },
      { pier: 'west', colour: 'green', character: 'Fl 5s' },
    ],
  },
  null,
  2,
);

export const LD_JSON_PAGE = JSON.stringify(
  {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: ARTICLE_TITLE,
    author: { '@type': 'Organization', name: 'Harbour Notes' },
    datePublished: '2024-03-03',
  },
  null,
  2,
);

export const RSS_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
<channel>
<title>Harbour Notes</title>
<link>http://harbour.example/</link>
<description>News from a small harbour.</description>
<item><title>Slipway repairs finished</title><link>http://harbour.example/news/slipway</link><description>The slipway is open again.</description><pubDate>Mon, 04 Mar 2024 09:00:00 GMT</pubDate></item>
<item><title>New pontoon lights</title><link>http://harbour.example/news/lights</link><description>Solar lights now line the north pontoon.</description><pubDate>Fri, 01 Mar 2024 17:30:00 GMT</pubDate></item>
</channel>
</rss>
`;

export const ATOM_PAGE = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Harbour Notes</title>
<id>urn:uuid:7c1f3a52-harbour-notes</id>
<updated>2024-03-04T09:00:00Z</updated>
<entry><title>Slipway repairs finished</title><link href="http://harbour.example/news/slipway"/><id>urn:uuid:slipway</id><updated>2024-03-04T09:00:00Z</updated><summary>The slipway is open again.</summary></entry>
<entry><title>New pontoon lights</title><link href="http://harbour.example/news/lights"/><id>urn:uuid:lights</id><updated>2024-03-01T17:30:00Z</updated><summary>Solar lights now line the north pontoon.</summary></entry>
</feed>
`;

export const SITEMAP_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://harbour.example/</loc><lastmod>2024-03-04</lastmod></url>
<url><loc>http://harbour.example/tides</loc><lastmod>2024-03-01</lastmod></url>
<url><loc>http://harbour.example/lights</loc></url>
</urlset>
`;

export const XML_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<harbour name="Harbour Notes">
  <berth id="1" length="8">North pontoon</berth>
  <berth id="2" length="12">South wall</berth>
</harbour>
`;

export const XHTML_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>Harbour rules</title></head>
<body><h1>Harbour rules</h1><p>Keep to five knots inside the breakwater. Do not anchor in the fairway.</p><p>Report any oil on the water to the office at once.</p></body>
</html>
`;

/** Text with é ü ß and € (0x80 in windows-1252), encoded by the fixture site. */
export const LATIN1_TEXT = 'Café am Hafen: Müller und Söhne verkaufen Fisch in der Hafenstraße. Preis: 5 € pro Kilo.';

export function latin1Html(metaCharset: boolean): string {
  const meta = metaCharset ? '<meta charset="ISO-8859-1">' : '';
  return `<!doctype html><html lang="de"><head>${meta}<title>Hafen Café</title></head><body><h1>Hafen Café</h1><p>${LATIN1_TEXT}</p><p>Öffnungszeiten: täglich außer Montag.</p></body></html>`;
}

export const SHIFT_JIS_TEXT = '日本語のテキスト：港の灯台は夜に赤く光ります。';

export const SHIFT_JIS_HTML = `<!doctype html><html lang="ja"><head><meta charset="Shift_JIS"><title>港のお知らせ</title></head><body><h1>港のお知らせ</h1><p>${SHIFT_JIS_TEXT}</p></body></html>`;

export const BOM_HTML =
  '<!doctype html><html lang="de"><head><title>Grüße</title></head><body><h1>Grüße aus dem Hafen</h1><p>Naïve café owners — and their crème brûlée.</p></body></html>';

export const CHALLENGE_HTML = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"><meta name="robots" content="noindex,nofollow"></head>
<body class="no-js"><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">harbour.example</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<div id="cf-chl-widget-x1"><input type="hidden" name="cf-chl-response"></div>
<noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
</div></div>
<script>(function(){window._cf_chl_opt={cvId:'3',cType:'managed'};var s=document.createElement('script');s.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1';document.head.appendChild(s);})();</script>
</body></html>`;

export const CAPTCHA_HTML = `<!doctype html><html lang="en"><head><title>Are you a robot?</title></head>
<body><h1>Please verify you are a human</h1>
<p>Our systems have detected unusual traffic from your network. Solve the captcha below to continue.</p>
<form action="/captcha/verify" method="post" id="captcha-form">
<div class="g-recaptcha" data-sitekey="fixture-site-key"></div>
<input type="text" name="captcha" placeholder="Type the characters you see">
<button type="submit">Verify</button>
</form></body></html>`;

export const SMALL_PAGE = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** robots.txt served by default: a `*` group and a group for our product token. */
export const DEFAULT_ROBOTS_TXT = `# Fixture robots.txt
User-agent: *
Disallow: /private/

# Our own product token gets its own group (RFC 9309 2.2.1: the most specific group wins,
# so it repeats the rules of * it must also obey).
User-agent: websearch-mcp
Disallow: /no-bot/
Disallow: /private/
`;

/**
 * A robots.txt over 500 KiB: the relevant rules first, ~600 KiB of comments, then a rule
 * for /after-cut/ that a parser limited to 500 KiB never sees (RFC 9309 2.5).
 */
export function hugeRobotsTxt(): string {
  const filler = Array.from(
    { length: 7800 },
    (_, i) => `# filler line ${String(i).padStart(6, '0')} ${'-'.repeat(56)}`,
  ).join('\n');
  return `${DEFAULT_ROBOTS_TXT}\n${filler}\n\nUser-agent: *\nDisallow: /after-cut/\n\nUser-agent: websearch-mcp\nDisallow: /after-cut/\n`;
}
