/**
 * The authors a page names outside its structured data (structured-data/ is read first):
 * the `author` meta, `article:author` when it is a name rather than a profile's address,
 * `rel="author"` links, `itemprop="author"` elements, and a byline element whose text
 * opens with "By". Names only: a byline's role, date or outlet after the name is cut off.
 */

import type { DomDocument, DomElement } from '../dom.js';
import { normalizeSpace, walk } from '../dom.js';
import { isUrlLike } from './structured-data/values.js';

/** A page naming more is a list of contributors, not a byline. */
export const MAX_BYLINE_AUTHORS = 10;
const MAX_NAME_CHARS = 80;

/** "Jane Doe and John Roe", "Jane Doe & John Roe", "Jane Doe; John Roe". */
const BETWEEN_NAMES = /\s*(?:;|&|\band\b|\bund\b|\bet\b|\by\b)\s*/i;
/** What follows a name in a byline: a role, an outlet, a date. */
const AFTER_NAME = /\s*(?:[,|·•–—]|\s-\s|\bfor\b|\bon\b|\bupdated\b|\bpublished\b|\d).*$/i;
const BY = /^(?:by|von|par|por|di|door|av)\s+/i;

export function bylineAuthors(doc: DomDocument, metas: Map<string, string>): string[] {
  const found = metaAuthors(metas);
  if (found.length === 0) {
    // By tag name: a selector query runs css-select over every element, twice when neither is there.
    const scope = doc.getElementsByTagName('article')[0] ?? doc.getElementsByTagName('main')[0] ?? doc.body;
    if (scope !== null) found.push(...pageBylines(scope as DomElement));
  }
  return distinct(found);
}

/** The names of the `author` and `article:author` metas (`metas`: lower-cased name -> content). */
export function metaAuthors(metas: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  const meta = metas.get('author');
  if (meta !== undefined) found.push(...namesIn(meta));
  const ogAuthor = metas.get('article:author');
  if (ogAuthor !== undefined && !isAddress(ogAuthor)) found.push(...namesIn(ogAuthor));
  return distinct(found);
}

/** One walk of the article: its author links and itemprops, else its first byline opening with "By". */
function pageBylines(scope: DomElement): string[] {
  const names: string[] = [];
  let byline: string | null = null;
  // A walk reading attributes: a selector query walks the tree once per selector, each
  // element matched by css-select, at several times the cost.
  walk(scope, (element) => {
    if (names.length >= MAX_BYLINE_AUTHORS) return false;
    const rel = element.getAttribute('rel');
    const itemprop = element.getAttribute('itemprop');
    if ((rel !== null && /\bauthor\b/i.test(rel)) || (itemprop !== null && /\bauthor\b/.test(itemprop))) {
      const named = itemprop === null ? null : element.querySelector('[itemprop~="name"]');
      names.push(...namesIn(normalizeSpace((named ?? element).textContent)));
    } else if (byline === null && names.length === 0) {
      const classes = element.getAttribute('class');
      if (classes !== null && /byline/i.test(classes)) {
        const text = normalizeSpace(element.textContent);
        if (BY.test(text)) byline = text;
      }
    }
    return true;
  });
  return names.length > 0 || byline === null ? names : namesIn(byline);
}

function namesIn(text: string): string[] {
  const line = normalizeSpace(text).replace(BY, '').replace(AFTER_NAME, '');
  return line
    .split(BETWEEN_NAMES)
    .map((name) => name.trim())
    .filter((name) => name !== '' && name.length <= MAX_NAME_CHARS && !isAddress(name) && /\p{L}/u.test(name));
}

/** A profile's address or an e-mail address, not a name. */
function isAddress(text: string): boolean {
  return isUrlLike(text.trim()) || /@\S+\.\w/.test(text);
}

function distinct(names: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
    if (out.length >= MAX_BYLINE_AUTHORS) break;
  }
  return out;
}
