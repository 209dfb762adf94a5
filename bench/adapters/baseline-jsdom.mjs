// Baseline extractor for the benchmark: plain @mozilla/readability on jsdom + plain Turndown
// (no plugins, default options). Default export: async (html, url) => markdown.
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

const turndown = new TurndownService();

export function baselineExtract(html, url) {
  // A silent console (one per page): pages' CSS and script errors would flood stderr.
  // jsdom frees a closed window only once the event loop turns: callers that convert
  // pages in a loop must yield between pages (bench/extract-bench.mjs does).
  const dom = new JSDOM(html, { url: url || undefined, virtualConsole: new VirtualConsole() });
  try {
    const article = new Readability(dom.window.document).parse();
    return article && article.content ? turndown.turndown(article.content) : '';
  } finally {
    dom.window.close();
  }
}

export default async function extract(html, url) {
  return baselineExtract(html, url);
}
