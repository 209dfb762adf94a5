/**
 * Markdown of an HTML fragment, converted as the cascade converts its pick: parsed into a
 * page, the fragment's wrapper handed to `elementToMarkdown`.
 */
import { elementToMarkdown } from '../../src/extract/html/markdown.js';
import { parseDocument } from '../../src/extract/html/parse.js';

export function fragmentMarkdown(fragment: string): string {
  const doc = parseDocument(`<html><body><div id="r">${fragment}</div></body></html>`);
  return elementToMarkdown(doc, doc.querySelector('#r')!, 'https://example.com/');
}
