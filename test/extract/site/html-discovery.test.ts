import { describe, expect, it } from 'vitest';
import { MAX_DISCOVERED_LINKS, discoverHtml } from '../../../src/extract/site/html-discovery.js';

const PAGE = 'https://docs.example.com/guide/intro?lang=en#top';

describe('discoverHtml: links', () => {
  it('reads links with their text, absolute, once per URL in page order', () => {
    const html = `<!doctype html><html><head><title>Intro <a href="/in-title">x</a></title></head><body>
      <nav><a href="/">Home</a> <a href="../reference/" class="x">Reference</a></nav>
      <p>Read the <a href="setup.html?utm_source=nav&amp;v=2#step-1"><b>set</b>up   guide</a>,
         then <a href='https://other.example.org/page'>an outside page</a>.</p>
      <a href="/">Home again</a>
      <a href=setup.html?v=2>duplicate with another text</a>
    </body></html>`;
    expect(discoverHtml(html, PAGE).links).toEqual([
      { url: 'https://docs.example.com/', text: 'Home' },
      { url: 'https://docs.example.com/reference/', text: 'Reference' },
      { url: 'https://docs.example.com/guide/setup.html?v=2', text: 'setup guide' },
      { url: 'https://other.example.org/page', text: 'an outside page' },
    ]);
  });

  it('skips in-page anchors, the page itself, javascript:, mailto: and other schemes', () => {
    const html = `<a href="#section">Jump</a><a href="?lang=en#faq">Self</a><a href="javascript:void(0)">JS</a>
      <a href="mailto:team@example.com">Mail</a><a href="tel:+100">Call</a><a href="ftp://example.com/f">FTP</a>
      <a href="data:text/html,hi">Data</a><a href="http://[bad">Broken</a><a>No href</a><a href="">Empty</a>
      <a href="/kept">Kept</a>`;
    expect(discoverHtml(html, PAGE).links).toEqual([{ url: 'https://docs.example.com/kept', text: 'Kept' }]);
  });

  it('names a link without text by its aria-label, image alt or title; the first non-empty text wins', () => {
    const html = `<a href="/a" aria-label="Label A" title="Title A"><svg></svg></a>
      <a href="/b" title="Title B"><img src="b.png" alt="Alt &amp; B"></a>
      <a href="/c" title="Title &quot;C&quot;"></a>
      <a href="/d"><img src="d.png"></a><a href="/d">Text D</a><a href="/d">Later D</a>
      <map><area href="/e" alt="Area E" shape="rect"><area href="/f" shape="rect"></map>`;
    expect(discoverHtml(html, PAGE).links).toEqual([
      { url: 'https://docs.example.com/a', text: 'Label A' },
      { url: 'https://docs.example.com/b', text: 'Alt & B' },
      { url: 'https://docs.example.com/c', text: 'Title "C"' },
      { url: 'https://docs.example.com/d', text: 'Text D' },
      { url: 'https://docs.example.com/e', text: 'Area E' },
      { url: 'https://docs.example.com/f', text: '' },
    ]);
  });

  it('decodes references, collapses white space, joins inline tags and cuts long text at 300 characters', () => {
    const long = 'word '.repeat(100);
    const html = `<a href="/x">Caf&eacute; &amp; Bar&nbsp;&#8212;<br>open <span>l</span>ate</a>
      <a href="/y"><div>Block</div><div>level</div></a><a href="/long">${long}</a>`;
    const links = discoverHtml(html, PAGE).links;
    expect(links[0]).toEqual({ url: 'https://docs.example.com/x', text: 'Café & Bar — open late' });
    expect(links[1]?.text).toBe('Block level');
    expect(links[2]?.text).toBe(long.slice(0, 300));
  });

  it('skips comments, scripts, styles, templates and other raw text', () => {
    const html = `<!-- <a href="/commented">x</a> --><!--><a href="/after-empty-comment">kept</a>
      <script>document.write('<a href="/scripted">x</a>')</script>
      <script type="module">if (a<b) { x = "</div><a href='/x'>" }</script>
      <style>a[href="/styled"]::after{content:"<a href='/z'>"}</style>
      <template><a href="/templated">x</a></template><textarea><a href="/typed">x</a></textarea>
      <noscript><a href="/no-js">Fallback</a></noscript>
      <p>1 < 2 and <a href="/after">after</a></p>`;
    expect(discoverHtml(html, PAGE).links.map((link) => link.url)).toEqual([
      'https://docs.example.com/after-empty-comment',
      'https://docs.example.com/no-js',
      'https://docs.example.com/after',
    ]);
  });

  it('reads a > inside a quoted attribute value as part of the value', () => {
    const html = `<a href="/q" data-x="a > b" title='c>d'>Quoted</a><div class=a"b><a href="/r">R</a></div>`;
    expect(discoverHtml(html, PAGE).links).toEqual([
      { url: 'https://docs.example.com/q', text: 'Quoted' },
      { url: 'https://docs.example.com/r', text: 'R' },
    ]);
  });

  it(`keeps at most ${MAX_DISCOVERED_LINKS} links`, () => {
    const html = Array.from({ length: MAX_DISCOVERED_LINKS + 10 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('');
    const links = discoverHtml(html, PAGE).links;
    expect(links).toHaveLength(MAX_DISCOVERED_LINKS);
    expect(links.at(-1)).toEqual({
      url: `https://docs.example.com/p/${MAX_DISCOVERED_LINKS - 1}`,
      text: String(MAX_DISCOVERED_LINKS - 1),
    });
  });
});

describe('discoverHtml: base, canonical, feeds, robots', () => {
  it('resolves against the first <base href>, for the links before it too', () => {
    const html = `<a href="early">Early</a><head><base href="https://cdn.example.net/root/"><base href="/ignored/"></head>
      <link rel="canonical" href="canonical-page"><a href="late">Late</a>`;
    const discovery = discoverHtml(html, PAGE);
    expect(discovery.base).toBe('https://cdn.example.net/root/');
    expect(discovery.links.map((link) => link.url)).toEqual([
      'https://cdn.example.net/root/early',
      'https://cdn.example.net/root/late',
    ]);
    expect(discovery.canonical).toBe('https://cdn.example.net/root/canonical-page');
  });

  it('ignores a <base> that is not http(s)', () => {
    const discovery = discoverHtml('<base href="javascript:alert(1)"><a href="x">X</a>', PAGE);
    expect(discovery.base).toBeUndefined();
    expect(discovery.links).toEqual([{ url: 'https://docs.example.com/guide/x', text: 'X' }]);
  });

  it('reads the head’s canonical and feeds', () => {
    const html = `<html><head>
      <link rel="alternate" type="application/rss+xml" title="News &amp; notes" href="/feed.xml?utm_medium=rss">
      <link rel="alternate" type="application/atom+xml" href="/atom.xml">
      <link rel="alternate" type="application/feed+json; charset=utf-8" href="/feed.json" title="  ">
      <link rel="alternate" type="application/rss+xml" href="/feed.xml">
      <link rel="alternate" hreflang="de" href="/de/">
      <link rel="alternate" type="application/rss+xml" href="javascript:x">
      <link rel="Canonical" href="/guide/intro">
    </head><body><link rel="canonical" href="/injected"></body></html>`;
    const discovery = discoverHtml(html, PAGE);
    expect(discovery.canonical).toBe('https://docs.example.com/guide/intro');
    expect(discovery.feeds).toEqual([
      { url: 'https://docs.example.com/feed.xml', title: 'News & notes' },
      { url: 'https://docs.example.com/atom.xml' },
      { url: 'https://docs.example.com/feed.json' },
    ]);
    expect(discovery.links).toEqual([]);
  });

  it('has no canonical when the head’s disagree, or it is not http(s)', () => {
    expect(
      discoverHtml('<link rel="canonical" href="/a"><link rel="canonical" href="/b">', PAGE).canonical,
    ).toBeUndefined();
    expect(
      discoverHtml('<link rel="canonical" href="/a"><link rel="canonical" href="https://docs.example.com/a">', PAGE)
        .canonical,
    ).toBe('https://docs.example.com/a');
    expect(discoverHtml('<link rel="canonical" href="mailto:x@example.com">', PAGE).canonical).toBeUndefined();
  });

  it('reads <meta name=robots>', () => {
    const robots = (content: string): { noindex: boolean; nofollow: boolean } =>
      discoverHtml(`<meta name="ROBOTS" content="${content}">`, PAGE).robots;
    expect(robots('index, follow')).toEqual({ noindex: false, nofollow: false });
    expect(robots('NOINDEX')).toEqual({ noindex: true, nofollow: false });
    expect(robots('noarchive,nofollow')).toEqual({ noindex: false, nofollow: true });
    expect(robots('none')).toEqual({ noindex: true, nofollow: true });
    expect(discoverHtml('<meta name="googlebot" content="noindex">', PAGE).robots).toEqual({
      noindex: false,
      nofollow: false,
    });
  });
});
