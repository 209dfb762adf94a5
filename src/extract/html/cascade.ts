/**
 * THE EXTRACTION CASCADE (after trafilatura's `trafilatura_sequence`). The document has
 * been parsed, normalised and stripped of noise (scripts, styles, hidden elements, form
 * controls) before stage 1; each stage works on its own copy.
 *
 *   1. readability   Mozilla Readability on a clone of the document. Its candidate is
 *                    accepted when it has at least MIN_READABILITY_CHARS of text AND at
 *                    least MIN_READABILITY_SHARE of the cleaned body's non-link text.
 *   2. cleaned-body  the body without page chrome (boilerplate.ts): nav/header/footer/
 *                    aside, chrome roles and class/id words, then link-dense blocks; scoped
 *                    to the single <main> when that holds MIN_MAIN_SHARE of the text. Used
 *                    when stage 1 is rejected and it has at least MIN_CLEANED_BODY_CHARS
 *                    (or more text than the rejected stage 1 candidate).
 *   3. plain-text    the text of the whole body, when neither candidate has any text.
 *
 * The share test is the recall rescue: Readability picks one subtree, which on listings,
 * forums, product and service pages is often one item of many; when the cleaned body holds
 * much more prose than that subtree, the page's content is the cleaned body.
 * A stage that throws (linkedom gaps, absurd nesting) counts as rejected.
 */

import { Readability } from '@mozilla/readability';
import { pruneLinkDenseBlocks, removeBoilerplate } from './boilerplate.js';
import type { DomDocument, DomElement } from './dom.js';
import { descendants, tagOf } from './dom.js';
import { elementToMarkdown } from './markdown.js';
import { plainText } from './plain-text.js';
import { computeTextStats } from './text-stats.js';
import { K } from './knobs.js';

/** Below this many characters Readability has found a fragment (a caption, a teaser). */
export const MIN_READABILITY_CHARS = K('RC', 200);
/** Readability's text must be at least this share of the cleaned body's non-link text. */
export const MIN_READABILITY_SHARE = K('RS', 0.5);
/** A cleaned body with less text than this is no better than nothing (unless stage 1 has less). */
export const MIN_CLEANED_BODY_CHARS = 50;
/** A lone <main> holding at least this share of the cleaned body's text is the scope of stage 2. */
export const MIN_MAIN_SHARE = K('MS', 0.3);
/** Documents with more elements than this skip stage 1 (Readability's own guard, a throw). */
export const MAX_READABILITY_ELEMENTS = 60_000;

export type Stage = 'readability' | 'cleaned-body' | 'plain-text' | 'empty';

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
}

function measure(stage: Stage, doc: DomDocument, root: DomElement): Candidate {
  const stats = computeTextStats(root).get(root) ?? { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };
  return { stage, doc, root, chars: stats.chars, nonLinkChars: stats.chars - stats.linkChars };
}

function readabilityCandidate(doc: DomDocument): Candidate | null {
  const clone = doc.cloneNode(true) as DomDocument;
  if (K('PRE', 0) && clone.body) removeBoilerplate(clone.body);
  const reader = new Readability<DomElement>(clone as never, {
    serializer: (node) => node as unknown as DomElement,
    maxElemsToParse: MAX_READABILITY_ELEMENTS,
  });
  const article = reader.parse();
  const root = article?.content;
  return root ? measure('readability', clone, root) : null;
}

function cleanedBodyCandidate(doc: DomDocument, body: DomElement): Candidate {
  const clone = body.cloneNode(true) as DomElement;
  removeBoilerplate(clone);
  let root = clone;
  const mains = descendants(clone, new Set(['main'])).concat(
    descendants(clone).filter((el) => el.getAttribute('role') === 'main' && tagOf(el) !== 'main'),
  );
  if (mains.length === 1) {
    const stats = computeTextStats(clone);
    const main = mains[0]!;
    if ((stats.get(main)?.chars ?? 0) >= MIN_MAIN_SHARE * (stats.get(clone)?.chars ?? 0)) root = main;
  }
  pruneLinkDenseBlocks(root);
  return measure('cleaned-body', doc, root);
}

function attempt<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

/** Candidates in order of preference, per the rules in the module comment. */
function rank(readability: Candidate | null, cleaned: Candidate | null): Candidate[] {
  if (readability === null) return cleaned === null ? [] : [cleaned];
  if (cleaned === null) return [readability];
  const accepted =
    readability.chars >= MIN_READABILITY_CHARS && readability.chars >= MIN_READABILITY_SHARE * cleaned.nonLinkChars;
  if (accepted) return [readability, cleaned];
  const cleanedUsable = cleaned.chars >= MIN_CLEANED_BODY_CHARS || cleaned.chars > readability.chars;
  return cleanedUsable ? [cleaned, readability] : [readability, cleaned];
}

/** Runs the cascade on a parsed, de-noised document; `base` resolves relative URLs. */
export function runCascade(doc: DomDocument, body: DomElement, base: string | null): CascadeOutcome {
  const readability = attempt(() => readabilityCandidate(doc));
  const cleaned = attempt(() => cleanedBodyCandidate(doc, body));
  for (const candidate of rank(readability, cleaned)) {
    if (candidate.chars === 0) continue;
    const markdown = attempt(() => elementToMarkdown(candidate.doc, candidate.root, base));
    if (markdown) return { markdown, stage: candidate.stage };
  }
  const text = attempt(() => plainText(body));
  return text ? { markdown: text, stage: 'plain-text' } : { markdown: '', stage: 'empty' };
}
