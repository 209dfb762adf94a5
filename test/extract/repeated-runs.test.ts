/**
 * Runs of blocks the Markdown says again further down (repeated-runs.ts): the later copy
 * goes when it holds MIN_REPEAT_CHARS characters of words; short repeats, code and list
 * parts, and Readability's pick are left alone.
 */
import { describe, expect, it } from 'vitest';
import { dropRepeatedRuns } from '../../src/extract/html/write/repeated-runs.js';
import { THRESHOLDS } from '../../src/extract/html/thresholds.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';

const SPECS = '### Specifications\n\nMaterial: anodised aluminium\n\nWeight: 2 oz';
const QUOTE = '> The best wallet I have owned, and I have owned a lot of them over the years.';

describe('repeated runs of blocks', () => {
  it('drops the later copy of a run of blocks, wherever it comes, and keeps the first in place', () => {
    const md = `# Wallet\n\n${SPECS}\n\nIn the box: the wallet and a cash strap.\n\n${SPECS}\n\n## Care`;
    expect(dropRepeatedRuns(md)).toBe(`# Wallet\n\n${SPECS}\n\nIn the box: the wallet and a cash strap.\n\n## Care`);
    // Each copy of a cloned carousel slide after the first.
    const slides = `${QUOTE}\n\nJo, Leeds\n\n${QUOTE}\n\nJo, Leeds\n\n${QUOTE}\n\nJo, Leeds`;
    expect(dropRepeatedRuns(slides)).toBe(`${QUOTE}\n\nJo, Leeds`);
  });

  it('compares words only, case and punctuation aside; a copy that links elsewhere is no copy', () => {
    const md =
      'Read the [care guide](https://a.example/care) before the first wash, please.\n\nOther text.\n\nread the [Care Guide](https://a.example/care) before the first wash please';
    expect(dropRepeatedRuns(md)).toBe(
      'Read the [care guide](https://a.example/care) before the first wash, please.\n\nOther text.',
    );
    const mirrors =
      '### Europe\n\n[Download the full archive (1.2 GB, checksums included)](https://eu.mirror.example/a.tgz)\n\n### America\n\n[Download the full archive (1.2 GB, checksums included)](https://us.mirror.example/a.tgz)';
    expect(dropRepeatedRuns(mirrors)).toBe(mirrors);
  });

  it("keeps what a heading says next to nothing else about: each size's price and stock, each system's steps", () => {
    const size = (name: string, price: string) =>
      `### ${name}\n\n${price}\n\nIn stock\n\nDispatched within one working day from our warehouse`;
    const sizes = `## Sizes\n\n${size('1.2 litres', '$49.00')}\n\n${size('1.8 litres', '$49.00')}\n\n${size('2.5 litres', '$59.00')}`;
    expect(dropRepeatedRuns(sizes)).toBe(sizes);
    const install =
      '## Install on Windows\n\nDownload the installer from the releases page, run it, then restart your terminal.\n\n## Install on macOS\n\nDownload the installer from the releases page, run it, then restart your terminal.';
    expect(dropRepeatedRuns(install)).toBe(install);
    // Under the same heading, or well into a section, a copy is a copy.
    const twice = `## Specifications\n\n${SPECS}\n\n## Specifications\n\n${SPECS}`;
    expect(dropRepeatedRuns(twice)).toBe(`## Specifications\n\n${SPECS}`);
    const deep = `## Overview\n\n${QUOTE}\n\n## Reviews\n\nWhat buyers wrote after a month of daily use, in their own words:\n\n${QUOTE}`;
    expect(dropRepeatedRuns(deep)).toBe(
      `## Overview\n\n${QUOTE}\n\n## Reviews\n\nWhat buyers wrote after a month of daily use, in their own words:`,
    );
  });

  it('keeps a repeated block that is all that parts two lists, which would run together without it', () => {
    const note = 'Remember to restart your terminal after changing the configuration file.';
    const md = `${note}\n\n1. Install the package\n2. Run the build\n\n${note}\n\n1. Configure the token\n2. Start the server`;
    expect(dropRepeatedRuns(md)).toBe(md);
  });

  it(`keeps repeats shorter than ${THRESHOLDS.MIN_REPEAT_CHARS} characters of words: each item's own facts`, () => {
    const md = '### Boot one\n\nFree shipping, in stock\n\n### Boot two\n\nFree shipping, in stock';
    expect('free shipping in stock'.length).toBeLessThan(THRESHOLDS.MIN_REPEAT_CHARS);
    expect(dropRepeatedRuns(md)).toBe(md);
  });

  it('reads fenced code as one block: a line of code is no paragraph, and code repeats whole or not at all', () => {
    const code = '```sh\nexport TOKEN=your_token_here_from_the_dashboard\n\nexport REGION=eu-west-1\n```';
    const md = `${code}\n\nexport TOKEN=your_token_here_from_the_dashboard\n\nThen run it.\n\n\`\`\`sh\nexport TOKEN=your_token_here_from_the_dashboard\n\nexport REGION=us-east-2\n\`\`\``;
    expect(dropRepeatedRuns(md)).toBe(md);
    expect(dropRepeatedRuns(`${code}\n\nThen run it.\n\n${code}`)).toBe(`${code}\n\nThen run it.`);
  });

  it("reads a list with its items' paragraphs as one block: a repeated item paragraph is part of its list", () => {
    const steps = (n: string) =>
      `1. Open the ${n} settings\n\n   Keep your credentials out of production apps: read them from the environment.\n\n2. Save`;
    const md = `## Java\n\n${steps('Java')}\n\n## Python\n\n${steps('Python')}`;
    expect(dropRepeatedRuns(md)).toBe(md);
    // A whole list said twice goes, loose items and all.
    const list =
      '- 100% authentic\n\n  Sourced from the brand or its authorised distributors.\n- Shipping weight: 0.16 kg';
    expect(dropRepeatedRuns(`${list}\n\nDiscontinued.\n\n${list}`)).toBe(`${list}\n\nDiscontinued.`);
  });

  it('never ends a run on a heading whose section goes on: the heading stays over its own text', () => {
    const delivery = 'Free delivery on every order over fifty pounds, returns within thirty days.';
    const md = `# Kettle\n\nA stovetop kettle of brushed steel.\n\n${delivery}\n\n## Care\n\nWipe with a soft cloth.\n\n# Teapot\n\nA stoneware teapot with a bamboo handle, for four cups.\n\n${delivery}\n\n## Care\n\nDo not put it in the dishwasher.`;
    expect(dropRepeatedRuns(md)).toBe(
      md.replace(`bamboo handle, for four cups.\n\n${delivery}\n\n`, 'bamboo handle, for four cups.\n\n'),
    );
  });

  it('keeps one block between two lists even when several runs between them repeat', () => {
    const p1 = 'Remember to restart your terminal after changing the configuration file.';
    const p2 = 'Keep a copy of the old configuration until the new one works for you.';
    const md = `${p1}\n\nMiddle text that differs.\n\n${p2}\n\n- apple\n- pear\n\n${p1}\n\n${p2}\n\n- hammer\n- nail`;
    const out = dropRepeatedRuns(md);
    expect(out).not.toMatch(/- pear\n\n- hammer/);
    expect(out.match(/Remember to restart/g)).toHaveLength(1);
  });

  it('compares link targets even where no heading is near, and reads image links as no text of their own', () => {
    const link = (host: string) =>
      `[Download the full archive, checksums included](https://${host}.mirror.example/archive.tgz)`;
    const md = `${link('eu')}\n\nOther text.\n\n${link('us')}`;
    expect(dropRepeatedRuns(md)).toBe(md);
    const image = '![](https://images.example-cdn.com/files/products/wallets/black-aluminium-front.png)';
    const images = `${image}\n\nA caption of its own.\n\n${image}`;
    expect(dropRepeatedRuns(images)).toBe(images);
  });

  it('reads a list of 300,000 items after another list without overflowing the stack', () => {
    const md = `- a\n\n${Array.from({ length: 300_000 }, (_, i) => `- item ${i}`).join('\n')}\n\nEnd.`;
    expect(dropRepeatedRuns(md)).toBe(md);
  });

  it('never matches blocks without words, which end a run', () => {
    const md = `![](https://img.example/a.png)\n\n---\n\n![](https://img.example/a.png)\n\n---`;
    expect(dropRepeatedRuns(md)).toBe(md);
  });

  it('returns the Markdown as it was when nothing repeats', () => {
    const md = 'One paragraph.\n\n\n\nAnother, after two blank lines.';
    expect(dropRepeatedRuns(md)).toBe(md);
    expect(dropRepeatedRuns('')).toBe('');
  });

  it('reads many alike short blocks in linear time', () => {
    const md = Array.from({ length: 50_000 }, (_, i) => (i % 2 === 0 ? 'Add to cart' : `Item ${i % 97}`)).join('\n\n');
    const started = performance.now();
    const out = dropRepeatedRuns(md);
    expect(performance.now() - started).toBeLessThan(2_000);
    // The sequence repeats every 194 blocks: about one period is left.
    expect(out.split('\n\n').length).toBeLessThan(200);
  });

  it('reads a list of 100,000 loose items, and 100,000 unclosed link brackets, in linear time', () => {
    const loose = Array.from({ length: 100_000 }, (_, i) => `- Spare part ${i}`).join('\n\n');
    let started = performance.now();
    expect(dropRepeatedRuns(`${loose}\n\nEnd.`)).toBe(`${loose}\n\nEnd.`);
    expect(performance.now() - started).toBeLessThan(2_000);
    const brackets = `${'](x '.repeat(100_000)}\n\nEnd.`;
    started = performance.now();
    expect(dropRepeatedRuns(brackets)).toBe(brackets);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('repeated runs in the cascade', () => {
  const testimonial = (n: number) =>
    `<div class="slide"><blockquote><p>The kettle boils in four minutes on gas and pours without a drip, which my old one never managed.</p></blockquote><p>Sam, Bristol</p></div><p>Slide ${n} of the carousel.</p>`;

  it("drops the cloned slides in what stage 2 reads: here a product page's named description", () => {
    const ld =
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Stovetop Kettle"}</script>';
    const description =
      'A stovetop kettle of brushed steel that holds 1.8 litres and works on gas, electric and induction hobs. '.repeat(
        3,
      );
    const html =
      `<!doctype html><html><head><title>Kettle</title>${ld}</head><body><header><nav><a href="/">Shop</a></nav></header><main><h1>Stovetop Kettle</h1><p class="price">$49</p>` +
      `<div class="product-description"><p>${description}</p>${testimonial(1)}${testimonial(2)}${testimonial(3)}</div>` +
      '<section><h2>Delivery</h2><p>Ships in two days.</p></section></main></body></html>';
    const result = htmlToMarkdown(html, 'https://shop.example/kettle');
    expect(result.stage).toBe('product-description');
    expect(result.markdown.match(/pours without a drip/g)).toHaveLength(1);
    expect(result.markdown).toContain(
      'Slide 1 of the carousel.\n\nSlide 2 of the carousel.\n\nSlide 3 of the carousel.',
    );
  });

  it("leaves Readability's pick alone: an article's refrain stays", () => {
    const refrain = 'And still the river runs, and still the mill wheel turns, and still we wait for spring.';
    const verse = (n: number) =>
      `<p>Verse ${n}: ${'The valley wakes under frost and the town keeps its lamps lit through the long evening. '.repeat(3)}</p><p>${refrain}</p>`;
    const html = `<!doctype html><html><head><title>Song</title></head><body><main><article><h1>The mill song</h1>${verse(1)}${verse(2)}${verse(3)}</article></main></body></html>`;
    const result = htmlToMarkdown(html, 'https://songs.example/mill');
    expect(result.stage).toBe('readability');
    expect(result.markdown.match(/still the mill wheel turns/g)).toHaveLength(3);
  });
});
