/**
 * The stages' candidates and their ranking (the choose phase of pipeline.ts): stage 0
 * product-description, 1 readability (on a copy rid of chrome), 2 cleaned-body (the body
 * rid of chrome, what precedes its `<h1>` dropped), 3 plain-text. The rules of `rank`: docs/extraction.md,
 * "Choosing a stage"; their figures: docs/extraction-history.md, "4. Choosing a stage".
 */

import { Readability } from '@mozilla/readability';
import { dropCommentThreads, textBesideArticle } from './beside-article.js';
import { dropBeforeTitle } from './boilerplate.js';
import type { DomDocument, DomElement } from '../dom.js';
import { findDeclared, mentions } from './declared-description.js';
import { largestItemRun } from './listing-items.js';
import { HEADING_LEVEL_MARK } from '../marks.js';
import type { Candidate, Choosing, PageContext } from '../page-context.js';
import { measure, statsOf } from '../page-context.js';
import { productDescription } from '../read/product-page.js';
import { lightenReadability } from './readability-tests.js';
import { stageFeatures } from './stage-features.js';
import { guessPageType, readabilityFirst } from './stage-selector.js';

/** Whether `root` has more than `limit` elements or nests them deeper than `depthLimit`. */
export function tooBigForReadability(root: DomElement, limit: number, depthLimit: number): boolean {
  let count = 0;
  const stack: DomElement[] = [root];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()! + 1; // of its children
    for (let child = node.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (++count > limit || depth > depthLimit) return true;
      stack.push(child);
      depths.push(depth);
    }
  }
  return false;
}

/** Stage 1: Readability's pick in its copy of the document, or null when it finds none. */
export function readabilityCandidate(page: PageContext, copy: DomDocument): Candidate | null {
  // Beside an article, readers' comments are not Readability's to pick (beside-article.ts).
  if (copy.body && page.on('comment-threads')) dropCommentThreads(copy.body);
  // Readability renames each <h1> of the article to <h2>; the level stays on as a mark.
  if (copy.body)
    for (const h1 of Array.from(copy.body.getElementsByTagName('h1'))) h1.setAttribute(HEADING_LEVEL_MARK, '1');
  const reader = new Readability<DomElement>(copy as never, { serializer: (node) => node as unknown as DomElement });
  if (page.on('readability-patches')) lightenReadability(reader);
  const root = reader.parse()?.content;
  return root ? measure(page, 'readability', copy, root) : null;
}

/** Stage 2: the cleaned body (the document itself, which stage 1 has copied). */
export function cleanedBodyCandidate(page: PageContext): Candidate {
  const { body: root, doc } = page;
  const dropped = page.on('before-title') && dropBeforeTitle(root, page.stats(root));
  if (dropped) page.changed();
  const left = statsOf(page, root);
  const itemChars = page.on('listing-run') ? largestItemRun(root, page.stats(root)) : 0;
  return { stage: 'cleaned-body', doc, root, chars: left.chars, nonLinkChars: left.chars - left.linkChars, itemChars };
}

/**
 * Stage 0: the product description inside the cleaned body, or (when the chrome removal
 * took it) the declared description found in the de-noised page again.
 */
export function productDescriptionCandidate(page: Choosing, cleaned: Candidate): Candidate | null {
  const root = cleaned.root;
  const element = productDescription(root, page.stats(root));
  if (element !== null) return measure(page, 'product-description', cleaned.doc, withTitle(cleaned.doc, root, element));
  const declared = page.hints.declaredDescription;
  if (!page.declaredInPage || !declared || mentions(root, declared)) return null;
  const fresh = page.freshBody();
  const found = fresh.ownerDocument === null ? null : findDeclared(fresh, declared);
  return found === null
    ? null
    : measure(page, 'product-description', fresh.ownerDocument!, withTitle(fresh.ownerDocument!, fresh, found));
}

/**
 * The product description headed by the page's one `<h1>` (the product's name) when that
 * sits outside it: copies, so that the cleaned body stays whole for the next candidates.
 */
function withTitle(doc: DomDocument, root: DomElement, description: DomElement): DomElement {
  const h1s = root.querySelectorAll('h1');
  if (h1s.length !== 1 || description.querySelector('h1') !== null) return description;
  const wrapper = doc.createElement('div');
  wrapper.appendChild(h1s[0]!.cloneNode(true));
  wrapper.appendChild(description.cloneNode(true));
  return wrapper;
}

/** The cleaned body's non-link text that follows the article Readability picked (beside-article.ts). */
function besideArticle(page: PageContext, cleaned: Candidate, readability: Candidate): number {
  if (!page.on('beside-article-share')) return 0;
  return page.attempt(() => textBesideArticle(cleaned.root, readability.root, readability.chars, page.stats)) ?? 0;
}

/**
 * What the stage selector reads of the page and its two candidates (stage-features.ts)
 * and the page's type it guesses, both kept in the choice; stages 1 and 2 in the order it
 * prefers, with the `stage-selector` rule off Readability's pick first.
 */
export function rankStages(page: Choosing, readability: Candidate | null, cleaned: Candidate | null): Candidate[] {
  const beside = readability !== null && cleaned !== null ? besideArticle(page, cleaned, readability) : 0;
  page.features = stageFeatures(page, readability, cleaned, beside);
  if (readability !== null || cleaned !== null) page.pageType = guessPageType(page.features.values);
  if (readability === null) return cleaned === null ? [] : [cleaned];
  if (cleaned === null) return [readability];
  const first =
    page.prefer ??
    (!page.on('stage-selector') || readabilityFirst(page.features.values) ? 'readability' : 'cleaned-body');
  return first === 'readability' ? [readability, cleaned] : [cleaned, readability];
}
