/**
 * Markdown of an HTML fragment, converted as the pipeline converts its pick: parsed into a
 * page, the fragment's wrapper cleaned and written by the pipeline's clean and write passes.
 */
import { writeCandidate } from '../../src/extract/html/pipeline.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';

export function fragmentMarkdown(fragment: string): string {
  const doc = parseDocument(`<html><body><div id="r">${fragment}</div></body></html>`);
  return writeCandidate(doc, doc.querySelector('#r')!, 'https://example.com/');
}
