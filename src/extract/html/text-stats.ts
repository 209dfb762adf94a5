/**
 * Text statistics of every element of a subtree in one iterative post-order walk:
 * characters (white space not counted), those inside links, and links. The thresholds are
 * stated in these units.
 */

import type { DomElement, DomNode } from './dom.js';
import { CDATA_SECTION_NODE, TEXT_NODE, isElement, nextInTree, tagOf } from './dom.js';
import { THRESHOLDS } from './thresholds.js';

export interface TextStats {
  chars: number;
  /** Those of them inside an `<a href>`. */
  linkChars: number;
  links: number;
  /** Those of them with fewer than SHORT_LINK_CHARS characters (menu entries, tags, pages). */
  shortLinks: number;
}

/** Characters that are not white space (ASCII, NBSP and the Unicode spaces). */
export function visibleChars(text: string | null): number {
  if (!text) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII first: most characters of most pages.
    if (c < 127) {
      if (c > 32) n++;
    } else if (
      c !== 160 &&
      !(c >= 0x2000 && c <= 0x200a) &&
      c !== 0x3000 &&
      c !== 0x2028 &&
      c !== 0x2029 &&
      c !== 0x202f &&
      c !== 0x205f &&
      c !== 0x1680 &&
      c !== 0xfeff
    )
      n++;
  }
  return n;
}

/** Stats of every element under (and including) `root`; iterative, for absurdly deep pages. */
export function computeTextStats(root: DomElement): Map<DomElement, TextStats> {
  const stats = new Map<DomElement, TextStats>();
  interface Frame {
    element: DomElement;
    inLink: boolean;
    isLink: boolean;
    own: TextStats;
    next: DomNode | null;
  }
  const open = (element: DomElement, inLink: boolean): Frame => ({
    element,
    inLink,
    isLink: !inLink && tagOf(element) === 'a' && element.hasAttribute('href'),
    own: { chars: 0, linkChars: 0, links: 0, shortLinks: 0 },
    next: element.firstChild,
  });
  const stack: Frame[] = [open(root, false)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.next;
    if (child !== null) {
      frame.next = child.nextSibling;
      if (child.nodeType === TEXT_NODE) {
        const n = visibleChars(child.textContent);
        frame.own.chars += n;
        if (frame.inLink || frame.isLink) frame.own.linkChars += n;
      } else if (isElement(child)) {
        stack.push(open(child, frame.inLink || frame.isLink));
      }
      continue;
    }
    stack.pop();
    const own = frame.own;
    if (frame.isLink && own.chars > 0) {
      own.links += 1;
      if (own.chars < THRESHOLDS.SHORT_LINK_CHARS) own.shortLinks += 1;
    }
    stats.set(frame.element, own);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.own.chars += own.chars;
      parent.own.linkChars += own.linkChars;
      parent.own.links += own.links;
      parent.own.shortLinks += own.shortLinks;
    }
  }
  return stats;
}

/**
 * The characters under `root` counted no further than just past `limit`: a short block
 * needs no walk of a long one.
 */
export function charsUpTo(root: DomNode, limit: number): number {
  let n = 0;
  for (let node: DomNode | null = root.firstChild; node !== null; node = nextInTree(node, root, !isElement(node))) {
    if (node.nodeType !== TEXT_NODE) continue;
    n += visibleChars(node.textContent);
    if (n > limit) return n;
  }
  return n;
}

/** A subtree's text as dom.ts's `textLength` sees it, in a form that composes. */
interface TextRun {
  visible: number;
  gaps: number;
  /** No visible character: then `leading` says whether it holds any white space. */
  empty: boolean;
  leading: boolean;
  trailing: boolean;
}

const NO_TEXT: TextRun = { visible: 0, gaps: 0, empty: true, leading: false, trailing: false };
const WHITE_SPACE = /[\s\u00a0]+/;

function textRun(text: string): TextRun {
  const pieces = text.split(WHITE_SPACE);
  let visible = 0;
  let words = 0;
  for (const piece of pieces) {
    if (piece !== '') {
      visible += piece.length;
      words++;
    }
  }
  if (words === 0) return { ...NO_TEXT, leading: text !== '', trailing: text !== '' };
  return {
    visible,
    gaps: words - 1,
    empty: false,
    leading: pieces[0] === '',
    trailing: pieces[pieces.length - 1] === '',
  };
}

function joinRuns(a: TextRun, b: TextRun): TextRun {
  if (a.empty)
    return b.empty
      ? { ...NO_TEXT, leading: a.leading || b.leading, trailing: a.leading || b.leading }
      : { ...b, leading: b.leading || a.leading };
  if (b.empty) return { ...a, trailing: a.trailing || b.leading };
  return {
    visible: a.visible + b.visible,
    gaps: a.gaps + b.gaps + (a.trailing || b.leading ? 1 : 0),
    empty: false,
    leading: a.leading,
    trailing: b.trailing,
  };
}

/**
 * dom.ts's `textLength` for one tree walked top down (noise.ts), each subtree measured once
 * (per element, a deep nest was read once per level); right while an element is asked about
 * before its children are touched.
 */
export function textLengthMemo(): (root: DomNode) => number {
  const memo = new Map<DomNode, TextRun>();
  const runOf = (node: DomNode): TextRun => {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) return textRun(node.textContent ?? '');
    return memo.get(node) ?? NO_TEXT;
  };
  return (root) => {
    if (!memo.has(root)) {
      // Post-order without recursion (nests can be tens of thousands deep).
      const stack: DomNode[] = [root];
      const opened = new Set<DomNode>();
      while (stack.length > 0) {
        const node = stack[stack.length - 1]!;
        if (!opened.has(node)) {
          opened.add(node);
          for (let child = node.firstChild; child !== null; child = child.nextSibling) {
            if (isElement(child) && !memo.has(child)) stack.push(child);
          }
          continue;
        }
        stack.pop();
        let run = NO_TEXT;
        for (let child = node.firstChild; child !== null; child = child.nextSibling) run = joinRuns(run, runOf(child));
        memo.set(node, run);
      }
    }
    const run = memo.get(root)!;
    return run.visible + run.gaps;
  };
}

/** Elements that show something without text (not SVG: beside a label it is an icon). */
const SHOWS_WITHOUT_TEXT: ReadonlySet<string> = new Set([
  'img',
  'picture',
  'video',
  'audio',
  'canvas',
  'iframe',
  'object',
  'embed',
  'table',
  'input',
  'select',
  'textarea',
]);

/**
 * Whether `root` shows nothing but `chars` characters of text; no past `maxNodes` nodes, so
 * it stays cheap.
 */
export function holdsOnlyText(root: DomNode, chars: number, maxNodes: number): boolean {
  let n = 0;
  let nodes = 0;
  for (let node: DomNode | null = root.firstChild; node !== null; node = nextInTree(node, root, !isElement(node))) {
    if (++nodes > maxNodes) return false;
    if (node.nodeType === TEXT_NODE) {
      n += visibleChars(node.textContent);
      if (n > chars) return false;
    } else if (isElement(node) && SHOWS_WITHOUT_TEXT.has(tagOf(node))) {
      return false;
    }
  }
  return true;
}

export function linkDensity(stats: TextStats | undefined): number {
  return stats === undefined || stats.chars === 0 ? 0 : stats.linkChars / stats.chars;
}
