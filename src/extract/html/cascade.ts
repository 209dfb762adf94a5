/**
 * THE EXTRACTION CASCADE (after trafilatura's `trafilatura_sequence`). Before it runs, the
 * document is parsed and normalised (parse.ts) and rid of noise (noise.ts: scripts,
 * styles, form controls, small hidden elements).
 *
 *   stage 0  product-description  on a page that declares a schema.org Product: the
 *                          element of stage 2 named for the product description, when
 *                          it holds a good share of stage 2's text (product-page.ts).
 *   stage 1  readability   Mozilla Readability on a copy of the document rid of page
 *                          chrome (boilerplate.ts steps 1-3).
 *   stage 2  cleaned-body  the body rid of the same chrome (sections' own headers kept),
 *                          scoped to the lone <main> when that holds at least
 *                          MIN_MAIN_SHARE of the text, what precedes its one <h1>
 *                          dropped (step 4), then link blocks pruned (step 5).
 *   stage 3  plain-text    the text of the whole de-noised body, blocks as paragraphs.
 *
 * Decision: stage 0 when there is one; then `rank`:
 *   - stage 1 is ACCEPTED when its text has at least MIN_READABILITY_CHARS characters AND
 *     at least MIN_READABILITY_SHARE of the non-link text of stage 2. The second test is
 *     the recall rescue: Readability picks one subtree, which on listings, forums, product
 *     and service pages is often one item of many; when the cleaned body holds much more
 *     prose than that subtree, the page's content is the cleaned body. On a page that
 *     declares a product the share is MIN_PRODUCT_READABILITY_SHARE: its facts sit in
 *     blocks beside the prose Readability keeps.
 *   - otherwise stage 2 is used when it has at least MIN_CLEANED_BODY_CHARS (or more text
 *     than stage 1's candidate), with stage 1 as the next choice;
 *   - a candidate whose Markdown comes out empty passes to the next one; stage 3 is taken
 *     when no candidate has any text; `empty` when the body has none either.
 * A stage that throws (linkedom gaps, absurd nesting) counts as rejected.
 * Characters are counted without white space (text-stats.ts).
 *
 * Measured on the benchmark dev splits (bench/extract-bench.mjs), stage 1 wins on all
 * scrapinghub news articles and most WCXB articles; stage 2 on a quarter of WCXB's
 * listing, product, forum and service pages.
 */

import { Readability } from '@mozilla/readability';
import { dropBeforeTitle, hasSectionHeader, pruneLinkDenseBlocks, removeBoilerplate } from './boilerplate.js';
import type { DomDocument, DomElement } from './dom.js';
import { elementToMarkdown, HEADING_LEVEL_ATTRIBUTE } from './markdown.js';
import { largestItemRun } from './listing-items.js';
import { plainText } from './plain-text.js';
import { findDeclared, mentions } from './declared-description.js';
import { productDescription } from './product-page.js';
import { dropRepeatedRuns } from './repeated-runs.js';
import { lightenReadability } from './readability-tests.js';
import { computeTextStats, linkDensity } from './text-stats.js';

/** Below this many characters Readability has found a fragment (a caption, a teaser). */
export const MIN_READABILITY_CHARS = 200;
/** Readability's text must be at least this share of the cleaned body's non-link text. */
export const MIN_READABILITY_SHARE = 0.5;
/**
 * ... and at least this share on a page that declares itself a product page
 * (product-page.ts). Readability keeps the one subtree with the most prose, on a shop's
 * page the marketing copy; the product's facts sit beside it in sibling blocks and tabs
 * (specifications, features, the options, the questions answered), which the cleaned
 * body keeps. Measured on the 33 declared product pages of WCXB dev (no page of another
 * type changes below 0.9): 0.5 / 0.6 / 0.7 / **0.8** / 0.9 / 1.0 gave product F1 0.746 /
 * 0.751 / 0.754 / **0.755** / 0.755 / 0.752. At 0.8 seven pages change stage: five gain
 * (two graphics cards' specifications, a sofa's details, a toolkit's contents, a
 * doorbell's questions: +0.06 to +0.21), two lose (a laptop's carousels, an auction's
 * banners and dates: -0.17, -0.13). At 0.9 four collections that declare a product
 * change both ways (-0.27 to +0.23); at 1.0 Readability's pick is never taken, and pages
 * whose pick is the whole description lose.
 */
export const MIN_PRODUCT_READABILITY_SHARE = 0.8;
/**
 * The page is a listing when its largest run of alike items (listing-items.ts) holds at
 * least this share of the cleaned body's text; if Readability's pick is then smaller than
 * that run, it is one card or a few, and stage 2 comes first. On WCXB dev this rule raised
 * listing F1 from 0.711 to 0.751 (collection -0.01, scrapinghub unchanged); a share of 0.5
 * caught fewer listings (0.737), and letting Readability's pick be up to 1.6 times the run
 * caught more listings (0.760) but cost articles and collections.
 */
export const MIN_ITEM_SHARE = 0.35;
/** A cleaned body with less text than this is no better than nothing (unless stage 1 has less). */
export const MIN_CLEANED_BODY_CHARS = 50;
/** A lone <main> holding at least this share of the cleaned body's text is the scope of stage 2. */
export const MIN_MAIN_SHARE = 0.3;
/**
 * Documents with more elements than this (counted after noise removal) skip stage 1:
 * Readability's cost grows faster than the page (2.8 s of 4.8 s on a 5 MB page of 60,000
 * elements; two thirds of the 0.8-1.0 s a 1 MB listing of 8,400 elements took), while
 * stage 2 stays linear. At 7,000 the slowest benchmark page fell from about 1.0 s to
 * 0.4 s and no page changed stage (the two pages over it were listings that stage 2 won
 * anyway). Lower caps trade quality: at 6,000 a listing lost 0.08, at 5,000 five
 * catalogue pages changed stage (collection +0.015, listing -0.002), at 3,000 articles
 * start to change stage.
 */
export const MAX_READABILITY_ELEMENTS = 7_000;
/**
 * ... or elements nested deeper than this (under the body, after noise.ts has flattened
 * nesting past MAX_TREE_DEPTH): Readability's conditional cleaning measures the text of
 * every candidate's subtree, so its cost grows with depth times size. A page of 250 nested
 * levels, each a `<div>` with a word in a `<span>`, took it 0.55 s, of 1,000 levels 4.7 s;
 * stage 2 does them in 0.04 and 0.16 s. The deepest of the 684 benchmark pages nests 54
 * levels.
 */
export const MAX_READABILITY_DEPTH = 128;

/**
 * Stage 3 is refused when more than this share of the body's text is link text: when
 * stages 1 and 2 find nothing once the chrome is gone, a body of links is that chrome
 * (the menus and footer of an app shell whose content a script loads), not content. On
 * the WCXB dev split all five pages that reached stage 3 were such shells (F1 0 each;
 * three have an empty ground truth), and refusing them raised WCXB F1 by 0.004.
 */
export const MAX_PLAIN_TEXT_LINK_DENSITY = 0.5;

export type Stage = 'product-description' | 'readability' | 'cleaned-body' | 'plain-text' | 'empty';

/** What the page says about itself, read before noise removal. */
export interface PageHints {
  /** The page declares a schema.org Product (product-page.ts). */
  product?: boolean;
  /** Its declared description (JSON-LD), when long enough to anchor on (declared-description.ts). */
  declaredDescription?: string | null;
}

export interface CascadeOutcome {
  markdown: string;
  stage: Stage;
}

interface Candidate {
  stage: Stage;
  doc: DomDocument;
  root: DomElement;
  chars: number;
  nonLinkChars: number;
  /** Characters in the largest run of repeated items (listing-items.ts); stage 2 only. */
  itemChars?: number;
  /** The product description inside it (product-page.ts); stage 2 of a product page only. */
  description?: Candidate;
}

function measure(stage: Stage, doc: DomDocument, root: DomElement): Candidate {
  const stats = computeTextStats(root).get(root) ?? { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };
  return { stage, doc, root, chars: stats.chars, nonLinkChars: stats.chars - stats.linkChars };
}

/**
 * Stage 1 works on a copy of the document; `clean` removes the chrome from the copy (else
 * the document's body is already rid of it, and has no section header to keep).
 */
function readabilityCandidate(doc: DomDocument, clean: boolean, productPage = false): Candidate | null {
  const clone = doc.cloneNode(true) as DomDocument;
  if (clean && clone.body) removeBoilerplate(clone.body, { productPage });
  // Readability renames each <h1> of the article to <h2>; the level stays on as an attribute.
  if (clone.body) for (const h1 of Array.from(clone.body.getElementsByTagName('h1'))) h1.setAttribute(HEADING_LEVEL_ATTRIBUTE, '1');
  const reader = new Readability<DomElement>(clone as never, {
    serializer: (node) => node as unknown as DomElement,
  });
  lightenReadability(reader);
  const article = reader.parse();
  const root = article?.content;
  return root ? measure('readability', clone, root) : null;
}

/**
 * Stage 2 works on the document itself (stage 1 had its clone): no copy to make.
 * `declaredInPage`: the de-noised page holds the product's declared description (looked
 * for before the chrome removal, so that a page without it is not read again).
 */
function cleanedBodyCandidate(doc: DomDocument, body: DomElement, hints: PageHints, declaredInPage: boolean, freshBody: () => DomElement): Candidate {
  const stats = computeTextStats(body);
  let root = body;
  const mains = Array.from(body.querySelectorAll('main, [role="main"]'));
  if (mains.length === 1 && (stats.get(mains[0]!)?.chars ?? 0) >= MIN_MAIN_SHARE * (stats.get(body)?.chars ?? 0)) {
    root = mains[0]!;
  }
  const left = pruneLinkDenseBlocks(root, dropBeforeTitle(root, stats) ? computeTextStats(root) : stats);
  const itemChars = largestItemRun(root);
  const candidate: Candidate = { stage: 'cleaned-body', doc, root, chars: left.chars, nonLinkChars: left.chars - left.linkChars, itemChars };
  if (hints.product === true) {
    const element = productDescription(root, computeTextStats(root));
    if (element !== null) candidate.description = measure('product-description', doc, withTitle(doc, root, element));
    else if (declaredInPage && hints.declaredDescription && !mentions(root, hints.declaredDescription)) {
      // The declared description is not in what the chrome removal left: look for it in
      // the de-noised page (declared-description.ts).
      const fresh = freshBody();
      const declared = fresh.ownerDocument === null ? null : findDeclared(fresh, hints.declaredDescription);
      if (declared !== null) candidate.description = measure('product-description', fresh.ownerDocument!, withTitle(fresh.ownerDocument!, fresh, declared));
    }
  }
  return candidate;
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

/**
 * Whether `root` has more than `limit` elements or nests them deeper than `depthLimit`
 * (the walk stops at either).
 */
function tooBigForReadability(root: DomElement, limit: number, depthLimit: number): boolean {
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

function attempt<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

/**
 * Candidates in order of preference, per the rules in the module comment; `productPage`:
 * the page declares a product (the recall rescue asks MIN_PRODUCT_READABILITY_SHARE).
 */
function rank(readability: Candidate | null, cleaned: Candidate | null, productPage = false): Candidate[] {
  if (readability === null) return cleaned === null ? [] : [cleaned];
  if (cleaned === null) return [readability];
  const items = cleaned.itemChars ?? 0;
  const listing = items >= MIN_ITEM_SHARE * cleaned.chars && readability.chars < items;
  const accepted =
    !listing && readability.chars >= MIN_READABILITY_CHARS && readability.chars >= (productPage ? MIN_PRODUCT_READABILITY_SHARE : MIN_READABILITY_SHARE) * cleaned.nonLinkChars;
  if (accepted) return [readability, cleaned];
  const cleanedUsable = cleaned.chars >= MIN_CLEANED_BODY_CHARS || cleaned.chars > readability.chars;
  return cleanedUsable ? [cleaned, readability] : [readability, cleaned];
}

/**
 * Runs the cascade on a parsed, de-noised document (which it consumes); `base` resolves
 * relative URLs; `freshBody` gives the de-noised body again for stage 3 (rarely needed, so
 * it is re-made then rather than copied up front).
 */
export function runCascade(
  doc: DomDocument,
  body: DomElement,
  base: string | null,
  freshBody: () => DomElement,
  hints: PageHints = {},
): CascadeOutcome {
  // (Readability's own cap, maxElemsToParse, counts getElementsByTagName('*'), which finds
  // nothing in linkedom: it never trips.)
  const tooBig = tooBigForReadability(body, MAX_READABILITY_ELEMENTS, MAX_READABILITY_DEPTH);
  // Stage 1's copy and stage 2 lose the same chrome unless the page has section headers
  // (kept in stage 2 only): without them the chrome goes once, before the copy is made
  // (one removal instead of two, and less to copy: about 5 % of the time per page).
  const separate = !tooBig && attempt(() => hasSectionHeader(body)) !== false;
  const early = separate ? attempt(() => readabilityCandidate(doc, true, hints.product === true)) : null;
  const declared = hints.product === true ? hints.declaredDescription : null;
  const declaredInPage = declared ? attempt(() => mentions(body, declared)) === true : false;
  const cleanable = attempt(() => {
    removeBoilerplate(body, { keepSectionHeaders: true, productPage: hints.product === true });
    return true;
  }) ?? false;
  const readability = tooBig ? null : separate ? early : cleanable ? attempt(() => readabilityCandidate(doc, false)) : null;
  const cleaned = cleanable ? attempt(() => cleanedBodyCandidate(doc, body, hints, declaredInPage, freshBody)) : null;
  const ranked = rank(readability, cleaned, hints.product === true);
  // A product page's named description comes first (product-page.ts).
  for (const candidate of cleaned?.description ? [cleaned.description, ...ranked] : ranked) {
    if (candidate.chars === 0) continue;
    const written = attempt(() => elementToMarkdown(candidate.doc, candidate.root, base));
    // Stage 2 keeps the whole page, with the copies it holds of its own text (repeated-runs.ts).
    const markdown = written && candidate.stage !== 'readability' ? (attempt(() => dropRepeatedRuns(written)) ?? written) : written;
    if (markdown) return { markdown, stage: candidate.stage };
  }
  const text = attempt(() => {
    const fresh = freshBody();
    // A body that is mostly link text once its chrome is gone (app shells whose content a
    // script loads: only menus and footers are in the HTML) has no main content to give.
    return linkDensity(computeTextStats(fresh).get(fresh)) > MAX_PLAIN_TEXT_LINK_DENSITY ? '' : plainText(fresh);
  });
  return text ? { markdown: text, stage: 'plain-text' } : { markdown: '', stage: 'empty' };
}
