/**
 * The `auto` rendering decision (extract/script-dependent.ts), pure: from the static HTML
 * and its Markdown alone. Pages with their text in the markup are never sent to a browser.
 */
import { describe, expect, it } from 'vitest';
import { countReadable } from '../../src/extract/readable-text.js';
import { looksScriptDependent, nearEmpty, NEAR_EMPTY_CHARS } from '../../src/extract/script-dependent.js';

const ARTICLE_TEXT = 'Every small harbour keeps two clocks, the office clock and the sea. '.repeat(5);

describe('looksScriptDependent', () => {
  it.each([
    ['an empty React root', '<html><body><div id="root"></div><script src="/main.js"></script></body></html>'],
    [
      'a Next.js root with a spinner',
      '<body><div id="__next"><div class="spinner">Loading…</div></div><script src="/_next/app.js"></script></body>',
    ],
    ['a Nuxt root', "<body><div id='__nuxt'></div></body>"],
    ['an Angular root element', '<body><app-root></app-root><script src="main.js"></script></body>'],
    [
      'a body of scripts and a word',
      '<body><p>Menu</p><script>boot()</script><script src="/bundle.js"></script></body>',
    ],
    ['an "enable JavaScript" notice', '<body><p>Please enable JavaScript to view the documentation.</p></body>'],
    ['a noscript notice', '<body><noscript>This site requires JavaScript.</noscript><p>Docs</p></body>'],
    [
      'a noscript holding the page',
      `<body><h1>Docs</h1><noscript><p>${'Static fallback copy of the page text. '.repeat(3)}</p></noscript></body>`,
    ],
  ])('renders %s', (_name, html) => {
    expect(looksScriptDependent(html, '')).toBe(true);
  });

  it.each([
    [
      'an article with its text in the markup',
      `<body><article><p>${ARTICLE_TEXT}</p></article><script src="/analytics.js"></script></body>`,
    ],
    ['a short plain page without scripts', '<body><p>Closed today.</p></body>'],
    ['a short page that merely mentions JavaScript', '<body><p>JavaScript tips for beginners.</p></body>'],
  ])('leaves %s alone', (_name, html) => {
    const markdown = html.replace(/<[^>]+>/g, ' ').trim();
    expect(looksScriptDependent(html, markdown)).toBe(false);
  });

  it('never renders a page whose Markdown has main content, whatever its markup says', () => {
    const shell = '<body><div id="root"></div><noscript>Enable JavaScript</noscript></body>';
    expect(looksScriptDependent(shell, ARTICLE_TEXT)).toBe(false);
    expect(nearEmpty('x'.repeat(NEAR_EMPTY_CHARS - 1))).toBe(true);
    expect(nearEmpty('x'.repeat(NEAR_EMPTY_CHARS))).toBe(false);
    // Markup and punctuation are not content.
    expect(nearEmpty(`${'- * -\n'.repeat(100)}`)).toBe(true);
  });

  it('counts letters and digits no further than a threshold needs, the same up to it', () => {
    const text = 'Tide 12 — ébb, flow! '.repeat(50);
    const all = countReadable(text);
    expect(all).toBe(50 * 'Tide12ébbflow'.length);
    for (const atMost of [0, 1, 13, all - 1, all, all + 1])
      expect(countReadable(text, atMost)).toBe(Math.min(all, atMost));
    // The shared pattern starts afresh on every call, bounded or not.
    expect(countReadable('abc', 2)).toBe(2);
    expect(countReadable('abc')).toBe(3);
    expect(countReadable('- * -', 5)).toBe(0);
  });

  it('a noscript renders the page only while it holds at least the visible text', () => {
    const page = (visible: string, hidden: string): string =>
      `<body><p>${visible}</p><noscript><p>${hidden}</p></noscript></body>`;
    const words = 'Harbour timetable and berths for visiting boats ';
    expect(looksScriptDependent(page(words, words), '')).toBe(true);
    expect(looksScriptDependent(page(`${words}x`, words), '')).toBe(false);
  });

  it('reads hostile markup in linear time', () => {
    for (const html of [
      '<script>'.repeat(100_000),
      '<noscript>'.repeat(100_000),
      '<!--'.repeat(200_000),
      '<'.repeat(1_000_000),
      '<div id="root">'.repeat(50_000),
    ]) {
      const started = performance.now();
      looksScriptDependent(html, '');
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});
