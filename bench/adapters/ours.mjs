// Our extractor for the benchmark scorer: the built HTML cascade (run `npm run build` first).
// Default export: async (html, url) => markdown.
import { htmlToMarkdown } from '../../dist/extract/html/html-to-markdown.js';

export default async function extract(html, url) {
  return htmlToMarkdown(html, url).markdown;
}
