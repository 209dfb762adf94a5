/**
 * What is never content: removed from the whole document before any stage of the cascade.
 *  - comments, and elements that render no text: scripts, styles, embedded objects and
 *    media, SVG and MathML, form controls;
 *  - `<noscript>`, unless it holds a page's worth of text (see MIN_NOSCRIPT_CHARS);
 *  - elements the page hides (`hidden`, `aria-hidden="true"`, inline `display: none` or
 *    `visibility: hidden`) while they hold little text (see MAX_HIDDEN_CHARS).
 */

import type { DomElement, DomNode } from './dom.js';
import { COMMENT_NODE, isElement, tagOf, textLength } from './dom.js';

const NOISE_TAGS: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'svg', 'math', 'canvas', 'video', 'audio', 'map', 'link', 'meta', 'base', 'title',
  'input', 'select', 'textarea', 'button', 'option', 'optgroup', 'datalist', 'output', 'progress', 'meter',
]);

/**
 * A `<noscript>` with at least this much text is the page as a client without JavaScript
 * (such as this one) sees it, e.g. the whole topic of a forum built as a script app: its
 * content is kept. Shorter ones ("please enable JavaScript", tracking pixels) are dropped.
 */
export const MIN_NOSCRIPT_CHARS = 200;

/**
 * Hidden elements holding fewer characters than this are dropped (menus, tooltips, dialog
 * shells, icon labels). Larger hidden blocks are content that a script reveals: collapsed
 * tabs and accordions, "read more" remainders, segments a streaming renderer fills in (a
 * React/Next.js page can ship its whole article in a `<div hidden>`). On the benchmark,
 * dropping every hidden element cost 0.015 F1 on WCXB; this threshold keeps that.
 */
export const MAX_HIDDEN_CHARS = 200;

const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

function isHidden(element: DomElement): boolean {
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && HIDING_STYLE.test(style);
}

/** Removes comments, non-text elements and small hidden elements under `root`. */
export function removeNoise(root: DomElement): void {
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let child = node.firstChild; child !== null; ) {
      let next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (isElement(child)) {
        const tag = tagOf(child);
        if (tag === 'noscript' && textLength(child) >= MIN_NOSCRIPT_CHARS) {
          // Unwrap: its children take its place and are visited in turn.
          next = child.firstChild ?? next;
          while (child.firstChild !== null) child.parentNode?.insertBefore(child.firstChild, child);
          child.remove();
        } else if (NOISE_TAGS.has(tag) || tag === 'noscript' || (isHidden(child) && textLength(child) < MAX_HIDDEN_CHARS)) {
          child.remove();
        } else {
          stack.push(child);
        }
      }
      child = next;
    }
  }
}
