/**
 * What is never content: removed from the whole document before any stage of the cascade.
 *  - comments, and elements that render no text: scripts, styles, embedded objects and
 *    media, SVG and MathML, form controls (but a button that labels an accordion section
 *    or an FAQ question is unwrapped, see labelsContent);
 *  - skip links ("Skip to main content", see isSkipLink) and the initials of default
 *    avatars (see isAvatarInitials);
 *  - `<noscript>`, unless it holds a page's worth of text (see MIN_NOSCRIPT_CHARS);
 *  - elements the page hides (`hidden`, inline `display: none` or `visibility: hidden`, a
 *    CSS framework's hiding class, see HIDING_CLASS) while they hold little text (see
 *    MAX_HIDDEN_CHARS). Not `aria-hidden="true"`: it takes an element out of the
 *    accessibility tree, not off the screen (WAI-ARIA 1.2), and pages
 *    put it on visible text that a screen reader would hear twice: the teaser link of a
 *    news card beside its headline link, a price drawn beside its spoken form. Dropping it
 *    as hidden took those texts out (WCXB dev: collections 0.710 -> 0.727 when they were
 *    kept; Readability, stage 1, still leaves them out by its own rule). An icon font's
 *    glyph marked so goes (see isFontIcon).
 */

import type { DomElement, DomNode } from './dom.js';
import { COMMENT_NODE, TEXT_NODE, headingLevel, isElement, nextInTree, normalizeSpace, retag, tagOf } from './dom.js';
import { charsUpTo, holdsOnlyText, textLengthMemo, visibleChars } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';

const NOISE_TAGS: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'svg', 'math', 'canvas', 'video', 'audio', 'map', 'link', 'meta', 'base', 'title',
  'input', 'select', 'textarea', 'button', 'option', 'optgroup', 'datalist', 'output', 'progress', 'meter',
]);




const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/**
 * The utility classes that hide an element at every width in the common CSS frameworks
 * (we apply no style sheet, but these say what they do): Tailwind's and Bootstrap 3's
 * `hidden`, Bootstrap 4/5's `d-none`, Bulma's `is-hidden`, Bootstrap 2's and Foundation's
 * `hide`, the `display-none` of design systems that name classes for their property
 * (with a short prefix: Etsy's `wt-display-none`; not a width's, `md-display-none`, which
 * hides from that width up only) and SUIT's `u-hidden`. Not when the same element
 * carries a class that shows it from some width or in some state (SHOWING_CLASS:
 * `hidden md:block`, `d-none d-lg-flex`, `hidden group-hover:block`, `display-none
 * desktop:display-block`, `wt-display-none wt-display-flex-lg`): a desktop reader may
 * see it. Only small elements go, as for the `hidden` attribute (MAX_HIDDEN_CHARS): form
 * errors, spinners ("Working..."), empty carts, share buttons, machine-readable dates
 * (864 elements on 134 dev pages, before the `display-none` kind was added). WCXB dev
 * 0.8763 -> 0.8767 (collection 0.7485 -> 0.7504, forum +0.0014, listing +0.0010), no
 * page type lower, scrapinghub unchanged. The `display-none` kind and `u-hidden` later
 * changed one page: a shop's hidden "There was a problem calculating your shipping"
 * (product +0.0004).
 */
const HIDING_CLASS = /(?:^|\s)(?:hidden|d-none|is-hidden|hide|(?!(?:xs|sm|md|lg|xl|xxl)-)(?:[a-z]{1,4}-)?display-none|u-hidden)(?=\s|$)/;
const DISPLAY_VALUE =
  '(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|inline-table|table-row|table-cell|table-row-group|table-header-group|table-footer-group|table-column|table-column-group|table-caption|contents|flow-root|list-item)';
/** The widths a class names for what it does from there up. */
const BREAKPOINT = '(?:xs|sm|md|lg|xl|xxl|mobile|tablet|desktop|widescreen)';
/**
 * A Tailwind variant chain ending in a display (`md:block`, `md:hover:!flex`, `md:block!`;
 * USWDS's `desktop:display-block`), Bootstrap's `d-md-block`, or a display class of the
 * `display-none` kind at a width (`wt-display-flex-lg`, `md-display-block`). Not a display
 * class without a width (`display-flex`): it sets the layout the element has when shown.
 */
const SHOWING_CLASS = new RegExp(
  `(?:^|\\s)(?:\\S+:!?(?:[a-z]{1,4}-)?(?:display-)?${DISPLAY_VALUE}!?|d-(?:sm|md|lg|xl|xxl)-${DISPLAY_VALUE}|(?:[a-z]{1,4}-)?display-${DISPLAY_VALUE}-${BREAKPOINT}|${BREAKPOINT}-display-${DISPLAY_VALUE})(?=\\s|$)`,
);

/** Hidden from view: the `hidden` attribute, an inline style or a framework class that hides it. */
function isHidden(element: DomElement): boolean {
  if (element.hasAttribute('hidden')) return true;
  const style = element.getAttribute('style');
  if (style !== null && HIDING_STYLE.test(style)) return true;
  const classes = element.getAttribute('class');
  return classes !== null && HIDING_CLASS.test(classes) && !SHOWING_CLASS.test(classes);
}

/**
 * Whether a `<button>` labels content rather than working the page: the toggle of an
 * accordion or FAQ, whose label is the section's heading or the question its panel
 * answers. Such a button holds a heading, or sits in one as its toggle (the WAI-ARIA
 * accordion pattern, `<h3><button aria-expanded>...</button></h3>`, or a button that is
 * the heading's whole text), or it controls a disclosure (`aria-expanded` /
 * `aria-controls`) and its label is a question. Hidden ones are not. Its children are kept;
 * dropping it, as other buttons are dropped, left the answers without their questions.
 * Measured on the WCXB dev split: 64 of the 309 disclosure buttons of four words or more
 * are in the ground truth (FAQ questions), against 22 of the 867 other buttons.
 *
 * Returns how to keep it: `unwrap` (its children take its place: it holds a heading, or
 * sits in one), `block` (a question: it becomes a block of its own, so that an answer
 * written inline after it does not run into it, "Is it free?Yes"), or null (dropped).
 */
function labelsContent(button: DomElement): 'unwrap' | 'block' | null {
  const label = readLabel(button);
  if (label === null || label.text === '') return null;
  if (label.heading) return 'unwrap';
  const disclosure = button.hasAttribute('aria-expanded') || button.hasAttribute('aria-controls');
  let ancestor = button.parentElement;
  for (let level = 0; ancestor !== null && level < THRESHOLDS.MAX_TOGGLE_HEADING_DEPTH; level++, ancestor = ancestor.parentElement) {
    // In a heading: the toggle of its section, or a control beside the heading's own words
    // ("Reviews [Write a review]"), which stays out.
    if (headingLevel(ancestor) > 0) return disclosure || holdsOnlyText(ancestor, visibleChars(label.text), THRESHOLDS.MAX_BUTTON_LABEL_NODES) ? 'unwrap' : null;
  }
  return disclosure && label.text.endsWith('?') ? 'block' : null;
}

/**
 * A button's label (white space collapsed) and whether it holds a heading, read with a
 * bounded walk: null when the button holds more than a label does (over MAX_BUTTON_LABEL_NODES
 * nodes or MAX_BUTTON_LABEL_CHARS characters), so that a page of nested or huge buttons
 * costs no more than its size.
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
const ICON_CLASS = /(?:^|[\s_-])(?:material-icons(?:-[a-z]+)?|material-symbols(?:-[a-z]+)?|glyphicon|fa|fas|far|fab|icon|icons)(?=$|[\s_-])/i;
/** The name an icon font draws as a ligature: one lower-case word or snake_case name. */
const LIGATURE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * An icon drawn by an icon font, hidden from screen readers: `aria-hidden="true"` (which
 * noise removal does not take for hidden: see the module comment) on an element whose
 * class names an icon font, or whose text is one lower-case name (Material Icons draws
 * `arrow_forward`, `expand_more`, `shopping_cart` from those words). As text it is a stray
 * word beside every button and link: "Durable hose arrow_forward".
 */
function isFontIcon(element: DomElement): boolean {
  if (element.getAttribute('aria-hidden')?.trim().toLowerCase() !== 'true') return false;
  const chars = charsUpTo(element, THRESHOLDS.MAX_ICON_CHARS);
  if (chars === 0 || chars > THRESHOLDS.MAX_ICON_CHARS) return false;
  return ICON_CLASS.test(element.getAttribute('class') ?? '') || LIGATURE.test(normalizeSpace(element.textContent));
}

/** `avatar` as a word of a class (`avatar`, `avatar--m`, `user-avatar`, `AvatarBox`). */
const AVATAR_WORD = /(?:^|[-_\s])avatar(?=$|[-_\s])|[a-z]Avatar|^Avatar/;

/**
 * A default avatar: the user's initial drawn in a coloured circle where no photo was
 * uploaded (XenForo, Discourse, vBulletin themes). As text it is a stray letter linked to
 * the profile before each post's author name: `[J](...) [JosephF](...)` (six WCXB dev
 * forum and listing pages; forum +0.001). Found here, as Readability drops class names.
 */
function isAvatarInitials(element: DomElement): boolean {
  // A class names it (`avatar--m`); the substring test spares the pattern on most elements.
  const words = element.getAttribute('class');
  if (words === null || !words.includes('vatar') || !AVATAR_WORD.test(words)) return false;
  const chars = charsUpTo(element, THRESHOLDS.MAX_AVATAR_CHARS);
  return chars > 0 && chars <= THRESHOLDS.MAX_AVATAR_CHARS;
}

/** "Skip to main content", "Skip navigation", "Jump to content", ... */
const SKIP_LINK_TEXT = /^(?:skip|jump)\s+(?:to|over|past|navigation|nav|links|menu)\b/i;

/**
 * A skip link: an in-page link (`href="#..."`) that lets keyboard users past the menus
 * (WCAG 2.4.1, "Bypass Blocks"). Visually hidden by the style sheet, which we do not
 * read, it otherwise opened the Markdown of seven WCXB dev pages.
 */
function isSkipLink(link: DomElement): boolean {
  if (!(link.getAttribute('href') ?? '').trim().startsWith('#')) return false;
  const label = readLabel(link);
  if (label === null || !SKIP_LINK_TEXT.test(label.text)) return false;
  // In a paragraph of prose ("..., skip to the results below") it is a sentence's link.
  const parent = link.parentElement;
  return parent === null || !PROSE_BLOCKS.has(tagOf(parent)) || holdsOnlyText(parent, visibleChars(label.text), THRESHOLDS.MAX_BUTTON_LABEL_NODES);
}

/** Blocks of running text, where a skip link's words can be a sentence's. */
const PROSE_BLOCKS: ReadonlySet<string> = new Set(['p', 'li', 'td', 'dd', 'blockquote', 'figcaption']);


/**
 * Removes comments, non-text elements, skip links, avatar initials and small hidden
 * elements under `root`, unwraps the noscripts that hold the page and the buttons that
 * label content, and flattens nesting past MAX_TREE_DEPTH: an element that deep keeps its
 * place, its children follow it as siblings (and are flattened in turn), as in a browser.
 * `source`, the page's HTML when given, gates the avatar test.
 */
export function removeNoise(root: DomElement, source?: string): void {
  // Avatars are looked for only where the source names one (a string search is far
  // cheaper than a class test on every element).
  const avatars = source === undefined || /avatar/i.test(source);
  // Text lengths of hidden elements and noscripts, each subtree read once (text-stats.ts).
  const textLength = textLengthMemo();
  const stack: DomNode[] = [root];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()! + 1;
    for (let child = node.firstChild; child !== null; ) {
      let next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (isElement(child)) {
        const tag = tagOf(child);
        const kept = tag === 'noscript' ? (textLength(child) >= THRESHOLDS.MIN_NOSCRIPT_CHARS ? 'unwrap' : null) : tag === 'button' && !isHidden(child) ? labelsContent(child) : null;
        if (kept === 'block' && child.ownerDocument !== null) {
          // A block of its own: a <div> takes its place and children, and is visited next.
          next = retag(child.ownerDocument, child, 'div');
        } else if (kept !== null) {
          // Unwrap: its children take its place and are visited in turn.
          next = child.firstChild ?? next;
          while (child.firstChild !== null) child.parentNode?.insertBefore(child.firstChild, child);
          child.remove();
        } else if (NOISE_TAGS.has(tag) || tag === 'noscript' || (tag === 'a' && isSkipLink(child)) || (avatars && isAvatarInitials(child)) || isFontIcon(child) || (isHidden(child) && textLength(child) < THRESHOLDS.MAX_HIDDEN_CHARS)) {
          child.remove();
        } else if (depth > THRESHOLDS.MAX_TREE_DEPTH) {
          // Too deep: its children move out after it and are visited next, at this depth,
          // as a browser's parser places them (the empty element still parts blocks).
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
