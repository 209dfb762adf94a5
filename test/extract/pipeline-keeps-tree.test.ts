/**
 * A pass marked `keepsTree` leaves the page's cached text statistics in place for the
 * passes after it (pipeline.ts): it must add, move and remove no node and change no text.
 * Each such pass is run on the golden and stage-choice pages with the tree's shape taken
 * before and after it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomNode } from '../../src/extract/html/dom.js';
import { isElement, nextInTree, tagOf, TEXT_NODE } from '../../src/extract/html/dom.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import type { PageContext } from '../../src/extract/html/page-context.js';
import { PIPELINE, type Pass } from '../../src/extract/html/pipeline.js';

const PAGES = ['test/golden', 'test/fixtures/stage-choice'].flatMap((dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name, 'source.html')),
);

/** The nodes under `root` in document order: tag names and text, no attributes (marks may change). */
function shape(root: DomNode | undefined): string {
  if (root === undefined) return '';
  const out: string[] = [];
  for (let node = nextInTree(root, root, false); node !== null; node = nextInTree(node, root, false)) {
    if (isElement(node)) out.push(`<${tagOf(node)}>`);
    else if (node.nodeType === TEXT_NODE) out.push(node.textContent ?? '');
  }
  return out.join('|');
}

describe('passes that keep the tree', () => {
  const originals = new Map<Pass, Pass['run']>();
  const seen = new Map<string, { runs: number; changed: string[] }>();
  const watched = new Set(['chrome', ...PIPELINE.filter((pass) => pass.keepsTree === true).map((pass) => pass.name)]);

  beforeAll(() => {
    for (const pass of PIPELINE) {
      if (!watched.has(pass.name)) continue;
      const run = pass.run;
      originals.set(pass, run);
      (pass as { run: Pass['run'] }).run = (page: PageContext) => {
        const before = shape(page.doc?.documentElement ?? undefined);
        run(page);
        const record = seen.get(pass.name) ?? { runs: 0, changed: [] };
        record.runs += 1;
        if (shape(page.doc?.documentElement ?? undefined) !== before) record.changed.push(page.url);
        seen.set(pass.name, record);
      };
    }
  });

  afterAll(() => {
    for (const [pass, run] of originals) (pass as { run: Pass['run'] }).run = run;
  });

  it('change no node and no text on any fixture page', () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(15);
    for (const file of PAGES) htmlToMarkdown(readFileSync(file, 'utf8'), `https://example.test/${file}`);
    const keeping = PIPELINE.filter((pass) => pass.keepsTree === true).map((pass) => pass.name);
    expect(keeping).toEqual(expect.arrayContaining(['metadata', 'beside-article']));
    for (const name of keeping) {
      const record = seen.get(name);
      if (name !== 'declared-in-page') expect(record?.runs, name).toBeGreaterThanOrEqual(PAGES.length);
      expect(record?.changed ?? [], name).toEqual([]);
    }
    // The shape notices a pass that does change the tree.
    expect(seen.get('chrome')?.changed.length).toBeGreaterThan(0);
  });
});
