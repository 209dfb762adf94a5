/**
 * The typed states the passes of pipeline.ts work on, one per phase, and what each phase
 * hands to the next: the read phase builds a `Reading` and hands on the parsed page
 * (`PageContext`, which the prepare passes ready); the choose phase hands on its `Choice`,
 * the stages' candidates ranked; the clean and write phases take one candidate
 * (`Cleaning`, `Writing`); the finish phase its Markdown (`Finishing`). Every state shares
 * the run's switches (`on`), its failure log (`attempt`, `log`) and the text statistics of
 * the tree, computed once per state of it.
 */

import type { DomDocument, DomElement } from './dom.js';
import type { PageMetadata } from './read/metadata.js';
import type { PageType } from '../../core/page-types.js';
import type { Offer } from './finish/product-offer.js';
import type { StructuredData } from './read/structured-data/structured-data.js';
import type { TextStats } from './text-stats.js';
import { computeTextStats } from './text-stats.js';
import type { SourceWords } from './read/source-words.js';
import type { PassName, SwitchName } from './switches.js';
import { MatchBudget } from './prepare/selector-budget.js';

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
  stage: 'product-description' | 'readability' | 'cleaned-body';
  doc: DomDocument;
  root: DomElement;
  chars: number;
  nonLinkChars: number;
  /** Characters in the largest run of repeated items (listing-items.ts); stage 2 only. */
  itemChars?: number;
}

/** The last stage: the whole de-noised body as text, its body made again when it is reached. */
export interface PlainTextCandidate {
  stage: 'plain-text';
}

export type RankedCandidate = Candidate | PlainTextCandidate;

/** A pass that failed on a page: its name and the error's message (no stack). */
export interface PassFailure {
  pass: PassName;
  error: string;
}

/** At most this much of an error's message is kept. */
const MAX_ERROR_CHARS = 200;

/** An error in a line: its name and message, never its stack. */
function describe(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an error that cannot be printed';
  }
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > MAX_ERROR_CHARS ? `${line.slice(0, MAX_ERROR_CHARS - 1)}…` : line;
}

/**
 * The failures of one run of the pipeline, each put down to the pass it came out of: a
 * step that `attempt` lets fail (the pass goes on without it), or a pass whose error the
 * runner catches (the candidate being written, or the whole page, comes out empty).
 */
export class FailureLog {
  readonly failures: PassFailure[] = [];
  /** The passes running, the innermost last (the prepare passes of a fresh body run inside another pass). */
  readonly #running: PassName[] = [];
  /** The innermost pass the error being thrown came out of, until it is caught and recorded. */
  #thrower: PassName | null = null;

  /** Runs one pass; an error that comes out of it is put down to it, unless a pass inside it threw it. */
  during(pass: PassName, run: () => void): void {
    this.#running.push(pass);
    try {
      run();
    } catch (error) {
      this.#thrower ??= pass;
      throw error;
    } finally {
      this.#running.pop();
    }
  }

  /** `run`'s value, or null when it throws (linkedom gaps, absurd nesting): the failure is recorded. */
  attempt<T>(run: () => T): T | null {
    try {
      return run();
    } catch (error) {
      this.record(error);
      return null;
    }
  }

  /** Records an error caught by `attempt` or by the runner, under the pass it came out of. */
  record(error: unknown): void {
    const pass = this.#thrower ?? this.#running.at(-1);
    this.#thrower = null;
    // Outside every pass there is no page step to put it down to: a caller's mistake, not the page's.
    if (pass === undefined) throw error;
    this.failures.push({ pass, error: describe(error) });
  }
}

/** What every phase of one run shares: the page's URL, the switches, the failure log and the selectors' budget. */
export interface PipelineRun {
  readonly url: string;
  /** Whether a pass or rule is switched on. */
  on(name: SwitchName): boolean;
  /** `run`'s value, or null when it throws; the failure is recorded in `log`, under the running pass. */
  attempt<T>(run: () => T): T | null;
  readonly log: FailureLog;
  /** The steps the caller's selectors may take, every parse of the page together (prepare/selector-budget.ts). */
  readonly selectorBudget: MatchBudget;
}

/** A run of the pipeline on `url` with the passes and rules of `off` switched off. */
export function pipelineRun(
  url: string,
  off: ReadonlySet<SwitchName>,
  selectorBudget: MatchBudget = new MatchBudget(),
): PipelineRun {
  const log = new FailureLog();
  return { url, on: (name) => !off.has(name), attempt: (run) => log.attempt(run), log, selectorBudget };
}

/** The text statistics of a tree, cached until it changes. */
export interface TreeStats {
  /** Text statistics of the tree under `root` as it is now (cached until `changed`). */
  stats(root: DomElement): Map<DomElement, TextStats>;
  /** The tree changed: cached statistics are stale. */
  changed(): void;
}

/** What the read phase hands on: the page parsed, and what it declares. */
export interface ParsedPage {
  /** The HTML as parsed (after the input bounds). */
  readonly source: string;
  /** The words of `source` that passes look for before their walks (source-words.ts). */
  readonly words: SourceWords;
  /** Some start tag of `source` has an attribute name with a capital (input-bounds.ts). */
  readonly capitalNames: boolean;
  /** The class and id values of `source`'s start tags, a space between (input-bounds.ts). */
  readonly classes: string;
  readonly ids: string;
  readonly doc: DomDocument;
  readonly body: DomElement;
  readonly metadata: PageMetadata;
  /** The types the page declares: og:type, JSON-LD @type, microdata (declared-types.ts). */
  readonly declaredTypes: ReadonlySet<string>;
  readonly hints: PageHints;
  readonly offer: Offer | null;
  /** What the page says about itself (structured-data/), read when it declares any; null otherwise. */
  readonly structuredData: StructuredData | null;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The read phase's state: the parsed page as its passes build it, no document before the parse pass. */
export interface Reading extends Writable<Omit<ParsedPage, 'doc' | 'body'>>, PipelineRun, TreeStats {
  doc: DomDocument | null;
  body: DomElement | null;
}

/** The parsed page as every pass after the read phase sees it (the prepare phase's state). */
export interface PageContext extends ParsedPage, PipelineRun, TreeStats {
  /** The base that relative URLs resolve against (urls.ts): the base-url pass sets it. */
  base: string | null;
}

/** What the choose phase hands on: the stages' candidates and their ranking. */
export interface Choice {
  readability: Candidate | null;
  cleaned: Candidate | null;
  /** The product description inside the cleaned body (stage 0). */
  description: Candidate | null;
  /** Candidates in order of preference, the plain-text stage last. */
  ranked: RankedCandidate[];
  /** What the stage selector read (stage-features.ts); null before the rank pass. */
  features: StageFeatures | null;
  /** The page's kind as the stage selector guesses it ('other' until it has run). */
  pageType: PageType;
}

/** The choose phase's state: the page, the choice so far, and what its passes tell later ones. */
export interface Choosing extends PageContext, Choice {
  /** A stage to put first whatever the selector says (the training script's two runs). */
  readonly prefer: 'readability' | 'cleaned-body' | null;
  /** Readability may run: the page is within its size and depth caps. */
  readabilityAllowed: boolean;
  /** The product's declared description is in the de-noised page. */
  declaredInPage: boolean;
  /** The copy Readability reads: undefined before the chrome pass, null when it failed. */
  readabilityDoc: DomDocument | null | undefined;
  /** The chrome removal ran through on the body (stage 2 has something to read). */
  cleanable: boolean;
  /** The de-noised body again, from a fresh parse (the prepare passes rerun). */
  freshBody(): DomElement;
}

/** The clean phase's state: the candidate being cleaned (the plain-text stage is not). */
export interface Cleaning extends PageContext {
  readonly candidate: Candidate;
}

/** The write phase's state: the candidate being written and its Markdown so far. */
export interface Writing extends PageContext {
  readonly candidate: RankedCandidate;
  markdown: string;
  /** The de-noised body again, from a fresh parse (the plain-text stage). */
  freshBody(): DomElement;
}

/** The finish phase's state: the Markdown written. */
export interface Finishing extends PageContext {
  markdown: string;
}

/** Each phase's state, in the order the phases run. */
export interface PhaseStates {
  read: Reading;
  prepare: PageContext;
  choose: Choosing;
  clean: Cleaning;
  write: Writing;
  finish: Finishing;
}

export type Phase = keyof PhaseStates;

const NO_TEXT: TextStats = { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };

/** The statistics of `root` itself, or none. */
export function statsOf(page: Pick<TreeStats, 'stats'>, root: DomElement): TextStats {
  return page.stats(root).get(root) ?? NO_TEXT;
}

/** A candidate for `root` with its text measured as it is now. */
export function measure(
  page: Pick<TreeStats, 'stats'>,
  stage: Candidate['stage'],
  doc: DomDocument,
  root: DomElement,
): Candidate {
  const stats = statsOf(page, root);
  return { stage, doc, root, chars: stats.chars, nonLinkChars: stats.chars - stats.linkChars };
}

/** A stats cache: one computation per root until the tree changes. */
export function statsCache(): TreeStats {
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

/** The raw quantities behind the features, for the training script's fixed policies. */
export interface StageQuantities {
  pickChars: number;
  bodyChars: number;
  bodyNonLinkChars: number;
  itemChars: number;
  besideChars: number;
  product: boolean;
}

/** What the stage selector reads of a candidate (choose/stage-features.ts computes it). */
export interface StageFeatures {
  values: Float64Array;
  quantities: StageQuantities;
}
