/**
 * Pages built to make a converter slow or hungry (issue: a 9 MB page of nested `<div>`s held
 * the server for 12 minutes), generated in code and memoised: the fixture site serves them
 * under /hostile/<name>. `slow` stays within the input bounds but takes seconds to convert:
 * the page for deadline, queue and worker-death tests.
 */

export interface HostilePage {
  description: string;
  /**
   * What a crawl of it may give: a per-URL error of one of these types, or (when `success`
   * is set) a success whose Markdown stays within the bound.
   */
  expect: { errorTypes: string[]; success?: { maxMarkdownChars: number; contains: string; excludes?: string } };
  body(): string;
}

const page = (body: string): string => `<!doctype html><html><head><title>Hostile</title></head><body>${body}</body></html>`;
const ARTICLE = '<p>An ordinary paragraph of an article, with enough words for a reader to see it.</p>';

export const HOSTILE_PAGES: Record<string, HostilePage> = {
  'nested-divs': {
    description: '1,000,000 nested <div>s (5 MB), the text at the bottom: past the element bound',
    expect: { errorTypes: ['empty_content'] },
    body: () => page(`${'<div>'.repeat(1_000_000)}deep text`),
  },
  'tiny-paragraphs': {
    description: '200,000 tiny <p>s (cut at the element bound, 100,000)',
    expect: { errorTypes: [], success: { maxMarkdownChars: 1_300_000, contains: 'word 99990', excludes: 'word 100000' } },
    body: () => page(Array.from({ length: 200_000 }, (_, i) => `<p>word ${i}</p>`).join('')),
  },
  'text-node': {
    description: 'a 9 MB single text node',
    expect: { errorTypes: [], success: { maxMarkdownChars: 9_500_000, contains: 'words words' } },
    body: () => page(`<p>${'words '.repeat(1_500_000)}</p>`),
  },
  script: {
    description: 'an article with a 5 MB <script>',
    expect: { errorTypes: [], success: { maxMarkdownChars: 1_000, contains: 'ordinary paragraph' } },
    body: () => page(`${ARTICLE}<script>${'var a = "<div>";'.repeat(320_000)}</script>`),
  },
  'nested-tables': {
    description: '10,000 tables nested in each other\'s cells: flattened past the depth bound',
    expect: { errorTypes: [], success: { maxMarkdownChars: 100, contains: 'cell' } },
    body: () => page(`${'<table><tr><td>'.repeat(10_000)}cell${'</td></tr></table>'.repeat(10_000)}`),
  },
  'nested-lists': {
    // Within the bounds once flattened and cut, but every item is indented by the depth
    // (Markdown of 13 MB): converted on a fast machine, stopped at the deadline on a slow one.
    description: '100,000 lists nested in each other\'s items, each with text',
    expect: { errorTypes: ['timeout'], success: { maxMarkdownChars: 16_000_000, contains: 'item 100' } },
    body: () => page(Array.from({ length: 100_000 }, (_, i) => `<ul><li>item ${i}`).join('')),
  },
  slow: {
    description: '95,000 paragraphs: within the input bounds, seconds to convert',
    expect: { errorTypes: [], success: { maxMarkdownChars: 2_000_000, contains: 'paragraph 94999' } },
    body: () => page(Array.from({ length: 95_000 }, (_, i) => `<p>paragraph ${i}</p>`).join('')),
  },
};

const built = new Map<string, Buffer>();

/** The page's bytes, generated once per process. */
export function hostileBody(name: string): Buffer | undefined {
  const hostile = HOSTILE_PAGES[name];
  if (hostile === undefined) return undefined;
  let bytes = built.get(name);
  if (bytes === undefined) {
    bytes = Buffer.from(hostile.body(), 'utf8');
    built.set(name, bytes);
  }
  return bytes;
}
