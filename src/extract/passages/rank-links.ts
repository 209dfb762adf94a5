/**
 * URLs ranked by a query without fetching them (a site map's `search`, a site crawl's
 * best-first frontier): BM25F over what is known of each link, its path's words, its title
 * or anchor text, and for a crawl the passage around it on the page that links to it. The
 * words are the passage ranker's (query-terms.ts: the same tokenizer, stop words, stemmer
 * and synonyms at their weight), so "rotating certificates" finds
 * `/docs/tls/certificate-rotation`.
 */
import type { WordVectors } from './word-vectors.js';
import { queryTerms } from './query-terms.js';
import { tokenize } from './tokenize.js';

export interface LinkText {
  url: string;
  /** Anchor text, feed or page title. */
  title?: string;
  /** The text around the link where it was found (a crawl's parent passage). */
  context?: string;
}

/** Field weights before saturation: a title says what the page is; the context only hints. */
const WEIGHTS = { path: 1.5, title: 1.2, context: 0.4 } as const;
const K1 = 1.2;
const B = 0.5;

/** The words of a URL's path (and query string): `/docs/tls/cert-rotation.html` -> docs tls cert rotation html. */
export function pathWords(url: string): string {
  let rest: string;
  try {
    const parsed = new URL(url);
    rest = `${parsed.pathname} ${parsed.search}`;
  } catch {
    rest = url;
  }
  let text: string;
  try {
    text = decodeURIComponent(rest);
  } catch {
    text = rest;
  }
  // camelCase and snake_case split too: `/api/getUserName` reads "get user name".
  return text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[/_\-.+=&?%~:;,]+/g, ' ');
}

/** Scores of `links` for `query` (same order; 0 for a link that shares no term with it). */
export function rankLinks(query: string, links: readonly LinkText[], vectors?: WordVectors): number[] {
  const { terms, weights, own, termOf } = queryTerms(query, undefined, vectors);
  if (own === 0 || links.length === 0) return links.map(() => 0);
  const wanted = new Set(terms);
  const count = (text: string) => counted(text, wanted, termOf);
  const fields = links.map((link) => ({
    path: count(pathWords(link.url)),
    title: count(link.title ?? ''),
    context: count(link.context ?? ''),
  }));
  const avg = {
    path: mean(fields.map((f) => f.path.length)),
    title: mean(fields.map((f) => f.title.length)),
    context: mean(fields.map((f) => f.context.length)),
  };
  // IDF over the links: a word every URL holds (the section name) weighs little.
  const df = new Map<string, number>();
  for (const f of fields) {
    const present = new Set([...f.path.counts.keys(), ...f.title.counts.keys(), ...f.context.counts.keys()]);
    for (const term of present) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = links.length;
  return fields.map((f) => {
    let score = 0;
    terms.forEach((term, t) => {
      let tf = 0;
      for (const name of ['path', 'title', 'context'] as const) {
        const field = f[name];
        const norm = 1 - B + (B * field.length) / Math.max(1, avg[name]);
        tf += (WEIGHTS[name] * (field.counts.get(term) ?? 0)) / norm;
      }
      if (tf === 0) return;
      const d = df.get(term) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score += ((weights[t] as number) * idf * tf * (K1 + 1)) / (tf + K1);
    });
    return Math.round(score * 1000) / 1000;
  });
}

/** A field's length in words and the counts of the query's terms in it. */
function counted(
  text: string,
  wanted: ReadonlySet<string>,
  termOf: (token: string) => string,
): { length: number; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  if (text === '') return { length: 0, counts };
  const tokens = tokenize(text);
  for (const token of tokens) {
    const term = termOf(token);
    if (wanted.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return { length: tokens.length, counts };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
