/**
 * Placeholder text (placeholder-text.ts): a block that holds only the typesetters' dummy
 * Latin goes; a block with text of its own, a name such as "Lorem ipsum generator", and a
 * page about the placeholder stay.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { dropPlaceholderText } from '../../src/extract/html/prepare/placeholder-text.js';
import { sourceWords } from '../../src/extract/html/read/source-words.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import type { DomDocument, DomElement } from '../../src/extract/html/dom.js';

const URL_ = 'https://shop.example/products/wallet';
const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';

function page(body: string, title = 'Aluminium wallet'): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

function normalizeSpaceOf(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** The body's text after the pass. */
function afterPass(html: string): string {
  const doc = parseHTML(html).document as unknown as DomDocument;
  const body = doc.querySelector('body') as DomElement;
  dropPlaceholderText(doc, body, sourceWords(html));
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const specs =
  '<h2>Dimensions</h2><div class="dimension-description"><p>' +
  LOREM +
  '</p></div>' +
  '<p>Holds 1 to 12 cards. 86 x 54 x 6 millimetres, 60 grams.</p>' +
  '<ul><li>RFID blocking</li><li><em>lorem Ipsum dolor sit amet</em>, consectetur.</li></ul>' +
  '<table><tr><th>Finish</th><td>' +
  LOREM +
  '</td></tr></table>';

describe('placeholder text', () => {
  it('drops the blocks that hold the dummy passage only, wherever they are, and keeps the rest', () => {
    const text = afterPass(page(`<main><h1>Aluminium wallet</h1>${specs}</main>`));
    expect(text).not.toMatch(/lorem|consectetur/i);
    expect(text).toContain('Holds 1 to 12 cards.');
    expect(text).toContain('RFID blocking');
    expect(text).toContain('Finish');
  });

  it('keeps a block with text of its own, or one that holds other blocks', () => {
    const quoted = `<p>The theme's sample reads "${LOREM}"</p>`;
    expect(afterPass(page(quoted))).toContain('Lorem ipsum dolor sit amet');
    // A block that holds other blocks stays whole, the dummy text with it: the rest is the page's.
    const section = afterPass(page(`<section><div>${LOREM}<p>Ships in a tin box.</p></div></section>`));
    expect(section).toContain('Ships in a tin box.');
    const nested = afterPass(page(`<div>${LOREM}<div><p>Ships in a tin box.</p></div></div>`));
    expect(nested).toContain('Ships in a tin box.');
    // Its dummy paragraph, as a block of its own, goes.
    expect(afterPass(page(`<section><p>${LOREM}</p><p>Ships in a tin box.</p></section>`))).toBe('Ships in a tin box.');
  });

  it('empties a table cell rather than removing it, so that its row keeps its columns', () => {
    const html = page(
      `<table><tr><th>Model</th><th>Description</th><th>Price</th></tr><tr><td>Slim</td><td>${LOREM}</td><td>$49</td></tr></table>`,
    );
    const doc = parseHTML(html).document as unknown as DomDocument;
    const body = doc.querySelector('body') as DomElement;
    dropPlaceholderText(doc, body, sourceWords(html));
    const cells = Array.from(body.querySelectorAll('tr:last-child td')).map((td) => normalizeSpaceOf(td.textContent));
    expect(cells).toEqual(['Slim', '', '$49']);
  });

  it('keeps a block that holds more than the placeholder: words of its own, code, images, line breaks, other elements', () => {
    const keeps = [
      `<p><strong>Finish:</strong> ${LOREM}</p>`,
      `<p>${LOREM} Two year warranty: 24 months.</p>`,
      `<p>${LOREM} Handmade in Portugal from recycled aluminium.</p>`,
      `<p>${LOREM}<br>Made in Portugal</p>`,
      `<div class="faq"><details><summary>${LOREM}</summary>Shipping within two working days to all of Europe</details></div>`,
      `<div class="row"><aside>${LOREM}</aside><aside>Free returns within thirty days of delivery</aside></div>`,
      `<div><header>${LOREM}</header><footer>Handmade in Portugal from recycled aluminium</footer></div>`,
      `<div class="card"><span>${LOREM}</span> <a href="/c/leather">Shop the leather collection</a></div>`,
      `<pre><code><div class="line">${LOREM}</div><div class="line">Ut enim ad minim veniam</div></code></pre>`,
      `<pre><p>${LOREM}</p></pre>`,
      `<dl><dt>Material</dt><dd>${LOREM}</dd><dt>Weight</dt><dd>60 grams</dd></dl>`,
      `<div class="product-info"><span>${LOREM}</span><br><strong>Price:</strong> $49<br><strong>Material:</strong> aircraft aluminium</div>`,
      `<div class="highlight"><pre><code>${LOREM}\nUt enim ad minim veniam</code></pre></div>`,
      `<p><code>${LOREM}</code></p>`,
      `<div class="feature">${LOREM}<img src="x.png" alt="Exploded view of the wallet"></div>`,
    ];
    for (const html of keeps) {
      const doc = parseHTML(page(html)).document as unknown as DomDocument;
      const body = doc.querySelector('body') as DomElement;
      const before = body.innerHTML;
      dropPlaceholderText(doc, body, sourceWords(html));
      expect(body.innerHTML).toBe(before);
    }
  });

  it('reads the text as a browser shows it: white space collapsed, markup inside it', () => {
    for (const opening of [
      'Lorem  ipsum dolor sit amet',
      'Lorem ipsum\n  dolor sit amet',
      'Lorem&nbsp;ipsum dolor sit amet',
      '<b>Lorem</b> ipsum dolor sit amet',
      '&nbsp;<span>lorem</span> IPSUM dolor sit amet',
    ]) {
      expect(afterPass(page(`<p>${opening}, consectetur adipiscing elit.</p><p>Ships in a tin box.</p>`))).toBe(
        'Ships in a tin box.',
      );
    }
    // The generators' other words, and a card's trailing ellipsis.
    expect(
      afterPass(
        page(
          '<p>Lorem ipsum dolor sit amet. Quis ipsum suspendisse ultrices gravida. Risus commodo viverra maecenas accumsan lacus vel facilisis…</p><p>Ships in a tin box.</p>',
        ),
      ),
    ).toBe('Ships in a tin box.');
  });

  it('judges each block once: thousands of placeholder runs in one block or nested cost one read', () => {
    const spans = Array.from({ length: 5000 }, () => '<span>Lorem ipsum dolor sit amet </span>').join('');
    const nested = '<div>Lorem ipsum dolor sit amet '.repeat(20000) + '</div>'.repeat(20000);
    for (const body of [`<div>${spans}<p>Ships in a tin box.</p></div>`, `<div>Intro ${spans}</div>`, nested]) {
      const started = performance.now();
      htmlToMarkdown(page(`<main><h1>Wallet</h1>${body}</main>`), URL_);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it('keeps a name that only starts like the passage', () => {
    const tools = afterPass(
      page(
        '<ul><li><a href="/lorem-ipsum-generator">Lorem ipsum generator</a></li><li>Lorem ipsum is placeholder text.</li></ul>',
      ),
    );
    expect(tools).toContain('Lorem ipsum generator');
    expect(tools).toContain('Lorem ipsum is placeholder text.');
  });

  it('leaves a page about the placeholder alone', () => {
    expect(
      afterPass(
        page(`<h1>Where the placeholder comes from</h1><blockquote>${LOREM}</blockquote>`, 'Lorem ipsum: a history'),
      ),
    ).toContain('Lorem ipsum dolor');
    expect(afterPass(page(`<h1>Lorem Ipsum</h1><p>${LOREM}</p>`, 'Typesetting'))).toContain('Lorem ipsum dolor');
  });

  it('takes the placeholder out of the Markdown end to end', () => {
    const prose = 'The wallet holds twelve cards in an aluminium frame and a cash strap on its back. '.repeat(12);
    const { markdown } = htmlToMarkdown(
      page(`<main><article><h1>Aluminium wallet</h1><p>${prose}</p>${specs}</article></main>`),
      URL_,
    );
    expect(markdown).toContain('## Dimensions');
    expect(markdown).toContain('Holds 1 to 12 cards.');
    expect(markdown).not.toMatch(/lorem|consectetur/i);
  });
});
