/**
 * What the stage selector (stage-selector.ts) knows of a page and of its two main
 * candidates, Readability's pick and the cleaned body: the types the page declares, the
 * shape of its URL, the markup of comments, forms, prices and runs of items, and each
 * candidate's size, links, paragraphs and headings. Numbers only, in the order of
 * STAGE_FEATURES, counts on a log scale; the model's weights are learned over exactly
 * these (bench/train-selector.mjs), so a change here needs a retrained model.
 */

import type { DomElement } from '../dom.js';
import { escapeRegExp } from '../../../core/escape-reg-exp.js';
import { HEADING_TAGS, descendants, tagOf } from '../dom.js';
import { HEADING_LEVEL_MARK } from '../marks.js';
import type { Candidate, PageContext, StageFeatures } from '../page-context.js';
import { visibleChars } from '../text-stats.js';

export const STAGE_FEATURES = [
  // what the page declares (declared-types.ts)
  'declares-article',
  'declares-product',
  'declares-forum',
  'declares-listing',
  'declares-docs',
  'declares-service',
  'declares-website',
  // its URL
  'url-depth',
  'url-date',
  'url-numeric-id',
  'url-slug-words',
  'url-article-words',
  'url-forum-words',
  'url-product-words',
  'url-listing-words',
  'url-docs-words',
  'url-root',
  // its markup
  'article-tags',
  'comment-marks',
  'forms',
  'prices',
  'item-share',
  'beside-share',
  // the cleaned body
  'body-chars',
  'body-link-density',
  'body-paragraphs',
  'body-headings',
  'body-paragraph-share',
  'body-titles',
  // Readability's pick, and how it sits in the cleaned body
  'has-pick',
  'pick-chars',
  'pick-link-density',
  'pick-paragraphs',
  'pick-headings',
  'pick-paragraph-share',
  'pick-share',
  'pick-share-beside',
  'pick-vs-items',
  'pick-position',
  'pick-not-found',
  'pick-text-share',
  'pick-paragraph-count-share',
  'pick-after',
  'pick-has-title',
  'product-pick-share',
] as const;

export type StageFeature = (typeof STAGE_FEATURES)[number];

// Schema.org and Open Graph names (lower-cased, declared-types.ts) by the kind they declare.
const ARTICLE_TYPES = /^(?:og-article|og-blog|.*article|blogposting|blog|liveblogposting|report|review)$/;
const FORUM_TYPES = /^(?:discussionforumposting|qapage|question|answer|socialmediaposting|comment)$/;
const LISTING_TYPES = /^(?:collectionpage|itemlist|searchresultspage|offercatalog|og-product\.group)$/;
const DOCS_TYPES = /^(?:techarticle|apireference|softwaresourcecode|howto|course)$/;
const SERVICE_TYPES =
  /^(?:service|localbusiness|professionalservice|faqpage|contactpage|aboutpage|medicalbusiness|financialservice|legalservice|homeandconstructionbusiness)$/;

const URL_WORDS = {
  article:
    /(?:^|[/_.-])(?:news|blogs?|articles?|stor(?:y|ies)|posts?|opinion|columns?|editorial|features?)(?=$|[/_.-])/,
  forum:
    /(?:^|[/_.-])(?:forums?|threads?|topics?|community|discussions?|questions|answers|viewtopic|showthread|boards?|comments)(?=$|[/_.-])/,
  product: /(?:^|[/_.-])(?:products?|items?|dp|shop|store|buy|sku)(?=$|[/_.-])/,
  listing:
    /(?:^|[/_.-])(?:categor(?:y|ies)|tags?|search|collections?|lists?|archives?|browse|catalog(?:ue)?)(?=$|[/_.-])/,
  docs: /(?:^|[/_.-])(?:docs?|documentation|reference|api|guides?|manual|tutorials?|wiki|learn|help|kb|faq)(?=$|[/_.-])/,
};

const COMMENT_WORDS = /comment|reply|respond|disqus/gi;
const PRICE = /[$€£¥]\s?\d|\d\s?(?:€|EUR|USD)\b/g;
const SHAPE_TAGS: ReadonlySet<string> = new Set(['p', ...HEADING_TAGS, 'article']);
const PARAGRAPH: ReadonlySet<string> = new Set(['p']);
/** The pick is placed in the cleaned body by its first and last words, read from this much of its text. */
const PLACE_CHARS = 300;
const PLACE_WORDS = 8;

const log = (n: number): number => Math.log1p(Math.max(0, n));
const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);
/** Shares are capped: a pick many times the body's non-link text says no more than twice. */
const share = (a: number, b: number): number => Math.min(2, ratio(a, b));

function count(pattern: RegExp, text: string): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

interface Shape {
  paragraphs: number;
  paragraphChars: number;
  headings: number;
  titles: number;
  articles: number;
}

const NO_SHAPE: Shape = { paragraphs: 0, paragraphChars: 0, headings: 0, titles: 0, articles: 0 };

/**
 * The paragraphs with text of `root` and the characters inside them, its headings, `<h1>`s
 * and `<article>`s, in one walk; a paragraph inside another (linkedom keeps such invalid
 * nesting) counts once.
 */
function shape(root: DomElement): Shape {
  const out = { ...NO_SHAPE };
  for (const element of descendants(root, SHAPE_TAGS, PARAGRAPH)) {
    const tag = tagOf(element);
    if (tag === 'p') {
      const chars = visibleChars(element.textContent);
      if (chars === 0) continue;
      out.paragraphs++;
      out.paragraphChars += chars;
    } else if (tag === 'article') out.articles++;
    else {
      out.headings++;
      if (tag === 'h1') out.titles++;
    }
  }
  return out;
}

/** `words` as a pattern that matches them with any white space between. */
function wordsPattern(words: string[]): RegExp {
  return new RegExp(words.map(escapeRegExp).join('\\s+'), 'g');
}

/**
 * Where the pick's opening words sit in the cleaned body's text, and what share of that
 * text follows its closing words, 0 to 1; -1 when they are not there. The words are
 * matched across any white space, so neither text needs collapsing first.
 */
function place(pick: DomElement, bodyText: string): { start: number; after: number } {
  const text = pick.textContent ?? '';
  const opening = text.slice(0, PLACE_CHARS).trim().split(/\s+/).slice(0, PLACE_WORDS);
  if (opening[0] === '' || bodyText.length === 0) return { start: -1, after: -1 };
  const open = wordsPattern(opening).exec(bodyText);
  if (open === null) return { start: -1, after: -1 };
  const close = wordsPattern(text.slice(-PLACE_CHARS).trim().split(/\s+/).slice(-PLACE_WORDS));
  close.lastIndex = open.index;
  let end = -1;
  for (let m = close.exec(bodyText); m !== null; m = close.exec(bodyText)) {
    end = m.index + m[0].length;
    if (m[0].length === 0) break;
  }
  return { start: open.index / bodyText.length, after: end === -1 ? -1 : (bodyText.length - end) / bodyText.length };
}

function urlFeatures(url: string): number[] {
  let path = '';
  try {
    const parsed = new URL(url);
    path = decodeURIComponent(parsed.pathname).toLowerCase();
  } catch {
    path = '';
  }
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments.at(-1)?.replace(/\.[a-z0-9]{2,5}$/, '') ?? '';
  const date = /(?:^|\/)(?:19|20)\d\d\/(?:0?[1-9]|1[0-2])(?:\/|$)|(?:19|20)\d\d-[01]\d-[0-3]\d/.test(path) ? 1 : 0;
  const numericId = segments.some((s) => /\d{4,}/.test(s) && !/^(?:19|20)\d\d$/.test(s)) ? 1 : 0;
  return [
    log(segments.length),
    date,
    numericId,
    log(last.split(/[-_]+/).filter((w) => w !== '').length - 1),
    URL_WORDS.article.test(path) ? 1 : 0,
    URL_WORDS.forum.test(path) ? 1 : 0,
    URL_WORDS.product.test(path) ? 1 : 0,
    URL_WORDS.listing.test(path) ? 1 : 0,
    URL_WORDS.docs.test(path) ? 1 : 0,
    segments.length === 0 ? 1 : 0,
  ];
}

/**
 * The features of the page and of its candidates: `pick` Readability's (or null),
 * `cleaned` the cleaned body's, `besideChars` the cleaned body's non-link text that follows
 * the pick (beside-article.ts).
 */
export function stageFeatures(
  page: PageContext,
  pick: Candidate | null,
  cleaned: Candidate | null,
  besideChars: number,
): StageFeatures {
  const types = page.declaredTypes;
  const declares = (pattern: RegExp): number => ([...types].some((t) => pattern.test(t)) ? 1 : 0);
  // Sizes as the candidates were measured (candidates.ts); the trees have not changed since.
  const body = cleaned?.root ?? null;
  const bodyChars = cleaned?.chars ?? 0;
  const bodyNonLink = cleaned?.nonLinkChars ?? 0;
  const bodyShape = body === null ? NO_SHAPE : shape(body);
  const bodyText = body === null ? '' : (body.textContent ?? '');
  const items = cleaned?.itemChars ?? 0;

  const pickRoot = pick?.root ?? null;
  const pickChars = pick?.chars ?? 0;
  const pickNonLink = pick?.nonLinkChars ?? 0;
  const pickShape = pickRoot === null ? NO_SHAPE : shape(pickRoot);
  const where = pickRoot === null ? { start: -1, after: -1 } : place(pickRoot, bodyText);
  const product = page.hints.product;

  const values = [
    declares(ARTICLE_TYPES),
    product ? 1 : 0,
    declares(FORUM_TYPES),
    declares(LISTING_TYPES),
    declares(DOCS_TYPES),
    declares(SERVICE_TYPES),
    types.has('og-website') || types.has('website') ? 1 : 0,
    ...urlFeatures(page.url),
    log(bodyShape.articles),
    log(count(COMMENT_WORDS, page.classes) + count(COMMENT_WORDS, page.ids)),
    page.words.has('<form') ? 1 : 0,
    log(count(PRICE, bodyText)),
    share(items, bodyChars),
    share(besideChars, bodyNonLink),
    log(bodyChars),
    ratio(bodyChars - bodyNonLink, bodyChars),
    log(bodyShape.paragraphs),
    log(bodyShape.headings),
    ratio(bodyShape.paragraphChars, bodyChars),
    log(bodyShape.titles),
    pickRoot === null ? 0 : 1,
    log(pickChars),
    ratio(pickChars - pickNonLink, pickChars),
    log(pickShape.paragraphs),
    log(pickShape.headings),
    ratio(pickShape.paragraphChars, pickChars),
    share(pickChars, bodyNonLink),
    share(pickChars, bodyNonLink - besideChars),
    items > 0 ? share(pickChars, items) : 2,
    Math.max(0, where.start),
    pickRoot !== null && where.start === -1 ? 1 : 0,
    share(pickChars, bodyChars),
    share(pickShape.paragraphs, bodyShape.paragraphs),
    Math.max(0, where.after),
    // Readability renames the article's <h1>, and the level stays on as a mark (candidates.ts).
    pickRoot !== null && pickRoot.querySelector(`[${HEADING_LEVEL_MARK}]`) !== null ? 1 : 0,
    product ? share(pickChars, bodyNonLink) : 0,
  ];
  return {
    values: Float64Array.from(values),
    quantities: { pickChars, bodyChars, bodyNonLinkChars: bodyNonLink, itemChars: items, besideChars, product },
  };
}
