// Baseline extractor of the quality issue: plain @mozilla/readability on linkedom + plain
// Turndown (no plugins, default options), the field's "Readability + linkedom + Turndown"
// row. Default export: async (html, url) => markdown.
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

const turndown = new TurndownService();

export function baselineLinkedomExtract(html) {
  const { document } = parseHTML(html);
  const article = new Readability(document).parse();
  return article && article.content ? turndown.turndown(article.content) : '';
}

export default async function extract(html) {
  return baselineLinkedomExtract(html);
}
