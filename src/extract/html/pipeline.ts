/**
 * HTML -> main-content Markdown: one list of passes run in order, after trafilatura's
 * `trafilatura_sequence`, in phases, each over its own typed state (page-context.ts):
 *   read     bound, parse, read what the page declares: the parsed page;
 *   prepare  rid the body of noise, record what later stages would lose;
 *   choose   build each stage's candidate and rank them (candidates.ts): the choice;
 *   clean    ready the candidate being written for Turndown;
 *   write    its Markdown (the next candidate when this one is empty);
 *   finish   what the page declares that the Markdown should show.
 * Every pass and rule has a name (switches.ts); `off` switches any of them off (the
 * ablation bench, bench/ablation-bench.mjs). Pure: never throws (a page that defeats the
 * parser comes back empty, with its metadata); what failed on the way comes back in
 * `failures`, each under its pass. docs/extraction.md, "The pipeline".
 */

import { removeBoilerplate, hasSectionHeader } from './choose/boilerplate.js';
import {
  cleanedBodyCandidate,
  productDescriptionCandidate,
  rankStages,
  readabilityCandidate,
  tooBigForReadability,
} from './choose/candidates.js';
import { dropCommentThreads, markBesideArticle } from './choose/beside-article.js';
import { commentsSection, readComments } from './choose/comments.js';
import { attachPictureCaptions } from './prepare/captions.js';
import { annotateCodeBlocks } from './prepare/code-blocks.js';
import { removeControlLabels } from './clean/control-labels.js';
import { mentions } from './choose/declared-description.js';
import type { DomDocument, DomElement } from './dom.js';
import { normalizeInlineCode } from './clean/inline-code.js';
import { boundHtml } from './read/input-bounds.js';
import { separateJoinedWords } from './prepare/separate-joined-words.js';
import { markMidLineStarts } from './clean/escape-line-starts.js';
import { dropEmptyInlines, emptyBlankBlocks, writeMarkdown } from './write/markdown.js';
import { HOLDS_THREAD_MARK, MARK_PREFIX, dropOwnMarks } from './marks.js';
import { normalizeMath } from './prepare/math.js';
import type { PageMetadata } from './read/metadata.js';
import { metaMap, readMetadata } from './read/metadata.js';
import { readDeclaredTypes } from './read/declared-types.js';
import { authorsOf, readStructuredData } from './read/structured-data/structured-data.js';
import type { StructuredData } from './read/structured-data/structured-data.js';
import { bylineAuthors } from './read/bylines.js';
import { removeNoise } from './prepare/noise.js';
import type {
  Candidate,
  Choosing,
  Finishing,
  PageContext,
  PassFailure,
  Phase,
  PhaseStates,
  PipelineRun,
  PlainTextCandidate,
  RankedCandidate,
  Reading,
  Stage,
  Writing,
} from './page-context.js';
import type { PageType } from '../../core/page-types.js';
import type { StageFeatures } from './page-context.js';
import { measure, pipelineRun, statsCache, statsOf } from './page-context.js';
import { bodyOf, parseDocument } from './read/parse.js';
import { dropPlaceholderText } from './prepare/placeholder-text.js';
import { plainText } from './write/plain-text.js';
import { withOffer } from './finish/product-offer.js';
import { readProductPage } from './read/product-page.js';
import { dropRepeatedBlocks } from './clean/repeated-blocks.js';
import { dropRepeatedRuns } from './write/repeated-runs.js';
import { sourceWords } from './read/source-words.js';
import type { PassName, SwitchName } from './switches.js';
import { RULES as RULE_NAMES } from './switches.js';
import { normalizeTables } from './clean/tables.js';
import { markTaskItems } from './prepare/task-lists.js';
import { linkDensity } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';
import { tidyMarkdown } from './write/tidy.js';
import { documentBaseUrl } from './urls.js';
import { dropMobileCopies } from './prepare/viewport-copies.js';
import type { FoundLinks } from './read/links.js';
import { collectLinks, linkTargets, markInContent } from './read/links.js';
import { keepOnlyMatching, removeMatching } from './prepare/selectors.js';
import { MatchBudget, SelectorBudgetSpent } from './prepare/selector-budget.js';
import type { PageControls, PageLink } from '../types.js';
import { boundWhiteSpaceRuns } from './clean/white-space-runs.js';

export type { Phase, PassFailure, PassName, SwitchName };

/** One pass: a step of a phase, over that phase's state (page-context.ts). */
export interface Pass<P extends Phase = Phase> {
  readonly name: PassName;
  readonly phase: P;
  /** Without it nothing comes out at all: not one of the SWITCHES the ablation measures. */
  readonly essential?: true;
  /** Whether the pass has anything to do on this page (always, when absent). */
  applies?(state: PhaseStates[P]): boolean;
  /** It adds, moves and removes no node and changes no text: the cached statistics stay valid. */
  readonly keepsTree?: true;
  run(state: PhaseStates[P]): void;
}

/** A pass of one phase or another: each written against its own phase's state. */
type PhasePass = { [P in Phase]: Pass<P> }[Phase];

const inPhase = <P extends Phase>(pass: Pass, phase: P): pass is Pass<P> => pass.phase === phase;

/** A copy of the document as it is now, for Readability to change; null when linkedom cannot copy it. */
const copyOf = (page: PageContext): DomDocument | null => page.attempt(() => page.doc.cloneNode(true) as DomDocument);

/** The candidate being written, unless it is the plain-text stage's, which writes its own way. */
const picked = (p: Writing): Candidate | null => (p.candidate.stage === 'plain-text' ? null : p.candidate);
const written = (p: Writing): boolean => picked(p) !== null;

const PLAIN_TEXT: PlainTextCandidate = { stage: 'plain-text' };

const PASSES: readonly PhasePass[] = [
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
      const doc = parseDocument(p.source, p.capitalNames);
      p.doc = doc;
      p.body = bodyOf(doc);
    },
  },
  {
    // Metadata and product facts are a bonus: a page whose head defeats the reader still has content.
    name: 'metadata',
    phase: 'read',
    keepsTree: true,
    run: (p) => {
      const doc = p.doc;
      if (doc === null) return;
      const metas = p.attempt(() => metaMap(doc));
      if (metas === null) return;
      p.metadata = p.attempt(() => readMetadata(doc, metas)) ?? {};
      // The authors: those its structured data names, else its byline's.
      if (p.words.has('ld+json') || p.words.has('itemscope') || p.words.has('typeof='))
        p.structuredData = p.attempt(() => readStructuredData(doc, metas, { pageUrl: p.url, words: p.words }));
      const declared = p.structuredData === null ? [] : (p.attempt(() => authorsOf(p.structuredData!)) ?? []);
      const authors = declared.length > 0 ? declared : (p.attempt(() => bylineAuthors(doc, metas)) ?? []);
      if (authors.length > 0) p.metadata.authors = authors;
      p.declaredTypes = p.attempt(() => readDeclaredTypes(p.source, metas)) ?? new Set();
      const product = p.attempt(() => readProductPage(doc, p.words, metas));
      if (product === null) return;
      p.hints = { product: true, declaredDescription: product.description ?? null };
      p.offer = product.offer ?? null;
    },
  },

  // prepare (again for a fresh body: freshBody below)
  { name: 'own-marks', phase: 'prepare', applies: (p) => p.words.has(MARK_PREFIX), run: (p) => dropOwnMarks(p.body) },
  // Before the noise goes: it takes MathML and MathJax's scripts with it; a formula the
  // conversion cannot read is no reason to lose the page.
  { name: 'math', phase: 'prepare', run: (p) => void p.attempt(() => normalizeMath(p.doc, p.body, p.words)) },
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
    run: (p) =>
      void (p.readabilityAllowed = !tooBigForReadability(
        p.body,
        THRESHOLDS.MAX_READABILITY_ELEMENTS,
        THRESHOLDS.MAX_READABILITY_DEPTH,
      )),
  },
  {
    // Before the chrome removal, which takes the footers comments put their author and date in.
    name: 'beside-article',
    phase: 'choose',
    // Marks only (attributes that no statistic reads).
    keepsTree: true,
    run: (p) => void p.attempt(() => markBesideArticle(p.body, p.stats(p.body))),
  },
  {
    // Looked for before the chrome removal, so that a page without it is not read again.
    name: 'declared-in-page',
    phase: 'choose',
    keepsTree: true,
    applies: (p) => p.hints.product && p.hints.declaredDescription !== null,
    run: (p) => {
      const declared = p.hints.declaredDescription;
      p.declaredInPage = declared !== null && p.attempt(() => mentions(p.body, declared)) === true;
    },
  },
  {
    // Readability's copy and the body lose the same chrome but for section headers (the
    // body keeps them): a page without any loses its chrome once, before the copy is made.
    name: 'chrome',
    phase: 'choose',
    run: (p) => {
      const options = { productPage: p.hints.product, on: p.on };
      const wanted = p.readabilityAllowed && p.on('readability');
      const separate = wanted && p.attempt(() => hasSectionHeader(p.body)) !== false;
      if (separate) {
        const copy = copyOf(p);
        const body = copy?.body ?? null;
        p.readabilityDoc =
          copy !== null && (body === null || p.attempt(() => removeBoilerplate(body, options)) !== null) ? copy : null;
      }
      p.cleanable =
        p.attempt(() => removeBoilerplate(p.body, { ...options, keepSectionHeaders: true, stats: p.stats(p.body) })) !==
        null;
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
      p.readability = copy === null ? null : p.attempt(() => readabilityCandidate(p, copy));
    },
  },
  {
    name: 'cleaned-body',
    phase: 'choose',
    applies: (p) => p.cleanable,
    run: (p) => void (p.cleaned = p.attempt(() => cleanedBodyCandidate(p))),
  },
  {
    name: 'product-description',
    phase: 'choose',
    applies: (p) => p.hints.product && p.cleaned !== null,
    run: (p) => {
      const cleaned = p.cleaned;
      if (cleaned !== null) p.description = p.attempt(() => productDescriptionCandidate(p, cleaned));
    },
  },
  {
    // A product page's named description first; the plain text of the body last.
    name: 'rank',
    phase: 'choose',
    essential: true,
    run: (p) =>
      void (p.ranked = [
        ...(p.description ? [p.description] : []),
        ...rankStages(p, p.readability, p.cleaned),
        PLAIN_TEXT,
      ]),
  },

  // clean (the candidate being written; the plain-text stage writes its own way)
  {
    // Readers' comments that follow the article are left out (Readability's copy lost them
    // before it ran); `include_comments` writes them in a section of their own.
    name: 'comments',
    phase: 'clean',
    applies: (p) => p.candidate.root.hasAttribute(HOLDS_THREAD_MARK),
    run: (p) => void dropCommentThreads(p.candidate.root),
  },
  { name: 'control-labels', phase: 'clean', run: (p) => removeControlLabels(p.candidate.root) },
  { name: 'repeated-blocks', phase: 'clean', run: (p) => dropRepeatedBlocks(p.candidate.root) },
  { name: 'inline-code', phase: 'clean', run: (p) => normalizeInlineCode(p.candidate.doc, p.candidate.root) },
  { name: 'empty-inlines', phase: 'clean', run: (p) => dropEmptyInlines(p.candidate.root, p.base) },
  { name: 'tables', phase: 'clean', run: (p) => normalizeTables(p.candidate.doc, p.candidate.root) },
  { name: 'white-space-runs', phase: 'clean', run: (p) => boundWhiteSpaceRuns(p.candidate.root) },
  { name: 'line-starts', phase: 'clean', run: (p) => markMidLineStarts(p.candidate.root) },
  // Output unchanged; Turndown's blank test is quadratic on chains of empty blocks (markdown.ts).
  { name: 'blank-blocks', phase: 'clean', run: (p) => emptyBlankBlocks(p.candidate.root) },

  // write
  {
    name: 'turndown',
    phase: 'write',
    essential: true,
    applies: written,
    run: (p) => {
      const pick = picked(p);
      if (pick !== null) p.markdown = writeMarkdown(pick.root, p.base);
    },
  },
  {
    // The whole de-noised body as text, unless it is mostly link text: an app shell's menus
    // and footer.
    name: 'plain-text',
    phase: 'write',
    applies: (p) => p.candidate.stage === 'plain-text',
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
    applies: (p) => written(p) && p.candidate.stage !== 'readability' && p.markdown !== '',
    run: (p) => void (p.markdown = p.attempt(() => dropRepeatedRuns(p.markdown)) ?? p.markdown),
  },

  // finish
  {
    // A product page's declared price, when the content does not show it (product-offer.ts).
    name: 'offer',
    phase: 'finish',
    applies: (p) => p.offer !== null && p.markdown !== '',
    run: (p) => void (p.markdown = p.attempt(() => withOffer(p.markdown, p.offer)) ?? p.markdown),
  },
];

/** The passes in order, as data: one under each name of switches.ts' PASSES. */
export const PIPELINE: readonly Pass[] = PASSES;

/** Rules inside passes, switchable by name like the passes themselves (switches.ts). */
export const RULES: readonly SwitchName[] = RULE_NAMES;

/** What the ablation switches off one at a time: every pass but the essential ones, and every rule. */
export const SWITCHES: readonly SwitchName[] = [
  ...PIPELINE.filter((pass) => pass.essential !== true).map((pass) => pass.name),
  ...RULES,
];

export interface PipelineOptions {
  /** Passes and rules to switch off, by name (PIPELINE, RULES); an unknown name throws (a misspelling). */
  off?: Iterable<SwitchName>;
  /** Put this stage first whatever the selector says (bench/train-selector.mjs). */
  prefer?: 'readability' | 'cleaned-body';
  /** The caller's page controls (links, selectors): none when absent, and nothing computed for them. */
  controls?: PageControls;
  /** The steps the selectors may take (default SELECTOR_MATCH_STEPS; tests give fewer). */
  selectorSteps?: number;
}

export interface PipelineResult {
  markdown: string;
  stage: Stage;
  /** The page's kind as the stage selector guesses it. */
  pageType: PageType;
  metadata: PageMetadata;
  /** What the stage selector read; null when the page never reached the rank pass. */
  features: StageFeatures | null;
  /** What failed on the way, each under its pass; empty on almost every page. */
  failures: PassFailure[];
  /** The page's links (controls.includeLinks only). */
  links?: { list: PageLink[]; truncated: boolean };
  /** The content is what controls.includeSelectors matched: no stage was chosen. */
  fromSelectors?: true;
  /** What the page says about itself (controls.includeStructuredData only). */
  structuredData?: StructuredData;
}

/** Runs the passes of `phase` that are on and apply to `state`, in order. */
function runPhase<P extends Phase>(phase: P, state: PhaseStates[P]): void {
  for (const pass of PIPELINE) {
    if (!inPhase(pass, phase) || !state.on(pass.name) || (pass.applies !== undefined && !pass.applies(state))) continue;
    state.log.during(pass.name, () => pass.run(state));
    if (pass.keepsTree !== true) state.changed();
  }
}

/** The read phase's state before its first pass: the page as given, nothing read. */
function newReading(html: string, run: PipelineRun): Reading {
  return {
    ...run,
    ...statsCache(),
    source: html,
    words: sourceWords(''),
    capitalNames: false,
    classes: '',
    ids: '',
    doc: null,
    body: null,
    metadata: {},
    declaredTypes: new Set(),
    hints: { product: false, declaredDescription: null },
    offer: null,
    structuredData: null,
  };
}

/** The parsed page the read phase hands on; null when it parsed nothing (the parse pass off). */
function parsedPage(reading: Reading): PageContext | null {
  const { doc, body } = reading;
  return doc === null || body === null ? null : { ...reading, doc, body, base: null };
}

/** The de-noised body again, from a fresh parse of the page (the prepare passes rerun on it). */
function freshBody(page: PageContext, exclude: readonly string[]): DomElement {
  const doc = parseDocument(page.source, page.capitalNames);
  const fresh: PageContext = { ...page, ...statsCache(), doc, body: bodyOf(doc) };
  if (exclude.length > 0) page.attempt(() => removeMatching(fresh.body, exclude, page.selectorBudget));
  runPhase('prepare', fresh);
  return fresh.body;
}

/** The choose phase's state before its first pass. */
function newChoosing(page: PageContext, prefer: Choosing['prefer'], exclude: readonly string[]): Choosing {
  return {
    ...page,
    prefer,
    readabilityAllowed: true,
    declaredInPage: false,
    readabilityDoc: undefined,
    cleanable: true,
    readability: null,
    cleaned: null,
    description: null,
    ranked: [],
    features: null,
    pageType: 'other',
    freshBody: () => freshBody(page, exclude),
  };
}

/** The clean and write phases on one candidate: its Markdown. */
function write(page: PageContext, candidate: RankedCandidate, exclude: readonly string[] = []): string {
  if (candidate.stage !== 'plain-text') runPhase('clean', { ...page, candidate });
  const writing: Writing = { ...page, candidate, markdown: '', freshBody: () => freshBody(page, exclude) };
  runPhase('write', writing);
  return writing.markdown;
}

/**
 * The caller's selected elements as the content (controls.includeSelectors): written as
 * the cleaned-body stage writes the body, nothing ranked, nothing added (no product offer,
 * no repeated run dropped: the caller chose every word).
 */
function writeSelection(page: PageContext): string {
  const candidate = measure(page, 'cleaned-body', page.doc, page.body);
  if (candidate.chars === 0) return '';
  try {
    return write(page, candidate);
  } catch (error) {
    page.log.record(error);
    return '';
  }
}

/** The links `found`, each told whether the element written (`root`; the de-noised body for plain text) holds it. */
function linksOf(page: PageContext, found: FoundLinks | null, root: DomElement | null): PipelineResult['links'] {
  if (found === null) return { list: [], truncated: false };
  const inContent =
    root === null ? new Set<string>() : controlled(() => linkTargets(root, page.base), new Set<string>());
  return { list: markInContent(found, inContent), truncated: found.truncated };
}

/** Runs the pipeline on one page: `html` decoded, `url` the page's (for relative links). */
export function runPipeline(html: string, url: string, options: PipelineOptions = {}): PipelineResult {
  const controls = options.controls ?? {};
  const include = controls.includeSelectors ?? [];
  const exclude = controls.excludeSelectors ?? [];
  // The caller's selection is written as it stands: no offer added, no repeated run dropped.
  const off = new Set(options.off ?? []);
  // Scripts (the benches) name switches from their command line: a misspelt one must not be ignored.
  for (const name of off) if (!KNOWN_SWITCHES.has(name)) throw new Error(`no pass or rule is named "${name}"`);
  if (include.length > 0) for (const name of SELECTION_OFF) off.add(name);
  const run = pipelineRun(url, off, new MatchBudget(options.selectorSteps));
  const reading = newReading(typeof html === 'string' ? html : String(html ?? ''), run);
  let choice: Choosing | null = null;
  let links: PipelineResult['links'];
  const result = (markdown: string, stage: Stage, pageType: PageType): PipelineResult => {
    // Selectors past their budget fail the page, wherever a step let the error go by.
    const spent = run.selectorBudget.failure;
    if (spent !== undefined) throw spent;
    return {
      markdown,
      stage,
      metadata: reading.metadata,
      pageType,
      features: choice?.features ?? null,
      failures: run.log.failures,
      ...(controls.includeLinks === true ? { links: links ?? { list: [], truncated: false } } : {}),
      ...(include.length > 0 ? { fromSelectors: true as const } : {}),
      ...(controls.includeStructuredData === true
        ? { structuredData: reading.structuredData ?? noStructuredData() }
        : {}),
    };
  };
  try {
    runPhase('read', reading);
    // Asked for, it is read even from a page whose source declared none (Open Graph cards).
    const parsed = reading.doc;
    if (controls.includeStructuredData === true && reading.structuredData === null && parsed !== null)
      reading.structuredData = controlled(
        () => readStructuredData(parsed, metaMap(parsed), { pageUrl: url, words: reading.words }),
        null,
      );
    const page = parsedPage(reading);
    if (page === null) return result('', 'empty', 'other');
    // Every link of the page, before any pass or selector takes a part of it away.
    const found =
      controls.includeLinks === true
        ? controlled(() => collectLinks(page.body, documentBaseUrl(page.doc, url), url), null)
        : null;
    if (exclude.length > 0) controlled(() => removeMatching(page.body, exclude, page.selectorBudget), undefined);
    if (include.length > 0) {
      // Nothing matched: an empty body, which the caller's empty_content names.
      if (controlled(() => keepOnlyMatching(page.body, include, page.selectorBudget), 0) === 0)
        page.body.textContent = '';
      runPhase('prepare', page);
      const markdown = writeSelection(page);
      if (found !== null) links = linksOf(page, found, page.body);
      return result(markdown, markdown === '' ? 'empty' : 'cleaned-body', 'other');
    }
    runPhase('prepare', page);
    choice = newChoosing(page, options.prefer ?? null, exclude);
    runPhase('choose', choice);
    let markdown = '';
    let stage: Stage = 'empty';
    let winner: RankedCandidate | null = null;
    for (const candidate of choice.ranked) {
      if (candidate.stage !== 'plain-text' && candidate.chars === 0) continue;
      try {
        markdown = write(page, candidate, exclude);
      } catch (error) {
        run.log.record(error);
        markdown = '';
      }
      if (markdown !== '') {
        stage = candidate.stage;
        winner = candidate;
        break;
      }
    }
    const finishing: Finishing = { ...page, markdown };
    runPhase('finish', finishing);
    if (controls.includeComments === true && finishing.markdown !== '') {
      // Read from a body of their own: the chrome removal took their authors' footers.
      const section = controlled(() => {
        const fresh = freshBody(page, exclude);
        return commentsSection(readComments(fresh.ownerDocument!, fresh, page.base));
      }, '');
      if (section !== '') finishing.markdown = `${finishing.markdown}\n\n${section}`;
    }
    if (found !== null) {
      const root =
        winner === null
          ? null
          : winner.stage === 'plain-text'
            ? controlled(() => freshBody(page, exclude), null)
            : winner.root;
      links = linksOf(page, found, root);
    }
    // A page that gave no text is of no kind the selector could tell.
    if (finishing.markdown === '') return result('', 'empty', 'other');
    return result(finishing.markdown, stage, choice.pageType);
  } catch (error) {
    run.log.record(error);
    return result('', 'empty', 'other');
  }
}

/** A page that declares nothing about itself (or defeated the parser). */
function noStructuredData(): StructuredData {
  return { items: [] };
}

/**
 * A step of the caller's page controls, which runs outside every pass (they are asked for,
 * not heuristics to switch off): what it cannot do on a page (a linkedom gap) shows in the
 * answer itself (no links, an empty selection and its empty_content), not as a pass failure.
 */
function controlled<T>(step: () => T, fallback: T): T {
  try {
    return step();
  } catch (error) {
    // Past the selectors' budget the page fails: it is no gap to work around.
    if (error instanceof SelectorBudgetSpent) throw error;
    return fallback;
  }
}

const KNOWN_SWITCHES: ReadonlySet<string> = new Set<string>([...PIPELINE.map((pass) => pass.name), ...RULES]);

/** Passes that change what the caller selected (controls.includeSelectors): off for a selection. */
const SELECTION_OFF: readonly PassName[] = ['repeated-runs', 'offer'];

/**
 * Markdown of `root` as the clean and write passes make it of a stage's pick (the
 * fragment tests' converter): no stage chosen, no repeated runs dropped.
 */
export function writeCandidate(doc: DomDocument, root: DomElement, base: string | null): string {
  const page: PageContext = {
    ...pipelineRun(base ?? '', new Set()),
    ...statsCache(),
    source: '',
    words: sourceWords(''),
    capitalNames: false,
    classes: '',
    ids: '',
    doc,
    body: root,
    metadata: {},
    declaredTypes: new Set(),
    hints: { product: false, declaredDescription: null },
    offer: null,
    structuredData: null,
    base,
  };
  return write(page, { stage: 'readability', doc, root, chars: 1, nonLinkChars: 1 });
}
