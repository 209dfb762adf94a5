/**
 * What a page holds beside its article: readers' comment threads and teasers (links to
 * other pages, each opening with its headline). Both inflate the cleaned body (stage 2)
 * with text that is not the article: a short story over a long thread, measured whole,
 * reads as the thread. What is found here feeds the stage selector (its `beside-share`
 * feature, choose/stage-features.ts), which weighs the stages with it. Only what FOLLOWS an article
 * counts as beside it (comments come after what they discuss): at least MIN_ARTICLE_CHARS
 * characters of other text, not link text, come before it in document order. A forum
 * topic whose first post is an item of the run has none; nor has a page of comments.
 *
 * A COMMENT THREAD is found by converging signals, not by one class name: a run of at least
 * MIN_THREAD_ITEMS sibling elements of one tag, most of them (MIN_POST_SHARE) posts, each
 * carrying at least two of an author (a class word such as `author`, `vcard`,
 * `username`; a `<cite>`; a link to a profile; an avatar), a time (a `<time>`, a date
 * word, a date or "2 days ago" in a short text or a tooltip) and a reply control ("Reply",
 * "Quote", a `replytocom=` link); plus one more sign: a word of discussion (`comment`,
 * `reply`, `discussion`, `respond`, `disqus` ...) on the run, above it or on most posts,
 * a reply control on most posts, replies nested in the posts, or a heading that announces
 * them ("14 comments", "Responses to ..."). Generated class names (`sc-3fa1b`) give the
 * same thread by its posts and reply links. A run is no thread when a post of the same
 * make (an author or time written in an element of the same tag and classes) stands
 * outside it: a forum's or a Q&A site's opening post, whose replies are the content.
 *
 * A TEASER is an item of a run of at least MIN_TEASERS alike siblings (same tag and
 * classes) that opens with a headline link (at least MIN_HEADLINE_CHARS characters, after
 * at most MAX_KICKER_CHARS of other text): a rail of other stories, a "more from" list.
 *
 * Both are marked on the de-noised body before the chrome removal (markBesideArticle), which
 * takes the `<footer>` that comment templates put their author and date in. The
 * pipeline then drops the threads that follow an article from Readability's copy
 * (dropCommentThreads) and leaves out of the recall rescue what follows the article in the
 * cleaned body (textBesideArticle).
 *
 * Why: docs/extraction.md, "What follows an article"; the figures that chose the thresholds:
 * docs/extraction-history.md, "4. Choosing a stage" and "Thresholds".
 */

import type { DomElement } from '../dom.js';
import {
  TEXT_NODE,
  childElements,
  classAndId,
  descendants,
  headingLevel,
  isElement,
  nextInTree,
  normalizeSpace,
  tagOf,
  walk,
} from '../dom.js';
import type { TextStats } from '../text-stats.js';
import { signature } from './listing-items.js';
import { HOLDS_THREAD_MARK, TEASER_MARK, THREAD_MARK } from '../marks.js';
import { computeTextStats, visibleChars } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

const AUTHOR = 1;
const TIME = 2;
const REPLY = 4;

/** The words of a class list or id (`names`), split at `-`, `_`, white space and camel case, lower-cased. */
function words(names: string): string[] {
  return names
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((w) => w !== '');
}

const THREAD_WORD =
  /^(?:comments?|comment(?:list|s?list|area|section|thread|tree|stream)|repl(?:y|ies)|discussions?|disqus|dsq|respond|responses)$/;
/**
 * Words of an author's name or picture, and of a date. Not `name` or `published`: content
 * systems write them on every field (`field--name-field-body`) and every item in print
 * (`paragraph-published`).
 */
const AUTHOR_WORD =
  /^(?:author|authors|user|username|userlink|vcard|fn|nickname|nick|poster|commenter|byline|avatar|gravatar|profile)$/;
const TIME_WORD = /^(?:date|time|timestamp|datetime|timeago|ago|posted|submitted|pubdate|dateline)$/;
/** A profile's address: the author's name links there in comments and forums. */
const PROFILE_HREF =
  /(?:\/users?\/|\/u\/|\/members?\/|\/people\/|\/profiles?\/|\/@[\w.-]+|memberlist\.php|viewprofile|\/author\/)/i;
/** The whole text (or title) of a reply control. */
const REPLY_LABEL =
  /^(?:reply|respond|reply to (?:this|comment|[\p{L} .'-]{1,40})|reply with quote|quote|antworten|répondre|responder|rispondi|odpowiedz|ответить)$/iu;
const REPLY_HREF = /(?:replytocom=|[#/?&]reply\b|#respond|mode=quote|[?&]quote=)/i;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** A date or a time as posts show it: "4 March 2024", "March 4, 2024", "2024-03-04", "3/4/24", "2 days ago". */
const DATE_TEXT = new RegExp(
  [
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH},?\\s+\\d{2,4}\\b`,
    `\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{2,4}\\b`,
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    '\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b',
    '\\b(?:\\d+|an?|one)\\s+(?:second|sec|minute|min|hour|hr|day|week|month|year)s?\\s+ago\\b',
    '\\b(?:yesterday|today)\\s+at\\b',
  ].join('|'),
  'i',
);
const COMMENTS_HEADING = /\b(?:comments?|responses?|replies|discussion|reactions?|thoughts on)\b/i;

/** A cheap test before a class list is split into words: none of the sign words is in it. */
const SIGN_NAMES =
  /author|user|vcard|fn|nick|poster|commenter|byline|avatar|profile|date|time|ago|posted|submitted|pubdate/i;

/** Whether `element` holds text of its own (a text child with a visible character). */
function holdsText(element: DomElement): boolean {
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE && visibleChars(child.textContent) > 0) return true;
  }
  return false;
}

/** The signs an element with text shows of its own (not its descendants'); `chars`: its text. */
function ownSigns(element: DomElement, chars: number, named: Map<string, number>): number {
  const tag = tagOf(element);
  // The class only: ids name one element, not a kind of text.
  const names = element.getAttribute('class') ?? '';
  let signs = names === '' ? 0 : (named.get(names) ?? nameSigns(names, named));
  if (tag === 'time') signs |= TIME;
  else if (tag === 'cite') signs |= AUTHOR;
  else if (tag === 'a') {
    const href = element.getAttribute('href') ?? '';
    if (PROFILE_HREF.test(href)) signs |= AUTHOR;
    if (REPLY_HREF.test(href)) signs |= REPLY;
  }
  if (chars > THRESHOLDS.MAX_POST_LABEL_CHARS) return signs;
  // A control's label or a full date in a tooltip ("Reply with quote", "Thursday, 8 February 2024 18:03").
  if (TOOLTIP_TAGS.has(tag)) {
    const title = element.getAttribute('title');
    if (title) signs |= labelSigns(normalizeSpace(title));
  }
  // Short text, read where it is written (not again in each wrapper).
  if (holdsText(element)) {
    const text = element.textContent ?? '';
    if (MAYBE_LABEL.test(text)) signs |= labelSigns(normalizeSpace(text));
  }
  return signs;
}

/** The signs of a class list (`names`), remembered in `named`: a page repeats its class lists. */
function nameSigns(names: string, named: Map<string, number>): number {
  let signs = 0;
  if (SIGN_NAMES.test(names)) {
    for (const word of words(names)) {
      if (AUTHOR_WORD.test(word)) signs |= AUTHOR;
      else if (TIME_WORD.test(word)) signs |= TIME;
    }
  }
  named.set(names, signs);
  return signs;
}

/** Elements whose title is read for a reply control or a date. */
const TOOLTIP_TAGS: ReadonlySet<string> = new Set(['a', 'span', 'abbr', 'time']);

/** A picture of the author: its class, address or text says avatar (`osdc_default_avatar_1.png`, "Avatar", `gravatar.com`). */
const AVATAR = /avatar|userpic|user-pic|profile-pic|profile_pic/i;

function isAvatar(image: DomElement): boolean {
  return AVATAR.test(
    `${image.getAttribute('class') ?? ''} ${image.getAttribute('alt') ?? ''} ${image.getAttribute('src') ?? ''}`,
  );
}

/** A reply control's label or a date. */
function labelSigns(label: string): number {
  if (/^reply\b/i.test(label)) return REPLY;
  if (label.length > THRESHOLDS.MAX_POST_LABEL_CHARS) return 0;
  if (REPLY_LABEL.test(label)) return REPLY;
  return MAYBE_DATE.test(label) && DATE_TEXT.test(label) ? TIME : 0;
}

/** What a date needs: a digit, or a word of a relative one. */
const MAYBE_DATE = /\d|ago\b|yesterday|today/i;
/** ... and a date or a reply label (a cheap test before the text is normalised). */
const MAYBE_LABEL = /\d|ago\b|yesterday|today|repl|respon|quote|antwort|répond|rispond|odpowied|ответ/i;

function bits(signs: number): number {
  return (signs & AUTHOR ? 1 : 0) + (signs & TIME ? 1 : 0) + (signs & REPLY ? 1 : 0);
}

/** A post carries at least two of the three signs. */
function isPost(signs: number): boolean {
  return bits(signs) >= 2;
}

interface Signs {
  /** Each element's own signs (elements without any left out). */
  own: Map<DomElement, number>;
  /** The signs under each element: its own and its descendants'. */
  under: Map<DomElement, number>;
}

/** The signs of every element under `root`, in one walk from the last element to the first. */
function readSigns(root: DomElement, stats: Map<DomElement, TextStats>): Signs {
  const own = new Map<DomElement, number>();
  const under = new Map<DomElement, number>();
  const named = new Map<string, number>();
  const order = [root, ...descendants(root)];
  for (let i = order.length - 1; i >= 0; i--) {
    const element = order[i]!;
    // An author, a time, a reply control is a short text (or an author's picture): a block
    // of prose or a page section is none.
    const chars = stats.get(element)?.chars ?? 0;
    const mine =
      chars === 0
        ? tagOf(element) === 'img' && isAvatar(element)
          ? AUTHOR
          : 0
        : chars > THRESHOLDS.MAX_POST_SIGN_CHARS
          ? 0
          : ownSigns(element, chars, named);
    if (mine !== 0) own.set(element, mine);
    // Children come later in document order: their signs are in by now.
    const s = mine | (under.get(element) ?? 0);
    if (s === 0) continue;
    under.set(element, s);
    const parent = element.parentElement;
    if (parent !== null && element !== root) under.set(parent, (under.get(parent) ?? 0) | s);
  }
  return { own, under };
}

function hasThreadWord(element: DomElement): boolean {
  const names = classAndId(element);
  return names !== '' && words(names).some((w) => THREAD_WORD.test(w));
}

/** Same tag, and a class in common or no class at all (a reply's item is its post's, a level deeper). */
export function alike(a: DomElement, b: DomElement): boolean {
  if (tagOf(a) !== tagOf(b)) return false;
  const ca = (a.getAttribute('class') ?? '')
    .trim()
    .split(/\s+/)
    .filter((c) => c !== '');
  const cb = new Set(
    (b.getAttribute('class') ?? '')
      .trim()
      .split(/\s+/)
      .filter((c) => c !== ''),
  );
  return ca.length === 0 ? cb.size === 0 : ca.some((c) => cb.has(c));
}

/** A heading just before `list`, or opening it or its parent, announces comments. */
function announced(list: DomElement): boolean {
  const candidates: Array<DomElement | null> = [
    list.previousElementSibling,
    list.firstElementChild,
    list.parentElement?.firstElementChild ?? null,
  ];
  for (const element of candidates) {
    if (element === null) continue;
    const heading = headingLevel(element) > 0 ? element : element.querySelector('h1, h2, h3, h4, h5, h6');
    if (heading !== null && COMMENTS_HEADING.test(normalizeSpace(heading.textContent))) return true;
  }
  return false;
}

/** The run of posts that `parent`'s children make, or null: items of one tag, most of them posts. */
function postRun(parent: DomElement, under: Map<DomElement, number>): DomElement[] | null {
  const byTag = new Map<string, { all: number; posts: DomElement[] }>();
  for (const child of childElements(parent)) {
    const tag = tagOf(child);
    const group = byTag.get(tag) ?? { all: 0, posts: [] };
    group.all += 1;
    if (isPost(under.get(child) ?? 0)) group.posts.push(child);
    byTag.set(tag, group);
  }
  let best: DomElement[] | null = null;
  for (const group of byTag.values()) {
    if (
      group.posts.length >= THRESHOLDS.MIN_THREAD_ITEMS &&
      group.posts.length >= THRESHOLDS.MIN_POST_SHARE * group.all &&
      (best === null || group.posts.length > best.length)
    )
      best = group.posts;
  }
  return best;
}

/** Whether a run of posts is a thread: one more sign besides the posts (see the module comment). */
function isThread(parent: DomElement, posts: DomElement[], under: Map<DomElement, number>): boolean {
  const most = THRESHOLDS.MIN_POST_SHARE * posts.length;
  for (let up: DomElement | null = parent, level = 0; up !== null && level < 3; up = up.parentElement, level++)
    if (hasThreadWord(up)) return true;
  if (posts.filter(hasThreadWord).length >= most) return true;
  if (posts.filter((p) => ((under.get(p) ?? 0) & REPLY) !== 0).length >= most) return true;
  // Replies nested in the posts: a post built like its parent post, inside it.
  const tag = tagOf(posts[0]!);
  if (
    posts.some((p) =>
      Array.from(p.getElementsByTagName(tag)).some((inner) => alike(inner, p) && isPost(under.get(inner) ?? 0)),
    )
  )
    return true;
  return announced(parent);
}

/** A comment thread: the section around it (its heading and form), and the run whose children are its posts. */
export interface CommentThread {
  section: DomElement;
  run: DomElement;
  posts: DomElement[];
}

/** The signs each element shows of its own: an author (AUTHOR), a time (TIME), a reply control (REPLY). */
export type OwnSigns = ReadonlyMap<DomElement, number>;

export { AUTHOR as AUTHOR_SIGN, TIME as TIME_SIGN, REPLY as REPLY_SIGN };

/**
 * The comment threads under `body`: runs of posts (postRun, isThread), unless a post of
 * the same make stands outside the run (an author or a time written in an element of the
 * same tag and classes as in the run's posts): a forum topic's or a Q&A page's opening
 * post, whose replies are the page's content. With each element's own signs.
 */
export function commentThreads(
  body: DomElement,
  stats: Map<DomElement, TextStats>,
): { threads: CommentThread[]; own: OwnSigns; under: OwnSigns } {
  const { own, under } = readSigns(body, stats);
  const runs: Array<{ run: DomElement; posts: DomElement[] }> = [];
  walk(body, (element) => {
    if (!isPost(under.get(element) ?? 0)) return false;
    const posts = postRun(element, under);
    if (posts === null || !isThread(element, posts, under)) return true;
    runs.push({ run: element, posts });
    return false;
  });
  if (runs.length === 0) return { threads: [], own, under };
  // Where each make of author or time (an element's tag and classes; one without a class
  // says nothing of the make) is written: in which runs, or outside them (null).
  const found = new Set(runs.map((r) => r.run));
  const placesOf = new Map<string, Set<DomElement | null>>();
  for (const [element, s] of own) {
    if ((s & (AUTHOR | TIME)) === 0 || !element.hasAttribute('class')) continue;
    let run: DomElement | null = element;
    while (run !== null && !found.has(run)) run = run.parentElement;
    const key = signature(element);
    const places = placesOf.get(key) ?? new Set<DomElement | null>();
    places.add(run);
    placesOf.set(key, places);
  }
  // The make of a run's posts (where their authors and times are written) seen elsewhere too.
  const opened = new Set<DomElement | null>();
  for (const places of placesOf.values()) if (places.size > 1) for (const place of places) opened.add(place);
  const threads: CommentThread[] = [];
  for (const { run, posts } of runs) {
    if (opened.has(run)) continue;
    // The section around the run: its heading and form, not the article beside it.
    let section = run;
    const chars = stats.get(run)?.chars ?? 0;
    while (
      section.parentElement !== null &&
      section.parentElement !== body &&
      (stats.get(section.parentElement)?.chars ?? 0) - chars <= THRESHOLDS.MAX_SECTION_EXTRA_CHARS
    ) {
      section = section.parentElement;
    }
    threads.push({ section, run, posts });
  }
  return { threads, own, under };
}

/** Whether `element` is a post: it carries two of an author, a time and a reply control (`under`: commentThreads'). */
export function isPostElement(element: DomElement, under: OwnSigns): boolean {
  return isPost(under.get(element) ?? 0);
}

/** Marks the comment threads under `body` (commentThreads) with THREAD_MARK on their section; returns what it found. */
function markCommentThreads(body: DomElement, stats: Map<DomElement, TextStats>): ReturnType<typeof commentThreads> {
  const found = commentThreads(body, stats);
  for (const { section } of found.threads) {
    section.setAttribute(THREAD_MARK, '');
    body.setAttribute(HOLDS_THREAD_MARK, '');
  }
  return found;
}

/**
 * Whether `item` is a teaser: it opens with a headline link (MIN_HEADLINE_CHARS), after at
 * most MAX_KICKER_CHARS of other text; its blurb may run to any length.
 */
function isTeaser(item: DomElement, stats: Map<DomElement, TextStats>): boolean {
  const s = stats.get(item);
  if (s === undefined || s.links === s.shortLinks) return false;
  let before = 0;
  let node = nextInTree(item, item, false);
  while (node !== null && before <= THRESHOLDS.MAX_KICKER_CHARS) {
    if (isElement(node) && tagOf(node) === 'a' && node.hasAttribute('href')) {
      const chars = stats.get(node)?.chars ?? 0;
      if (chars >= THRESHOLDS.MIN_HEADLINE_CHARS) return true;
      before += chars;
      node = nextInTree(node, item, true);
      continue;
    }
    if (node.nodeType === TEXT_NODE) before += visibleChars(node.textContent);
    node = nextInTree(node, item, false);
  }
  return false;
}

/** Marks the items of runs of teasers under `body` with TEASER_MARK (outside threads). */
function markTeasers(body: DomElement, stats: Map<DomElement, TextStats>): void {
  const stack: DomElement[] = [body];
  while (stack.length > 0) {
    const element = stack.pop()!;
    const runs = new Map<string, DomElement[]>();
    for (const child of childElements(element)) {
      const s = stats.get(child);
      // No headline below: nothing to look for.
      if (s === undefined || s.links === s.shortLinks || child.hasAttribute(THREAD_MARK)) continue;
      if (isTeaser(child, stats)) {
        const key = signature(child);
        const run = runs.get(key);
        if (run === undefined) runs.set(key, [child]);
        else run.push(child);
      } else {
        stack.push(child);
      }
    }
    for (const run of runs.values()) {
      if (run.length >= THRESHOLDS.MIN_TEASERS) for (const item of run) item.setAttribute(TEASER_MARK, '');
      else stack.push(...run);
    }
  }
}

/**
 * Marks what `body` (the de-noised body, before the chrome removal) holds beside an
 * article: comment threads (THREAD_MARK) and teasers (TEASER_MARK). Returns the threads
 * found, with each element's signs (choose/comments.ts reads the posts from them).
 */
export function markBesideArticle(
  body: DomElement,
  stats: Map<DomElement, TextStats> = computeTextStats(body),
): ReturnType<typeof commentThreads> {
  const found = markCommentThreads(body, stats);
  markTeasers(body, stats);
  return found;
}

/**
 * The marked threads and teasers under `root` that follow the article: at least
 * MIN_ARTICLE_CHARS characters of other text (not link text, not in a thread or a
 * teaser) come before them in document order; for threads `minThreadArticle`.
 */
function besideArticle(
  root: DomElement,
  minThreadArticle: number = THRESHOLDS.MIN_ARTICLE_CHARS,
): { threads: DomElement[]; teasers: DomElement[] } {
  const threads: DomElement[] = [];
  const teasers: DomElement[] = [];
  let article = 0;
  let node = nextInTree(root, root, false);
  while (node !== null) {
    let skip = false;
    if (isElement(node)) {
      const thread = node.hasAttribute(THREAD_MARK);
      const teaser = !thread && node.hasAttribute(TEASER_MARK);
      if (thread || teaser) {
        if (article >= (thread ? minThreadArticle : THRESHOLDS.MIN_ARTICLE_CHARS))
          (thread ? threads : teasers).push(node);
        skip = true;
      } else {
        skip = tagOf(node) === 'a' && node.hasAttribute('href');
      }
    } else if (node.nodeType === TEXT_NODE) {
      article += visibleChars(node.textContent);
    }
    node = nextInTree(node, root, skip);
  }
  return { threads, teasers };
}

/**
 * The non-link characters of the cleaned body `cleaned` that lie beside the article that
 * Readability picked (`pick`, of `pickChars` characters): the comment threads and teasers
 * that follow the article (besideArticle); teasers only when the pick is an article (at
 * least MIN_ARTICLE_CHARS) that holds none of them.
 */
export function textBesideArticle(
  cleaned: DomElement,
  pick: DomElement,
  pickChars: number,
  statsOf: (root: DomElement) => Map<DomElement, TextStats> = computeTextStats,
): number {
  const { threads, teasers } = besideArticle(cleaned);
  const counted =
    pickChars >= THRESHOLDS.MIN_ARTICLE_CHARS && pick.querySelector(`[${TEASER_MARK}]`) === null
      ? [...threads, ...teasers]
      : threads;
  if (counted.length === 0) return 0;
  const stats = statsOf(cleaned);
  return counted.reduce((n, element) => {
    const s = stats.get(element);
    return s === undefined ? n : n + s.chars - s.linkChars;
  }, 0);
}

/**
 * Removes the comment threads under `root` (a body marked by markBesideArticle, or a copy
 * of one) that follow a story: MIN_STORY_BEFORE_THREAD_CHARS of other text before them,
 * less than an article needs to count teasers beside it (a few sentences over a long
 * thread are still the story); returns whether it did.
 */
export function dropCommentThreads(root: DomElement): boolean {
  if (!root.hasAttribute(HOLDS_THREAD_MARK)) return false;
  const threads = threadsAfterStory(root);
  for (const thread of threads) thread.remove();
  return threads.length > 0;
}

/** The marked threads under `root` that leave the content (dropCommentThreads): the readers' comments. */
export function threadsAfterStory(root: DomElement): DomElement[] {
  return besideArticle(root, THRESHOLDS.MIN_STORY_BEFORE_THREAD_CHARS).threads;
}
