/**
 * The `data-md-*` marks passes leave on elements for later ones: what a pass reads before a
 * stage can lose it (Readability strips classes, drops MathML and form controls) travels to
 * the Markdown writer.
 */

import type { DomElement } from './dom.js';
import { descendants } from './dom.js';

/** The prefix every mark shares; a page's own attributes of that name are dropped (dropOwnMarks). */
export const MARK_PREFIX = 'data-md-';

/** On a `<pre>`: the code's language (code-blocks.ts), for the fence's info string. */
export const LANGUAGE_MARK = 'data-md-lang';
/** On an `<img>`: its caption (captions.ts), written as the image's title. */
export const CAPTION_MARK = 'data-md-caption';
/** On a formula's placeholder: its TeX (math.ts) ... */
export const MATH_TEX_MARK = 'data-md-tex';
/** ... and that it is a display formula ... */
export const MATH_DISPLAY_MARK = 'data-md-display';
/** ... or an inline one that follows another with nothing written between them. */
export const MATH_SPACED_MARK = 'data-md-spaced';
/** On a task's placeholder: `x` for a checked box, a space for an empty one (task-lists.ts). */
export const TASK_MARK = 'data-md-task';
/**
 * On a heading: its level in the page, where a stage renamed it (Readability makes each
 * `<h1>` of the article an `<h2>`).
 */
export const HEADING_LEVEL_MARK = 'data-md-level';

/** On the run of a comment thread that may follow an article (beside-article.ts) ... */
export const THREAD_MARK = 'data-md-thread';
/** ... on a body that holds one (a copy of the body need not be walked to know it holds none) ... */
export const HOLDS_THREAD_MARK = 'data-md-holds-thread';
/** ... and on a teaser: an item of a run that opens with a headline linking elsewhere. */
export const TEASER_MARK = 'data-md-teaser';

/**
 * Takes out the page's own attributes named as ours: their values are written as they are,
 * so `data-md-tex="# Heading"` would put raw Markdown in the output.
 */
export function dropOwnMarks(root: DomElement): void {
  for (const element of [root, ...descendants(root)]) {
    for (const name of element.getAttributeNames()) {
      if (name.startsWith(MARK_PREFIX)) element.removeAttribute(name);
    }
  }
}
