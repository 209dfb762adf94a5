// Our extractor for the benchmark scorer: the package's converter, htmlToMarkdown (run `npm run build` first).
// Default export: async (html, url) => markdown.
import { htmlToMarkdown } from '../../dist/index.js';

export default async function extract(html, url) {
  return htmlToMarkdown(html, url).markdown;
}
