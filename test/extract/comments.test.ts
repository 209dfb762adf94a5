/**
 * `include_comments`: the readers' comments that the content leaves out, written after it
 * under "## Comments", each with its author and date on one line (choose/comments.ts). The
 * pages are the stage-choice fixtures (written for this project): five ways of marking a
 * thread under a story, a short story over a long thread, an "open thread" post, and two
 * forum topics whose posts are the content (no section for them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { MAX_COMMENTS, readComments } from '../../src/extract/html/choose/comments.js';
import type { DomDocument, DomElement } from '../../src/extract/html/dom.js';

const PAGES = fileURLToPath(new URL('../fixtures/stage-choice', import.meta.url));

const THREADS = [
  { slug: 'news-story-comment-list', posts: '#comments .comment-content' },
  { slug: 'news-story-disqus-thread', posts: '#disqus_thread .post-message' },
  { slug: 'news-story-generated-classes', posts: '.css-c5e0 .sc-e0e19' },
  { slug: 'blog-post-comment-thread', posts: '#comments .comment-body > p' },
  { slug: 'blog-post-discussion-thread', posts: '#discussion .message-text' },
  { slug: 'short-story-long-comments', posts: '.cmt-text' },
  { slug: 'open-thread-post', posts: '.reply-text' },
];

function source(slug: string): string {
  return readFileSync(join(PAGES, slug, 'source.html'), 'utf8');
}

/** Markdown escapes and white space aside. */
function plain(text: string): string {
  return text
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of each element `selector` finds, white space collapsed. */
function texts(html: string, selector: string): string[] {
  const { document } = parseHTML(html);
  return Array.from(document.querySelectorAll(selector))
    .map((e) => plain((e as { textContent: string | null }).textContent ?? ''))
    .filter((t) => t.length >= 25);
}

describe('include_comments', () => {
  it.each(THREADS)('$slug: every comment after the content, under "## Comments"', ({ slug, posts }) => {
    const html = source(slug);
    const url = `https://pages.example.com/${slug}/`;
    const without = htmlToMarkdown(html, url).markdown;
    const { markdown } = htmlToMarkdown(html, url, { includeComments: true });
    expect(markdown.startsWith(without)).toBe(true);
    const section = markdown.slice(without.length);
    expect(section.startsWith('\n\n## Comments\n\n')).toBe(true);
    expect(markdown.match(/^## Comments$/gm)).toHaveLength(1);
    const comments = texts(html, posts);
    expect(comments.length).toBeGreaterThanOrEqual(4);
    for (const text of comments) {
      // Each post's own text (its replies are comments of their own): its first sentence at least.
      const first = text.split(/(?<=[.!?])\s/)[0]!;
      expect(plain(section)).toContain(first);
      expect(plain(without)).not.toContain(first);
    }
    // Its controls are not comments.
    expect(section).not.toMatch(/^(?:Reply|Report|Share.*|\d+ likes?)$/m);
  });

  it('writes each comment as "**Author** · date", a reply naming the comment it answers', () => {
    const { markdown } = htmlToMarkdown(
      source('news-story-comment-list'),
      'https://pages.example.com/news-story-comment-list/',
      {
        includeComments: true,
      },
    );
    const section = markdown.slice(markdown.indexOf('## Comments'));
    expect(section).toContain('**Morag Lindqvist** · 2024-02-06T07:42:00+00:00\n\nTwo sailings a day');
    expect(section).toContain('**Alasdair Penhaligon** · 2024-02-06T07:42:00+00:00 · reply to Morag Lindqvist');
    // WordPress's "says:" is no part of the name.
    expect(section).not.toContain('says');
  });

  it('finds the author beside the date when no class names one (generated class names)', () => {
    const { markdown } = htmlToMarkdown(
      source('news-story-generated-classes'),
      'https://pages.example.com/news-story-generated-classes/',
      { includeComments: true },
    );
    const section = markdown.slice(markdown.indexOf('## Comments'));
    expect(section).toContain('**Priyanka Holloway** · 4 March 2024, 08:14\n\nI walk my two');
    expect(section).not.toContain('Anonymous');
  });

  it.each(['forum-topic-posts', 'forum-question-replies'])(
    '%s: a forum topic has no comments section (its posts are the content)',
    (slug) => {
      const html = source(slug);
      const url = `https://pages.example.com/${slug}/`;
      expect(htmlToMarkdown(html, url, { includeComments: true }).markdown).toBe(htmlToMarkdown(html, url).markdown);
    },
  );

  it('adds nothing to a page without comments', () => {
    const html = `<html><body><article><h1>Notes</h1>${'<p>A paragraph about the harbour and its boats, long enough to be content.</p>'.repeat(6)}</article></body></html>`;
    const url = 'https://pages.example.com/notes/';
    expect(htmlToMarkdown(html, url, { includeComments: true }).markdown).toBe(htmlToMarkdown(html, url).markdown);
  });

  it(`reads at most MAX_COMMENTS (${MAX_COMMENTS}) comments`, () => {
    const post = (n: number) =>
      `<li class="comment"><span class="author">Reader ${n}</span> <time datetime="2024-02-06">6 February 2024</time><p>Comment number ${n} on the ferry timetable, with a sentence of its own.</p><a href="?replytocom=${n}#respond">Reply</a></li>`;
    const story = '<p>The ferry timetable will be reviewed in the spring after complaints from islanders.</p>'.repeat(
      5,
    );
    const html = `<!DOCTYPE html><html><body><article><h1>Ferry</h1>${story}</article><section id="comments"><ol class="comment-list">${Array.from({ length: MAX_COMMENTS + 100 }, (_, i) => post(i)).join('')}</ol></section></body></html>`;
    const { document } = parseHTML(html);
    const comments = readComments(
      document as unknown as DomDocument,
      document.body as unknown as DomElement,
      'https://pages.example.com/',
    );
    expect(comments).toHaveLength(MAX_COMMENTS);
    expect(comments[0]).toMatchObject({ author: 'Reader 0', date: '2024-02-06' });
  });
});
