/**
 * The one context every pass of pipeline.ts reads and writes: the page, what it declares,
 * the stages' candidates, the candidate being written and its Markdown, and text statistics
 * computed once per state of the tree.
 */

import type { DomDocument, DomElement } from './dom.js';
import type { PageMetadata } from './metadata.js';
import type { PageType } from '../../core/page-types.js';
import type { Offer } from './product-offer.js';
import type { TextStats } from './text-stats.js';
import { computeTextStats } from './text-stats.js';
import type { SourceWords } from './source-words.js';
import type { StageFeatures } from './stage-features.js';

export type Stage = 'product-description' | 'readability' | 'cleaned-body' | 'plain-text' | 'empty';

/** What the page says about itself, read before noise removal. */
export interface PageHints {
  /** The page declares a schema.org Product (product-page.ts). */
  product: boolean;
  /** Its declared description (JSON-LD), when long enough to anchor on. */
  declaredDescription: string | null;
}

/** One stage's pick: the element to write, in the document that holds it. */
export interface Candidate {
  stage: Stage;
  doc: DomDocument;
  /** Null only for the plain-text stage, whose body is made again when it is reached. */
  root: DomElement | null;
  chars: number;
  nonLinkChars: number;
  /** Characters in the largest run of repeated items (listing-items.ts); stage 2 only. */
  itemChars?: number;
}

export interface PageContext {
  readonly url: string;
  /** Passes and rules switched off by name (the ablation bench); empty in production. */
  readonly off: ReadonlySet<string>;
  /** The HTML as parsed (after the input bounds). */
  source: string;
  /** The words of `source` that passes look for before their walks (source-words.ts). */
  words: SourceWords;
  /** Some start tag of `source` has an attribute name with a capital (input-bounds.ts). */
  capitalNames: boolean;
  /** The class and id values of `source`'s start tags, a space between (input-bounds.ts). */
  classes: string;
  ids: string;
  doc: DomDocument;
  body: DomElement;
  /** The base that relative URLs resolve against (urls.ts). */
  base: string | null;
  metadata: PageMetadata;
  /** The types the page declares: og:type, JSON-LD @type, microdata (declared-types.ts). */
  declaredTypes: Set<string>;
  hints: PageHints;
  offer: Offer | null;

  /** Readability may run: the page is within its size and depth caps. */
  readabilityAllowed: boolean;
  /** The product's declared description is in the de-noised page. */
  declaredInPage: boolean;
  /** The copy Readability reads: undefined before the chrome pass, null when it failed. */
  readabilityDoc: DomDocument | null | undefined;
  /** The chrome removal ran through on the body (stage 2 has something to read). */
  cleanable: boolean;
  readability: Candidate | null;
  cleaned: Candidate | null;
  /** The product description inside the cleaned body (stage 0). */
  description: Candidate | null;
  /** Candidates in order of preference, the plain-text stage last. */
  ranked: Candidate[];
  /** The page's kind as the stage selector guesses it ('other' until it has run). */
  pageType: PageType;
  /** What the stage selector read (stage-features.ts); null before the rank pass. */
  features: StageFeatures | null;
  /** A stage to put first whatever the selector says (the training script's two runs). */
  readonly prefer: 'readability' | 'cleaned-body' | null;

  /** The candidate being cleaned and written, and its Markdown so far. */
  current: Candidate | null;
  markdown: string;
  stage: Stage;

  /** Whether a pass or rule is switched on. */
  on(name: string): boolean;
  /** Text statistics of the tree under `root` as it is now (cached until `changed`). */
  stats(root: DomElement): Map<DomElement, TextStats>;
  /** The tree changed: cached statistics are stale. */
  changed(): void;
  /** The de-noised body again, from a fresh parse (the prepare passes rerun). */
  freshBody(): DomElement;
}

const NO_TEXT: TextStats = { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };

/** The statistics of `root` itself, or none. */
export function statsOf(page: PageContext, root: DomElement): TextStats {
  return page.stats(root).get(root) ?? NO_TEXT;
}

/** A candidate for `root` with its text measured as it is now. */
export function measure(page: PageContext, stage: Stage, doc: DomDocument, root: DomElement): Candidate {
  const stats = statsOf(page, root);
  return { stage, doc, root, chars: stats.chars, nonLinkChars: stats.chars - stats.linkChars };
}

/** A stats cache: one computation per root until the tree changes. */
export function statsCache(): Pick<PageContext, 'stats' | 'changed'> {
  const cache = new Map<DomElement, Map<DomElement, TextStats>>();
  return {
    stats(root) {
      let stats = cache.get(root);
      if (stats === undefined) cache.set(root, (stats = computeTextStats(root)));
      return stats;
    },
    changed() {
      cache.clear();
    },
  };
}

/**
 * `run`'s value, or null when it throws (linkedom gaps, absurd nesting): a stage that fails
 * is rejected.
 */
export function attempt<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}
