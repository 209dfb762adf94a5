// Baseline extractor for the benchmark: plain @mozilla/readability on jsdom + plain Turndown
// (no plugins, default options). Default export: async (html, url) => markdown.
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

const turndown = new TurndownService();
// A silent console: pages' CSS and script errors would otherwise flood stderr.
const virtualConsole = new VirtualConsole();

export function baselineExtract(html, url) {
  const dom = new JSDOM(html, { url: url || undefined, virtualConsole });
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
