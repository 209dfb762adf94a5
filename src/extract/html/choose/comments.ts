/**
 * Readers' comments as a section of their own (`include_comments`): the posts of the comment
 * threads that beside-article.ts finds (commentThreads), each with its author and date on
 * one line and its text as Markdown, replies in the order the page shows them, each naming
 * the comment it answers. Read from a de-noised body of its own (the caller's fresh copy):
 * the chrome removal takes the footers that comment templates put the author and date in,
 * and this reader takes the posts apart.
 */

import type { DomDocument, DomElement } from '../dom.js';
import { descendants, normalizeSpace, tagOf } from '../dom.js';
import type { OwnSigns } from './beside-article.js';
import {
  AUTHOR_SIGN,
  REPLY_SIGN,
  TIME_SIGN,
  alike,
  isPostElement,
  markBesideArticle,
  threadsAfterStory,
} from './beside-article.js';
import { removeControlLabels } from '../clean/control-labels.js';
import { writeMarkdown } from '../write/markdown.js';
import { tidyMarkdown } from '../write/tidy.js';
import { toIsoDate } from '../../../core/dates.js';

export interface PageComment {
  author?: string;
  /** ISO 8601 when the page states it in a machine form (`<time datetime>`), else as written. */
  date?: string;
  /** The author of the comment this one answers (a reply nested in it). */
  replyTo?: string;
  markdown: string;
}

/** Bounds: a page with more comments than this is a forum of its own; the first ones tell enough. */
export const MAX_COMMENTS = 500;
const MAX_AUTHOR_CHARS = 80;

interface Post {
  element: DomElement;
  parent: Post | null;
}

/**
 * The comments under `body` (a de-noised body the caller gives up: posts are taken out of
 * it as they are read), in page order; `doc` owns `body`.
 */
export function readComments(doc: DomDocument, body: DomElement, base: string | null): PageComment[] {
  // Marked as the pipeline marks them: the threads the content leaves out are those that
  // follow a story (threadsAfterStory; a forum's posts are its content).
  const { threads, own, under } = markBesideArticle(body);
  const following = new Set(threadsAfterStory(body));
  const posts: Post[] = [];
  for (const thread of threads) {
    if (!following.has(thread.section)) continue;
    for (const top of thread.posts) if (posts.length < MAX_COMMENTS) collectPosts(top, null, under, posts);
  }
  const postElements = new Set(posts.map((p) => p.element));
  const read = new Map<DomElement, { author?: string; date?: string; marked: DomElement[] }>();
  for (const post of posts) {
    const times = signed(post.element, own, TIME_SIGN, postElements);
    const named = authorOf(signed(post.element, own, AUTHOR_SIGN, postElements));
    const beside = named === undefined ? nameBeside(times, post.element) : undefined;
    const author = named ?? (beside === undefined ? undefined : authorOf([beside]));
    const date = dateOf(times);
    const marked = signed(post.element, own, AUTHOR_SIGN | TIME_SIGN | REPLY_SIGN, postElements);
    if (author !== undefined && beside !== undefined) marked.push(beside);
    read.set(post.element, {
      ...(author !== undefined ? { author } : {}),
      ...(date !== undefined ? { date } : {}),
      marked,
    });
  }
  const written = new Map<DomElement, string>();
  // Innermost first: a reply leaves its parent before the parent is written.
  for (const post of [...posts].reverse()) {
    const { marked } = read.get(post.element)!;
    for (const element of marked) element.remove();
    for (const image of Array.from(post.element.querySelectorAll('img'))) image.remove();
    for (const link of Array.from(post.element.querySelectorAll('a'))) if (isControl(link)) link.remove();
    for (const element of Array.from(post.element.querySelectorAll('span, div, small, p, b, strong'))) {
      const text = normalizeSpace(element.textContent);
      // A count, or the separators its controls stood between ("Reply · Report" without them).
      if (COUNTER.test(text) || (SEPARATORS.test(text) && element.querySelector('img, video, iframe') === null))
        element.remove();
    }
    removeControlLabels(post.element);
    const text = tidyMarkdown(writeMarkdown(post.element, base)).trim();
    post.element.remove();
    written.set(post.element, text);
  }
  const comments: PageComment[] = [];
  for (const post of posts) {
    const text = written.get(post.element)!;
    if (text === '') continue;
    const { author, date } = read.get(post.element)!;
    const replyTo = post.parent === null ? undefined : read.get(post.parent.element)?.author;
    comments.push({
      ...(author !== undefined ? { author } : {}),
      ...(date !== undefined ? { date } : {}),
      ...(replyTo !== undefined ? { replyTo } : {}),
      markdown: `${headerLine(doc, author, date, replyTo, base)}\n\n${text}`,
    });
  }
  return comments;
}

/** "**Author** · date · reply to Name", escaped as the page's text is (written by the same writer). */
function headerLine(
  doc: DomDocument,
  author: string | undefined,
  date: string | undefined,
  replyTo: string | undefined,
  base: string | null,
): string {
  const line = doc.createElement('p');
  const name = doc.createElement('strong');
  name.textContent = author ?? 'Anonymous';
  line.appendChild(name);
  const rest = [date, replyTo === undefined ? undefined : `reply to ${replyTo}`].filter((s) => s !== undefined);
  if (rest.length > 0) line.appendChild(doc.createTextNode(` · ${rest.join(' · ')}`));
  return writeMarkdown(line as DomElement, base).trim();
}

/** The comments as the section that follows the content. */
export function commentsSection(comments: readonly PageComment[]): string {
  return comments.length === 0 ? '' : `## Comments\n\n${comments.map((c) => c.markdown).join('\n\n')}`;
}

/** `top` and the replies nested in it (posts built like it, inside it), in document order. */
function collectPosts(top: DomElement, parent: Post | null, under: OwnSigns, out: Post[]): void {
  const post: Post = { element: top, parent };
  out.push(post);
  if (out.length >= MAX_COMMENTS) return;
  // The outermost replies only: theirs are found from them.
  const inner = new Set(descendants(top).filter((element) => alike(element, top) && isPostElement(element, under)));
  for (const reply of inner) if (!insideAny(reply, inner, top)) collectPosts(reply, post, under, out);
}

/** The elements of `post` (not of a reply in it: `posts`) showing one of `signs` of their own, outermost only. */
function signed(post: DomElement, own: OwnSigns, signs: number, posts: ReadonlySet<DomElement>): DomElement[] {
  const found = new Set<DomElement>();
  for (const element of descendants(post)) {
    if (((own.get(element) ?? 0) & signs) === 0) continue;
    if (insideAny(element, found, post)) continue;
    let owner = element.parentElement;
    while (owner !== null && owner !== post && !posts.has(owner)) owner = owner.parentElement;
    if (owner === post) found.add(element);
  }
  return [...found];
}

function authorOf(elements: DomElement[]): string | undefined {
  for (const element of elements) {
    const name = normalizeSpace(element.textContent).replace(/\s+(?:says|said|wrote|writes)\s*:?$/i, '');
    if (name !== '' && name.length <= MAX_AUTHOR_CHARS) return name;
  }
  return undefined;
}

function dateOf(elements: DomElement[]): string | undefined {
  for (const element of elements) {
    const time = tagOf(element) === 'time' ? element : element.querySelector('time');
    const stated = toIsoDate(time?.getAttribute('datetime') ?? undefined);
    if (stated !== undefined) return stated;
    const text = normalizeSpace(element.textContent) || normalizeSpace(element.getAttribute('title'));
    if (text !== '') return text;
  }
  return undefined;
}

/** Whether an element of `set` holds `element` (below `root`). */
function insideAny(element: DomElement, set: ReadonlySet<DomElement>, root: DomElement): boolean {
  for (let up = element.parentElement; up !== null && up !== root; up = up.parentElement) if (set.has(up)) return true;
  return false;
}

/**
 * The author's name where no sign marks it: the short text written just before the post's
 * date, in the same line (`<span>Name</span> <span>4 March 2024</span>`).
 */
function nameBeside(times: DomElement[], post: DomElement): DomElement | undefined {
  const time = times[0];
  if (time === undefined) return undefined;
  for (let at: DomElement | null = time; at !== null && at !== post; at = at.parentElement) {
    const before = at.previousElementSibling;
    if (before === null) continue;
    const text = normalizeSpace(before.textContent);
    return text !== '' && text.length <= MAX_AUTHOR_CHARS && !/[.!?]$/.test(text) && !/\d/.test(text)
      ? before
      : undefined;
  }
  return undefined;
}

/** A comment's control: a link to the page itself or one that votes, reports, shares or counts. */
const CONTROL_TEXT =
  /^(?:\d+|report|flag|share\b.*|like|unlike|upvote|downvote|vote|permalink|link|edit|delete|hide|mute|block|follow|more)$/i;

/** A count shown under a comment: "12 likes", "3 points". */
const COUNTER = /^\d[\d,.]*\s*(?:likes?|votes?|points?|upvotes?|downvotes?|replies|reactions?|recommends?)$/i;

const SEPARATORS = /^[\s·•|,\-–—/]*$/;

function isControl(link: DomElement): boolean {
  const href = (link.getAttribute('href') ?? '').trim();
  const text = normalizeSpace(link.textContent);
  return (
    href === '' ||
    href.startsWith('#') ||
    href.startsWith('javascript:') ||
    (text.length <= 20 && CONTROL_TEXT.test(text))
  );
}
