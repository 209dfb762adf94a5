/**
 * HTML -> main-content Markdown: one list of passes run in order over one page context
 * (page-context.ts), after trafilatura's `trafilatura_sequence`, in phases:
 *   read     bound, parse, read what the page declares;
 *   prepare  rid the body of noise, record what later stages would lose;
 *   choose   build each stage's candidate and rank them (candidates.ts);
 *   clean    ready the candidate being written for Turndown;
 *   write    its Markdown (the next candidate when this one is empty);
 *   finish   what the page declares that the Markdown should show.
 * Every pass and rule has a name; `off` switches any of them off (the ablation bench,
 * bench/ablation-bench.mjs). Pure: never throws (a page that defeats the parser comes back
 * empty, with its metadata). docs/extraction.md, "The pipeline".
 */

import { removeBoilerplate, hasSectionHeader } from './boilerplate.js';
import { cleanedBodyCandidate, productDescriptionCandidate, rankStages, readabilityCandidate, tooBigForReadability } from './candidates.js';
import { markBesideArticle } from './beside-article.js';
import { attachPictureCaptions } from './captions.js';
import { annotateCodeBlocks } from './code-blocks.js';
import { removeControlLabels } from './control-labels.js';
import { mentions } from './declared-description.js';
import type { DomDocument, DomElement } from './dom.js';
import { normalizeInlineCode } from './inline-code.js';
import { boundHtml } from './input-bounds.js';
import { separateJoinedWords } from './joined-words.js';
import { markMidLineStarts } from './line-starts.js';
import { dropEmptyInlines, emptyBlankBlocks, writeMarkdown } from './markdown.js';
import { MARK_PREFIX, dropOwnMarks } from './marks.js';
import { normalizeMath } from './math.js';
import { metaMap, readMetadata } from './metadata.js';
import { readDeclaredTypes } from './declared-types.js';
import { removeNoise } from './noise.js';
import type { Candidate, PageContext, PageHints, Stage } from './page-context.js';
import type { PageType } from '../../core/page-types.js';
import type { StageFeatures } from './stage-features.js';
import { attempt, statsCache, statsOf } from './page-context.js';
import { bodyOf, parseDocument } from './parse.js';
import { dropPlaceholderText } from './placeholder-text.js';
import { plainText } from './plain-text.js';
import { withOffer } from './product-offer.js';
import { readProductPage } from './product-page.js';
import { dropRepeatedBlocks } from './repeated-blocks.js';
import { dropRepeatedRuns } from './repeated-runs.js';
import { sourceWords } from './source-words.js';
import { normalizeTables } from './tables.js';
import { markTaskItems } from './task-lists.js';
import { linkDensity } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';
import { tidyMarkdown } from './tidy.js';
import { documentBaseUrl } from './urls.js';
import { dropMobileCopies } from './viewport-copies.js';
import { boundWhiteSpaceRuns } from './white-space-runs.js';

export type Phase = 'read' | 'prepare' | 'choose' | 'clean' | 'write' | 'finish';

export interface Pass {
  name: string;
  phase: Phase;
  /** Without it nothing comes out at all: not one of the SWITCHES the ablation measures. */
  essential?: true;
  /** Whether the pass has anything to do on this page (always, when absent). */
  applies?: (page: PageContext) => boolean;
  /** It adds, moves and removes no node and changes no text: the cached statistics stay valid. */
  keepsTree?: true;
  run: (page: PageContext) => void;
}

/** The candidate being cleaned or written (set by the runner for those phases). */
function current(page: PageContext): { doc: DomDocument; root: DomElement } {
  const { doc, root } = page.current!;
  return { doc, root: root! };
}

/** A copy of the document as it is now, for Readability to change; null when linkedom cannot copy it. */
const copyOf = (page: PageContext): DomDocument | null => attempt(() => page.doc.cloneNode(true) as DomDocument);

const written = (page: PageContext): boolean => page.current !== null && page.current.stage !== 'plain-text';

export const PIPELINE: readonly Pass[] = [
  // read
  {
    name: 'bounds',
    phase: 'read',
    essential: true,
    run: (p) => {
      const bounded = boundHtml(p.source);
      p.source = bounded.html;
      ({ capitalNames: p.capitalNames, classes: p.classes, ids: p.ids } = bounded.shape);
      p.words = sourceWords(p.source);
    },
  },
  {
    name: 'parse',
    phase: 'read',
    essential: true,
    run: (p) => {
      p.doc = parseDocument(p.source, p.capitalNames);
      p.body = bodyOf(p.doc);
    },
  },
  {
    // Metadata and product facts are a bonus: a page whose head defeats the reader still has content.
    name: 'metadata',
    phase: 'read',
    keepsTree: true,
    run: (p) => {
      const metas = attempt(() => metaMap(p.doc));
      if (metas === null) return;
      p.metadata = attempt(() => readMetadata(p.doc, metas)) ?? {};
      p.declaredTypes = attempt(() => readDeclaredTypes(p.source, metas)) ?? new Set();
      const product = attempt(() => readProductPage(p.doc, p.words, metas));
      if (product === null) return;
      p.hints = { product: true, declaredDescription: product.description ?? null };
      p.offer = product.offer ?? null;
    },
  },

  // prepare (again for a fresh body: PageContext.freshBody)
  { name: 'own-marks', phase: 'prepare', applies: (p) => p.words.has(MARK_PREFIX), run: (p) => dropOwnMarks(p.body) },
  // Before the noise goes: it takes MathML and MathJax's scripts with it; a formula the
  // conversion cannot read is no reason to lose the page.
  { name: 'math', phase: 'prepare', run: (p) => void attempt(() => normalizeMath(p.doc, p.body, p.words)) },
  // ... and takes the checkboxes of task lists with the form controls.
  { name: 'task-lists', phase: 'prepare', run: (p) => markTaskItems(p.doc, p.body, p.words) },
  { name: 'noise', phase: 'prepare', run: (p) => removeNoise(p.body, p.words) },
  // After the noise: what a page hides outright is gone, and is no twin to judge by.
  { name: 'viewport-copies', phase: 'prepare', run: (p) => dropMobileCopies(p.body, p.classes) },
  { name: 'placeholder-text', phase: 'prepare', run: (p) => dropPlaceholderText(p.doc, p.body, p.words) },
  { name: 'code-languages', phase: 'prepare', run: (p) => annotateCodeBlocks(p.doc, p.body) },
  { name: 'picture-captions', phase: 'prepare', run: (p) => attachPictureCaptions(p.body, p) },
  { name: 'joined-words', phase: 'prepare', run: (p) => separateJoinedWords(p.body) },
  // After the noise: a `<base>` left in the body is gone with it.
  { name: 'base-url', phase: 'prepare', run: (p) => void (p.base = documentBaseUrl(p.doc, p.url)) },

  // choose
  {
    // (Readability's own cap, maxElemsToParse, counts getElementsByTagName('*'), which finds nothing in linkedom.)
    name: 'readability-size-cap',
    phase: 'choose',
    keepsTree: true,
    run: (p) => void (p.readabilityAllowed = !tooBigForReadability(p.body, THRESHOLDS.MAX_READABILITY_ELEMENTS, THRESHOLDS.MAX_READABILITY_DEPTH)),
  },
  {
    // Before the chrome removal, which takes the footers comments put their author and date in.
    name: 'beside-article',
    phase: 'choose',
    // Marks only (attributes that no statistic reads).
    keepsTree: true,
    run: (p) => void attempt(() => markBesideArticle(p.body, p.stats(p.body))),
  },
  {
    // Looked for before the chrome removal, so that a page without it is not read again.
    name: 'declared-in-page',
    phase: 'choose',
    keepsTree: true,
    applies: (p) => p.hints.product && p.hints.declaredDescription !== null,
    run: (p) => void (p.declaredInPage = attempt(() => mentions(p.body, p.hints.declaredDescription!)) === true),
  },
  {
    // Readability's copy and the body lose the same chrome but for section headers (the
    // body keeps them): a page without any loses its chrome once, before the copy is made.
    name: 'chrome',
    phase: 'choose',
    run: (p) => {
      const options = { productPage: p.hints.product, on: p.on };
      const wanted = p.readabilityAllowed && p.on('readability');
      const separate = wanted && attempt(() => hasSectionHeader(p.body)) !== false;
      if (separate) {
        const copy = copyOf(p);
        const body = copy?.body ?? null;
        p.readabilityDoc = copy !== null && (body === null || attempt(() => removeBoilerplate(body, options)) !== null) ? copy : null;
      }
      p.cleanable = attempt(() => removeBoilerplate(p.body, { ...options, keepSectionHeaders: true, stats: p.stats(p.body) })) !== null;
      p.changed();
      if (!separate) p.readabilityDoc = wanted && p.cleanable ? copyOf(p) : null;
    },
  },
  {
    name: 'readability',
    phase: 'choose',
    applies: (p) => p.readabilityAllowed && p.readabilityDoc !== null,
    run: (p) => {
      // Without the chrome pass, Readability reads a copy of the de-noised document.
      const copy = p.readabilityDoc ?? copyOf(p);
      p.readability = copy === null ? null : attempt(() => readabilityCandidate(p, copy));
    },
  },
  { name: 'cleaned-body', phase: 'choose', applies: (p) => p.cleanable, run: (p) => void (p.cleaned = attempt(() => cleanedBodyCandidate(p))) },
  {
    name: 'product-description',
    phase: 'choose',
    applies: (p) => p.hints.product && p.cleaned !== null,
    run: (p) => void (p.description = attempt(() => productDescriptionCandidate(p, p.cleaned!))),
  },
  {
    // A product page's named description first; the plain text of the body last.
    name: 'rank',
    phase: 'choose',
    essential: true,
    run: (p) => {
      const plain: Candidate = { stage: 'plain-text', doc: p.doc, root: null, chars: 0, nonLinkChars: 0 };
      p.ranked = [...(p.description ? [p.description] : []), ...rankStages(p, p.readability, p.cleaned), plain];
    },
  },

  // clean (the candidate being written; the plain-text stage writes its own way)
  { name: 'control-labels', phase: 'clean', applies: written, run: (p) => removeControlLabels(current(p).root) },
  { name: 'repeated-blocks', phase: 'clean', applies: written, run: (p) => dropRepeatedBlocks(current(p).root) },
  { name: 'inline-code', phase: 'clean', applies: written, run: (p) => normalizeInlineCode(current(p).doc, current(p).root) },
  { name: 'empty-inlines', phase: 'clean', applies: written, run: (p) => dropEmptyInlines(current(p).root, p.base) },
  { name: 'tables', phase: 'clean', applies: written, run: (p) => normalizeTables(current(p).doc, current(p).root) },
  { name: 'white-space-runs', phase: 'clean', applies: written, run: (p) => boundWhiteSpaceRuns(current(p).root) },
  { name: 'line-starts', phase: 'clean', applies: written, run: (p) => markMidLineStarts(current(p).root) },
  // Output unchanged; Turndown's blank test is quadratic on chains of empty blocks (markdown.ts).
  { name: 'blank-blocks', phase: 'clean', applies: written, run: (p) => emptyBlankBlocks(current(p).root) },

  // write
  { name: 'turndown', phase: 'write', essential: true, applies: written, run: (p) => void (p.markdown = writeMarkdown(current(p).root, p.base)) },
  {
    // The whole de-noised body as text, unless it is mostly link text: an app shell's menus
    // and footer.
    name: 'plain-text',
    phase: 'write',
    applies: (p) => p.current?.stage === 'plain-text',
    run: (p) => {
      const fresh = p.freshBody();
      const shell = p.on('plain-text-links') && linkDensity(statsOf(p, fresh)) > THRESHOLDS.MAX_PLAIN_TEXT_LINK_DENSITY;
      p.markdown = shell ? '' : plainText(fresh);
    },
  },
  { name: 'tidy', phase: 'write', applies: written, run: (p) => void (p.markdown = tidyMarkdown(p.markdown)) },
  {
    // Stages 2 and 0 keep the whole page, with the copies it holds of its own text.
    name: 'repeated-runs',
    phase: 'write',
    applies: (p) => written(p) && p.current!.stage !== 'readability' && p.markdown !== '',
    run: (p) => void (p.markdown = attempt(() => dropRepeatedRuns(p.markdown)) ?? p.markdown),
  },

  // finish
  {
    // A product page's declared price, when the content does not show it (product-offer.ts).
    name: 'offer',
    phase: 'finish',
    applies: (p) => p.offer !== null && p.markdown !== '',
    run: (p) => void (p.markdown = attempt(() => withOffer(p.markdown, p.offer)) ?? p.markdown),
  },
];

/** Rules inside passes, switchable by name like the passes themselves. */
export const RULES: readonly string[] = [
  'chrome-tags',
  'chrome-words',
  'related-sections',
  'readability-patches',
  'comment-threads',
  'before-title',
  'listing-run',
  'beside-article-share',
  'stage-selector',
  'plain-text-links',
];

/** What the ablation switches off one at a time: every pass but the essential ones, and every rule. */
export const SWITCHES: readonly string[] = [...PIPELINE.filter((pass) => pass.essential !== true).map((pass) => pass.name), ...RULES];

export interface PipelineOptions {
  /** Passes and rules to switch off, by name (PIPELINE, RULES). */
  off?: Iterable<string>;
  /** Put this stage first whatever the selector says (bench/train-selector.mjs). */
  prefer?: 'readability' | 'cleaned-body';
}

export interface PipelineResult {
  markdown: string;
  stage: Stage;
  /** The page's kind as the stage selector guesses it. */
  pageType: PageType;
  metadata: PageContext['metadata'];
  /** What the stage selector read; null when the page never reached the rank pass. */
  features: StageFeatures | null;
}

function runPhase(page: PageContext, phase: Phase): void {
  for (const pass of PIPELINE) {
    if (pass.phase !== phase || !page.on(pass.name) || (pass.applies !== undefined && !pass.applies(page))) continue;
    pass.run(page);
    if (pass.keepsTree !== true) page.changed();
  }
}

function newContext(html: string, url: string, off: ReadonlySet<string>, prefer: PageContext['prefer'] = null): PageContext {
  const hints: PageHints = { product: false, declaredDescription: null };
  const page: PageContext = {
    url,
    off,
    source: html,
    words: sourceWords(''),
    capitalNames: false,
    classes: '',
    ids: '',
    doc: undefined as unknown as DomDocument,
    body: undefined as unknown as DomElement,
    base: null,
    metadata: {},
    declaredTypes: new Set(),
    hints,
    offer: null,
    readabilityAllowed: true,
    declaredInPage: false,
    readabilityDoc: undefined,
    cleanable: true,
    readability: null,
    cleaned: null,
    description: null,
    ranked: [],
    pageType: 'other',
    features: null,
    prefer,
    current: null,
    markdown: '',
    stage: 'empty',
    on: (name) => !off.has(name),
    ...statsCache(),
    freshBody: () => {
      const fresh: PageContext = { ...page, ...statsCache() };
      fresh.doc = parseDocument(page.source, page.capitalNames);
      fresh.body = bodyOf(fresh.doc);
      runPhase(fresh, 'prepare');
      return fresh.body;
    },
  };
  return page;
}

/** Runs the pipeline on one page: `html` decoded, `url` the page's (for relative links). */
export function runPipeline(html: string, url: string, options: PipelineOptions = {}): PipelineResult {
  const page = newContext(typeof html === 'string' ? html : String(html ?? ''), url, new Set(options.off ?? []), options.prefer ?? null);
  try {
    for (const phase of ['read', 'prepare', 'choose'] as const) runPhase(page, phase);
    for (const candidate of page.ranked) {
      if (candidate.root !== null && candidate.chars === 0) continue;
      page.current = candidate;
      page.markdown = '';
      try {
        runPhase(page, 'clean');
        runPhase(page, 'write');
      } catch {
        page.markdown = '';
      }
      if (page.markdown !== '') {
        page.stage = candidate.stage;
        break;
      }
    }
    runPhase(page, 'finish');
    // A page that gave no text is of no kind the selector could tell.
    const empty = page.markdown === '';
    return { markdown: page.markdown, stage: empty ? 'empty' : page.stage, metadata: page.metadata, pageType: empty ? 'other' : page.pageType, features: page.features };
  } catch {
    return { markdown: '', stage: 'empty', metadata: page.metadata, pageType: 'other', features: page.features };
  }
}

/**
 * Markdown of `root` as the clean and write passes make it of a stage's pick (the
 * fragment tests' converter): no stage chosen, no repeated runs dropped.
 */
export function writeCandidate(doc: DomDocument, root: DomElement, base: string | null): string {
  const page = newContext('', base ?? '', new Set());
  page.doc = doc;
  page.body = root;
  page.base = base;
  page.current = { stage: 'readability', doc, root, chars: 1, nonLinkChars: 1 };
  runPhase(page, 'clean');
  runPhase(page, 'write');
  return page.markdown;
}
