/**
 * The cascade's choice between Readability's pick and the cleaned body on pages that hold
 * more than their article (beside-article.ts). Each page under
 * `test/fixtures/stage-choice/<slug>/source.html` was written for this project (invented
 * sites, people and text), in a different markup convention:
 *   - a short news story on a heavy page (a big menu, a rail of other headlines with
 *     teasers, a long reader-comment section, a footer of links), three ways: a WordPress
 *     comment list beside an `<article>`; plain divs with a Disqus-style thread; generated
 *     class names, where only the repeated author/date blocks and reply links tell the
 *     thread;
 *   - a short blog post over a longer threaded comment list, two ways;
 *   - forum topics, where the thread is the content: a phpBB-style run of posts, and a
 *     Q&A page whose question stands apart from its replies.
 * The stories and posts must come out whole and alone; the forum topics whole.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { dropCommentThreads, markBesideArticle } from '../../src/extract/html/choose/beside-article.js';
import { TEASER_MARK, THREAD_MARK } from '../../src/extract/html/marks.js';
import { THRESHOLDS } from '../../src/extract/html/thresholds.js';
import type { DomElement } from '../../src/extract/html/dom.js';

const PAGES = fileURLToPath(new URL('../fixtures/stage-choice', import.meta.url));

interface Page {
  slug: string;
  /** Selectors of what the Markdown must hold, every passage of it. */
  keep: string;
  /** Selectors of what it must not hold (none for a forum topic). */
  drop?: string;
  stage?: string;
}

const ARTICLES: Page[] = [
  { slug: 'news-story-comment-list', keep: '.story-body', drop: '#comments, .rail', stage: 'readability' },
  { slug: 'news-story-disqus-thread', keep: '#storytext', drop: '#disqus_thread, #right-col', stage: 'readability' },
  { slug: 'news-story-generated-classes', keep: '.css-b0dy', drop: '.css-c5e0, .css-r41l', stage: 'readability' },
  { slug: 'blog-post-comment-thread', keep: '.entry-content', drop: '#comments', stage: 'readability' },
  { slug: 'blog-post-discussion-thread', keep: '.post-text', drop: '#discussion', stage: 'readability' },
  // A story of two sentences over a long comment list, and a blog's "open thread" post.
  { slug: 'short-story-long-comments', keep: '.story-text', drop: '.cmt-block' },
  { slug: 'open-thread-post', keep: '.entry-body', drop: '.discussion' },
  // A story beside a rail of staff names and titles and a "most read" list.
  { slug: 'story-beside-staff-rail', keep: '.col-main p', drop: '.col-left' },
];

const FORUMS: Page[] = [
  { slug: 'forum-topic-posts', keep: '#page-body .content' },
  { slug: 'forum-question-replies', keep: '.question-post .post-text, #replies .post-text' },
];

/** Markdown escapes and white space aside. */
function plain(text: string): string {
  return text
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The passages (text nodes of at least 25 characters) under the elements `selector` finds. */
function passages(html: string, selector: string): string[] {
  const { document } = parseHTML(html);
  const out: string[] = [];
  for (const element of Array.from(document.querySelectorAll(selector))) {
    const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = plain(node.textContent ?? '');
      if (text.length >= 25) out.push(text);
    }
  }
  return out;
}

function convert(slug: string): { html: string; markdown: string; stage: string } {
  const html = readFileSync(join(PAGES, slug, 'source.html'), 'utf8');
  const { markdown, stage } = htmlToMarkdown(html, `https://pages.example.com/${slug}/`);
  return { html, markdown: plain(markdown), stage };
}

describe('an article beside comments and rails of teasers', () => {
  it.each(ARTICLES)('$slug: the story whole, no comment, no other headline', ({ slug, keep, drop, stage }) => {
    const { html, markdown, stage: chosen } = convert(slug);
    const wanted = passages(html, keep);
    const unwanted = passages(html, drop!);
    expect(wanted.length).toBeGreaterThanOrEqual(1);
    expect(unwanted.length).toBeGreaterThanOrEqual(5);
    for (const text of wanted) expect(markdown).toContain(text);
    for (const text of unwanted) expect(markdown).not.toContain(text);
    if (stage !== undefined) expect(chosen).toBe(stage);
  });
});

describe('a story beside a rail of short linked items', () => {
  it('leaves out every name and title of the staff rail', () => {
    const { html, markdown } = convert('story-beside-staff-rail');
    const { document } = parseHTML(html);
    const names = Array.from(document.querySelectorAll('.person-name, .person-role')).map((e) =>
      plain((e as { textContent: string | null }).textContent ?? ''),
    );
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const name of names) expect(markdown).not.toContain(name);
  });
});

describe('a forum topic', () => {
  it.each(FORUMS)('$slug: the question and every reply', ({ slug, keep }) => {
    const { html, markdown } = convert(slug);
    const wanted = passages(html, keep);
    expect(wanted.length).toBeGreaterThanOrEqual(10);
    for (const text of wanted) expect(markdown).toContain(text);
  });
});

const para = (n: number) =>
  `<p>Paragraph ${n} of the story tells what happened at the harbour meeting on Tuesday, who spoke and what was decided about the ferry timetable.</p>`;
const comment = (name: string, extra = '') =>
  `<li class="comment"><span class="author">${name}</span> <time datetime="2024-02-06">6 February 2024</time><p>I read this with interest and I think the council should look again at the whole timetable before the spring.</p><a href="?replytocom=1#respond">Reply</a>${extra}</li>`;
const COMMENTS = `<section id="comments"><h2>Comments</h2><ol class="comment-list">${['Ann', 'Bo', 'Cy', 'Di'].map((n) => comment(n)).join('')}</ol></section>`;

function body(html: string): DomElement {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  return document.body as unknown as DomElement;
}

describe('beside-article marks', () => {
  it('marks a comment section after an article, and drops it after at least MIN_ARTICLE_CHARS of article', () => {
    const story = [1, 2, 3, 4, 5].map(para).join('');
    expect(story.replace(/<[^>]+>|\s/g, '').length).toBeGreaterThan(THRESHOLDS.MIN_ARTICLE_CHARS);
    const root = body(`<article><h1>Ferry</h1>${story}</article>${COMMENTS}`);
    markBesideArticle(root);
    expect(root.querySelector(`[${THREAD_MARK}]`)?.getAttribute('id')).toBe('comments');
    expect(dropCommentThreads(root)).toBe(true);
    expect(root.querySelector('.comment-list')).toBeNull();
  });

  it('drops a thread after a story of a few sentences (MIN_STORY_BEFORE_THREAD_CHARS), not after a headline alone', () => {
    const short = body(`<h1>Ferry</h1><p>${'The ferry timetable will be reviewed. '.repeat(5)}</p>${COMMENTS}`);
    markBesideArticle(short);
    expect(dropCommentThreads(short)).toBe(true);
    const headline = body(`<h1>Ferry timetable to be reviewed after complaints</h1>${COMMENTS}`);
    markBesideArticle(headline);
    expect(dropCommentThreads(headline)).toBe(false);
  });

  it('keeps a thread with no article before it (a page of comments, a topic whose first post is in the run)', () => {
    const root = body(`<h1>Ferry: comments</h1>${COMMENTS}`);
    markBesideArticle(root);
    expect(root.querySelector(`[${THREAD_MARK}]`)).not.toBeNull();
    expect(dropCommentThreads(root)).toBe(false);
  });

  it('needs more than posts: a list of articles with bylines is no thread', () => {
    const card = (n: number) =>
      `<div class="card"><span class="author">Kim Lo</span> <time>${n} March 2024</time>${para(n)}</div>`;
    const root = body(`<div class="cards">${[1, 2, 3, 4].map(card).join('')}</div>`);
    markBesideArticle(root);
    expect(root.querySelector(`[${THREAD_MARK}]`)).toBeNull();
  });

  it('leaves a thread unmarked when a post of the same make stands outside it (an opening post)', () => {
    const opening =
      '<div class="question"><span class="author">Ann</span> <time>5 February 2024</time>' +
      [1, 2, 3, 4].map(para).join('') +
      '</div>';
    const root = body(opening + COMMENTS);
    markBesideArticle(root);
    expect(root.querySelector(`[${THREAD_MARK}]`)).toBeNull();
  });

  it('marks teasers: runs of items that open with a headline link, not posts that mention one', () => {
    const teaser = (n: number) =>
      `<li><a href="/news/${n}">Headline number ${n} about the harbour works</a><p>One line of blurb.</p></li>`;
    const post = (n: number) =>
      `<li><a href="/u/kim">kim</a> wrote: I found the answer in the manual, page ${n}: <a href="/manual">the ferry operators handbook</a></li>`;
    const root = body(
      `<ul id="rail">${[1, 2, 3, 4].map(teaser).join('')}</ul><ul id="posts">${[1, 2, 3, 4].map(post).join('')}</ul>`,
    );
    markBesideArticle(root);
    expect(root.querySelectorAll(`#rail [${TEASER_MARK}]`).length).toBe(4);
    expect(root.querySelectorAll(`#posts [${TEASER_MARK}]`).length).toBe(0);
  });
});
