/**
 * Citations of the contract and the decisions cannot rot: every `docs/interface.md N.N`
 * in the sources, the tests and the docs names a numbered section heading of
 * docs/interface.md, and every `docs/decisions.md, "<heading>"` names a heading of
 * docs/decisions.md. In src/, a citation must say where: a bare `docs/interface.md` or
 * `docs/decisions.md` fails (docs/interface.md explains the two forms).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

/** Section numbers of docs/interface.md (`## 4. Endpoints` -> 4, `### 4.2 Extract` -> 4.2). */
const sections = new Set(
  [...read('docs/interface.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1] ?? ''),
);
/** Headings of docs/decisions.md. */
const headings = new Set([...read('docs/decisions.md').matchAll(/^## (.+)$/gm)].map((m) => (m[1] ?? '').trim()));

/** A comment wrapped over several lines read as one line: `\n *`, `\n //` and indentation become a space. */
const unwrap = (text: string) => text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');

const NUMBER = String.raw`\d+(?:\.\d+)?`;
const REF = String.raw`${NUMBER}(?:-${NUMBER})?`;
/** `docs/interface.md 4.2`, `docs/interface.md 2.1-2.3, 4.1, 7.2`, `` `docs/interface.md 8.3` ``. */
const INTERFACE = new RegExp(String.raw`docs/interface\.md\`? (${REF}(?:, ${REF})*)(?![\d.]*\d)`, 'g');
/** `docs/decisions.md, "Credits and keys"`, also with the path in backticks. */
const DECISIONS = /docs\/decisions\.md`?, "([^"]+)"/g;

interface Citation {
  file: string;
  cited: string;
}

function citations(file: string): { sections: Citation[]; headings: Citation[] } {
  const text = unwrap(read(file));
  return {
    sections: [...text.matchAll(INTERFACE)].flatMap((m) =>
      (m[1] ?? '').split(', ').flatMap((ref) => ref.split('-').map((cited) => ({ file, cited }))),
    ),
    headings: [...text.matchAll(DECISIONS)].map((m) => ({ file, cited: m[1] ?? '' })),
  };
}

const SOURCES = files('src', /\.ts$/);
const CITING = [...SOURCES, ...files('test', /\.ts$/), ...files('docs', /\.md$/)].filter(
  (file) => !file.endsWith('citations.test.ts'),
);
const found = CITING.map(citations);
const sectionCitations = found.flatMap((c) => c.sections);
const headingCitations = found.flatMap((c) => c.headings);

describe('citations of docs/interface.md and docs/decisions.md', () => {
  it('finds the documents and the citations', () => {
    expect(sections.has('4.2')).toBe(true);
    expect(headings.has('Credits and keys')).toBe(true);
    expect(sectionCitations.length).toBeGreaterThan(10);
    expect(headingCitations.length).toBeGreaterThan(10);
  });

  it('cites only sections of docs/interface.md that exist', () => {
    const missing = sectionCitations.filter(({ cited }) => !sections.has(cited));
    expect(missing.map(({ file, cited }) => `${file}: ${cited}`)).toEqual([]);
  });

  it('cites only headings of docs/decisions.md that exist', () => {
    const missing = headingCitations.filter(({ cited }) => !headings.has(cited));
    expect(missing.map(({ file, cited }) => `${file}: "${cited}"`)).toEqual([]);
  });

  it('says where in src/: no bare docs/interface.md or docs/decisions.md', () => {
    const bare = SOURCES.flatMap((file) => {
      const text = unwrap(read(file));
      const interfaceBare = text.replace(INTERFACE, '').includes('docs/interface.md');
      const decisionsBare = text.replace(DECISIONS, '').includes('docs/decisions.md');
      return [
        ...(interfaceBare ? [`${file}: docs/interface.md`] : []),
        ...(decisionsBare ? [`${file}: docs/decisions.md`] : []),
      ];
    });
    expect(bare).toEqual([]);
  });

  it('cites nothing outside the repository', () => {
    const outside = CITING.filter((file) => /interface-spec\.md|(?<![\w/])decisions\.md/.test(read(file)));
    expect(outside).toEqual([]);
  });
});
