/**
 * What is never content, removed before any stage: comments, elements that render no text,
 * skip links, avatar initials, short noscripts, small hidden elements, icon glyphs; nesting
 * past MAX_TREE_DEPTH flattened. `aria-hidden` is not hidden: it takes an element out of
 * the accessibility tree, not off the screen (WAI-ARIA 1.2). docs/extraction.md, "Noise".
 */

import type { DomElement, DomNode } from '../dom.js';
import { COMMENT_NODE, TEXT_NODE, headingLevel, isElement, nextInTree, normalizeSpace, retag, tagOf } from '../dom.js';
import type { SourceWords } from '../read/source-words.js';
import { charsUpTo, holdsOnlyText, textLengthMemo, visibleChars } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

const NOISE_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'canvas',
  'video',
  'audio',
  'map',
  'link',
  'meta',
  'base',
  'title',
  'input',
  'select',
  'textarea',
  'button',
  'option',
  'optgroup',
  'datalist',
  'output',
  'progress',
  'meter',
]);

const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/**
 * Classes that hide at every width (Tailwind, Bootstrap, Bulma, Foundation, SUIT,
 * `wt-display-none`, not `md-display-none`), unless a SHOWING_CLASS shows the element
 * again.
 */
const HIDING_CLASS =
  /(?:^|\s)(?:hidden|d-none|is-hidden|hide|(?!(?:xs|sm|md|lg|xl|xxl)-)(?:[a-z]{1,4}-)?display-none|u-hidden)(?=\s|$)/;
const DISPLAY_VALUE =
  '(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|inline-table|table-row|table-cell|table-row-group|table-header-group|table-footer-group|table-column|table-column-group|table-caption|contents|flow-root|list-item)';
const BREAKPOINT = '(?:xs|sm|md|lg|xl|xxl|mobile|tablet|desktop|widescreen)';
/**
 * A class that shows the element from some width or in some state (`md:hover:!flex`,
 * `d-md-block`); not `display-flex`, which only sets the layout.
 */
const SHOWING_CLASS = new RegExp(
  `(?:^|\\s)(?:\\S+:!?(?:[a-z]{1,4}-)?(?:display-)?${DISPLAY_VALUE}!?|d-(?:sm|md|lg|xl|xxl)-${DISPLAY_VALUE}|(?:[a-z]{1,4}-)?display-${DISPLAY_VALUE}-${BREAKPOINT}|${BREAKPOINT}-display-${DISPLAY_VALUE})(?=\\s|$)`,
);

function isHidden(element: DomElement): boolean {
  if (element.hasAttribute('hidden')) return true;
  const style = element.getAttribute('style');
  if (style !== null && HIDING_STYLE.test(style)) return true;
  const classes = element.getAttribute('class');
  return classes !== null && HIDING_CLASS.test(classes) && !SHOWING_CLASS.test(classes);
}

/**
 * Whether a `<button>` labels content (an accordion's or FAQ's toggle): it holds a heading,
 * sits in one, or opens a disclosure with a question. `unwrap` it, make it a `block` (a
 * question: "Is it free?Yes" otherwise), or null: drop it.
 */
function labelsContent(button: DomElement): 'unwrap' | 'block' | null {
  const label = readLabel(button);
  if (label === null || label.text === '') return null;
  if (label.heading) return 'unwrap';
  const disclosure = button.hasAttribute('aria-expanded') || button.hasAttribute('aria-controls');
  let ancestor = button.parentElement;
  for (
    let level = 0;
    ancestor !== null && level < THRESHOLDS.MAX_TOGGLE_HEADING_DEPTH;
    level++, ancestor = ancestor.parentElement
  ) {
    // In a heading: its section's toggle, or a control beside the heading's words ("Reviews
    // [Write a review]"), which goes.
    if (headingLevel(ancestor) > 0)
      return disclosure || holdsOnlyText(ancestor, visibleChars(label.text), THRESHOLDS.MAX_BUTTON_LABEL_NODES)
        ? 'unwrap'
        : null;
  }
  return disclosure && label.text.endsWith('?') ? 'block' : null;
}

/**
 * A button's label and whether it holds a heading, by a bounded walk; null when it holds
 * more than a label.
 */
function readLabel(button: DomElement): { text: string; heading: boolean } | null {
  let text = '';
  let heading = false;
  let nodes = 0;
  for (let node = button.firstChild; node !== null; node = nextInTree(node, button, false)) {
    if (++nodes > THRESHOLDS.MAX_BUTTON_LABEL_NODES) return null;
    if (node.nodeType === TEXT_NODE) {
      text += node.textContent ?? '';
      if (text.length > 4 * THRESHOLDS.MAX_BUTTON_LABEL_CHARS) return null;
    } else if (isElement(node) && headingLevel(node) > 0) {
      heading = true;
    }
  }
  text = normalizeSpace(text);
  return text.length > THRESHOLDS.MAX_BUTTON_LABEL_CHARS ? null : { text, heading };
}

/** An icon font's class word: Material Icons / Symbols, Font Awesome, Glyphicons, `icon`. */
const ICON_CLASS =
  /(?:^|[\s_-])(?:material-icons(?:-[a-z]+)?|material-symbols(?:-[a-z]+)?|glyphicon|fa|fas|far|fab|icon|icons)(?=$|[\s_-])/i;
/** The name an icon font draws as a ligature: one lower-case word or snake_case name. */
const LIGATURE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * An icon font's glyph (`aria-hidden`, a font's class or a ligature name such as
 * `arrow_forward`): as text, a stray word.
 */
function isFontIcon(element: DomElement): boolean {
  if (element.getAttribute('aria-hidden')?.trim().toLowerCase() !== 'true') return false;
  const chars = charsUpTo(element, THRESHOLDS.MAX_ICON_CHARS);
  if (chars === 0 || chars > THRESHOLDS.MAX_ICON_CHARS) return false;
  return ICON_CLASS.test(element.getAttribute('class') ?? '') || LIGATURE.test(normalizeSpace(element.textContent));
}

const AVATAR_WORD = /(?:^|[-_\s])avatar(?=$|[-_\s])|[a-z]Avatar|^Avatar/;

/**
 * A default avatar's initials, a stray linked letter before each author (XenForo,
 * Discourse); found here, as Readability drops class names.
 */
function isAvatarInitials(element: DomElement): boolean {
  // A class names it (`avatar--m`); the substring test spares the pattern on most elements.
  const words = element.getAttribute('class');
  if (words === null || !words.includes('vatar') || !AVATAR_WORD.test(words)) return false;
  const chars = charsUpTo(element, THRESHOLDS.MAX_AVATAR_CHARS);
  return chars > 0 && chars <= THRESHOLDS.MAX_AVATAR_CHARS;
}

const SKIP_LINK_TEXT = /^(?:skip|jump)\s+(?:to|over|past|navigation|nav|links|menu)\b/i;

/** A skip link past the menus (WCAG 2.4.1) that the style sheet hides. */
function isSkipLink(link: DomElement): boolean {
  if (!(link.getAttribute('href') ?? '').trim().startsWith('#')) return false;
  const label = readLabel(link);
  if (label === null || !SKIP_LINK_TEXT.test(label.text)) return false;
  // In a paragraph of prose ("..., skip to the results below") it is a sentence's link.
  const parent = link.parentElement;
  return (
    parent === null ||
    !PROSE_BLOCKS.has(tagOf(parent)) ||
    holdsOnlyText(parent, visibleChars(label.text), THRESHOLDS.MAX_BUTTON_LABEL_NODES)
  );
}

const PROSE_BLOCKS: ReadonlySet<string> = new Set(['p', 'li', 'td', 'dd', 'blockquote', 'figcaption']);

/**
 * Removes the noise under `root` (see the module comment), unwraps noscripts that hold the
 * page and buttons that label content, and flattens nesting past MAX_TREE_DEPTH as a
 * browser does. The words of the page's source (`words`) gate the avatar test.
 */
export function removeNoise(root: DomElement, words?: SourceWords): void {
  // Avatars only where the source names one: a string search is far cheaper than a class
  // test per element.
  const avatars = words === undefined || words.has('avatar');
  // Text lengths of hidden elements and noscripts, each subtree read once (text-stats.ts).
  const textLength = textLengthMemo();
  const stack: DomNode[] = [root];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()! + 1;
    for (let child = node.firstChild; child !== null;) {
      let next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (isElement(child)) {
        const tag = tagOf(child);
        const kept =
          tag === 'noscript'
            ? textLength(child) >= THRESHOLDS.MIN_NOSCRIPT_CHARS
              ? 'unwrap'
              : null
            : tag === 'button' && !isHidden(child)
              ? labelsContent(child)
              : null;
        if (kept === 'block' && child.ownerDocument !== null) {
          next = retag(child.ownerDocument, child, 'div');
        } else if (kept !== null) {
          next = child.firstChild ?? next;
          while (child.firstChild !== null) child.parentNode?.insertBefore(child.firstChild, child);
          child.remove();
        } else if (
          NOISE_TAGS.has(tag) ||
          tag === 'noscript' ||
          (tag === 'a' && isSkipLink(child)) ||
          (avatars && isAvatarInitials(child)) ||
          isFontIcon(child) ||
          (isHidden(child) && textLength(child) < THRESHOLDS.MAX_HIDDEN_CHARS)
        ) {
          child.remove();
        } else if (depth > THRESHOLDS.MAX_TREE_DEPTH) {
          // Too deep: its children move out after it, at this depth, as a browser's parser
          // places them.
          next = child.firstChild ?? next;
          while (child.lastChild !== null) child.parentNode?.insertBefore(child.lastChild, child.nextSibling);
        } else {
          stack.push(child);
          depths.push(depth);
        }
      }
      child = next;
    }
  }
}
