/**
 * Input bounds before the parser: one linear scan of the string counts start tags and the
 * depth the tree builder would reach; past the depth bound elements are flattened, past the
 * element bound the page is cut. On the way it leaves out the text of scripts and style
 * sheets, which no pass reads (the noise pass drops them; JSON-LD and MathJax's TeX, which
 * passes do read, stay). docs/extraction.md, "Input bounds".
 */

import { FOREIGN_ROOTS } from '../dom.js';

export interface HtmlBounds {
  /** Start tags (void elements included); the page is cut before the one past it. */
  maxElements: number;
  /** Open elements at one time, as the tree builder would nest them; deeper ones are flattened. */
  maxDepth: number;
}

/** Far above every dev page (docs/extraction.md, "Input bounds"). */
export const HTML_BOUNDS: HtmlBounds = { maxElements: 100_000, maxDepth: 512 };

export interface HtmlShape {
  elements: number;
  /** The deepest nesting kept (at most the bound). */
  depth: number;
  /** Start tags closed at once because they sat past the depth bound. */
  flattened: number;
  /** Offset of the start tag past the element bound, where the page is cut, or -1. */
  cutAt: number;
  /**
   * Whether a start tag outside `<svg>` and `<math>` has an attribute name with an ASCII
   * capital (parse.ts lower-cases them, as the HTML parser would; linkedom keeps them).
   */
  capitalNames: boolean;
  /** The values of the start tags' `class` attributes, a space between (a pass looks here for a class before it walks). */
  classes: string;
  /** The values of the start tags' `id` attributes, a space between. */
  ids: string;
}

/** What the scan notes of the start tags' attributes. */
interface TagNotes {
  capital: boolean;
  classes: string[];
  ids: string[];
}

/** Elements that never have content. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'basefont',
  'bgsound',
  'frame',
]);

/** A script whose start tag says JSON (JSON-LD) or math (MathJax's TeX): passes read its text. */
const READ_SCRIPT = /json|math/i;

/** Elements whose content is text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** Open elements that a start tag closes when they are the current one (implied end tags). */
const IMPLIED_ENDS: Record<string, ReadonlySet<string>> = {
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  tr: new Set(['td', 'th', 'tr']),
  td: new Set(['td', 'th']),
  th: new Set(['td', 'th']),
  option: new Set(['option']),
};

/** Start tags that close an open `<p>` (HTML's "close a p element" rule, the common ones). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);

const NAME_END = /[\s/>]/g;

/** The page within the bounds, and its shape; linear in the length. */
export function boundHtml(html: string, bounds: HtmlBounds = HTML_BOUNDS): { html: string; shape: HtmlShape } {
  const stack: string[] = [];
  const open = new Map<string, number>();
  // End tags still to come of elements closed at once past the depth bound.
  const flattenedOpen = new Map<string, number>();
  const pieces: string[] = [];
  let kept = 0;
  let elements = 0;
  let depth = 0;
  let flattened = 0;
  let cutAt = -1;
  const notes: TagNotes = { capital: false, classes: [], ids: [] };
  const bump = (map: Map<string, number>, name: string, by: number): void => {
    map.set(name, (map.get(name) ?? 0) + by);
  };
  const pop = (): string => {
    const name = stack.pop() as string;
    bump(open, name, -1);
    return name;
  };
  const replace = (from: number, to: number, text: string): void => {
    pieces.push(html.slice(kept, from), text);
    kept = to;
  };
  let i = html.indexOf('<');
  while (i !== -1 && i < html.length - 1) {
    const next = html.charCodeAt(i + 1);
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const comment = html.startsWith('<!--', i);
      const end = comment ? html.indexOf('-->', i + 4) : html.indexOf('>', i + 2);
      if (end === -1) break;
      i = html.indexOf('<', end + (comment ? 3 : 1));
      continue;
    }
    const closing = next === 0x2f; /* / */
    const nameStart = closing ? i + 2 : i + 1;
    if (!isLetter(html.charCodeAt(nameStart))) {
      i = html.indexOf('<', i + 1);
      continue;
    }
    NAME_END.lastIndex = nameStart;
    const nameEnd = NAME_END.exec(html)?.index ?? html.length;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    // Foreign content keeps its names' case (viewBox): only HTML tags are looked at for capitals.
    const capitals = !closing && !notes.capital && !FOREIGN_ROOTS.has(name) && !insideForeign(open);
    // An end tag's attributes are dropped by the parser.
    const tagEnd = endOfTag(html, nameEnd, closing ? undefined : notes, capitals);
    if (tagEnd === -1) break;
    if (closing) {
      if ((flattenedOpen.get(name) ?? 0) > 0) {
        // The end of an element already closed past the depth bound.
        bump(flattenedOpen, name, -1);
        replace(i, tagEnd + 1, '');
      } else if ((open.get(name) ?? 0) > 0) {
        while (pop() !== name);
      }
      // An end tag with nothing of its name open is ignored, as the tree builder does.
      i = html.indexOf('<', tagEnd + 1);
      continue;
    }
    elements += 1;
    if (elements > bounds.maxElements) {
      cutAt = i;
      break;
    }
    const ends = IMPLIED_ENDS[name];
    if (ends !== undefined) while (stack.length > 0 && ends.has(stack[stack.length - 1] as string)) pop();
    if (stack[stack.length - 1] === 'p' && CLOSES_P.has(name)) pop();
    const selfClosed = html.charCodeAt(tagEnd - 1) === 0x2f;
    const raw = RAW_TEXT.has(name) && !selfClosed;
    if (!VOID.has(name) && !selfClosed && !raw) {
      if (stack.length >= bounds.maxDepth) {
        flattened += 1;
        bump(flattenedOpen, name, 1);
        replace(tagEnd + 1, tagEnd + 1, `</${name}>`);
      } else {
        stack.push(name);
        bump(open, name, 1);
      }
    }
    depth = Math.max(depth, stack.length);
    let after = tagEnd + 1;
    if (raw) {
      // Text up to its end tag: a leaf, whatever its depth.
      const close = indexOfEndTag(html, name, after);
      if (close === -1) break;
      if (close > after && (name === 'style' || (name === 'script' && !READ_SCRIPT.test(html.slice(nameEnd, tagEnd)))))
        replace(after, close, '');
      after = close;
    }
    i = html.indexOf('<', after);
  }
  const shape = {
    elements: Math.min(elements, bounds.maxElements),
    depth,
    flattened,
    cutAt,
    capitalNames: notes.capital,
    classes: notes.classes.join(' '),
    ids: notes.ids.join(' '),
  };
  if (pieces.length === 0 && cutAt === -1) return { html, shape };
  pieces.push(html.slice(kept, cutAt === -1 ? html.length : cutAt));
  return { html: pieces.join(''), shape };
}

export function measureHtml(html: string, bounds: HtmlBounds = HTML_BOUNDS): HtmlShape {
  return boundHtml(html, bounds).shape;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Whether an `<svg>` or `<math>` is open (`open`: open elements by name). */
function insideForeign(open: ReadonlyMap<string, number>): boolean {
  for (const root of FOREIGN_ROOTS) if ((open.get(root) ?? 0) > 0) return true;
  return false;
}

/**
 * Index of the `>` that ends a tag whose name ends at `from`, read as the HTML tokenizer
 * reads attributes (HTML 13.2.5.32-40): a quote opens a value only right after `=`, spaces
 * allowed, and a `>` inside it does not end the tag. With `notes`, the values of its `class`
 * and `id` attributes are noted, and with `capitals` an ASCII capital in an attribute name
 * sets `notes.capital`.
 */
function endOfTag(html: string, from: number, notes?: TagNotes, capitals = false): number {
  // After `=`, before its value; in a value without quotes.
  let equals = false;
  let bare = false;
  // The attribute name being read; where the value of the name last read goes, and of the value being read.
  let nameStart = -1;
  let named: string[] | undefined;
  let into: string[] | undefined;
  let valueStart = 0;
  for (let j = from; j < html.length; j++) {
    const c = html.charCodeAt(j);
    const space = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
    // A name ends at white space, `=`, `/` or `>`.
    if (nameStart !== -1 && (space || c === 0x3d || c === 0x2f || c === 0x3e)) {
      named = notes === undefined ? undefined : noteFor(html, nameStart, j, notes);
      nameStart = -1;
    }
    if (c === 0x3e) {
      if (bare) into?.push(html.slice(valueStart, j));
      return j;
    }
    if (equals) {
      if (space) continue;
      equals = false;
      into = named;
      named = undefined;
      if (c === 0x22 || c === 0x27) {
        // A quoted value runs to the next quote of its kind, `>` and all.
        const close = html.indexOf(c === 0x22 ? '"' : "'", j + 1);
        if (close === -1) return -1;
        into?.push(html.slice(j + 1, close));
        into = undefined;
        j = close;
      } else {
        bare = true;
        valueStart = j;
      }
    } else if (bare) {
      // A value without quotes ends at white space (or `>`); quotes in it are its own.
      if (space) {
        into?.push(html.slice(valueStart, j));
        into = undefined;
        bare = false;
      }
    } else if (c === 0x3d) {
      equals = true;
    } else if (!space && c !== 0x2f) {
      if (nameStart === -1) {
        nameStart = j;
        named = undefined;
      }
      if (capitals && c >= 0x41 && c <= 0x5a) (notes as TagNotes).capital = true;
    }
  }
  return -1;
}

/** Where the value of the attribute named `html[start, end)` is noted: `class` and `id`, in any case. */
function noteFor(html: string, start: number, end: number, notes: TagNotes): string[] | undefined {
  const length = end - start;
  if (length === 5 && (html.charCodeAt(start) | 0x20) === 0x63 && html.slice(start, end).toLowerCase() === 'class')
    return notes.classes;
  if (length === 2 && (html.charCodeAt(start) | 0x20) === 0x69 && (html.charCodeAt(start + 1) | 0x20) === 0x64)
    return notes.ids;
  return undefined;
}

/** Index of the `</name` (any case) followed by white space, `/` or `>` that ends a raw text element, or -1. */
function indexOfEndTag(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    const after = at + 2 + name.length;
    if (after >= html.length) return -1;
    const c = html.charCodeAt(after);
    if (
      (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0x2f || c === 0x3e) &&
      html.slice(at + 2, after).toLowerCase() === name
    )
      return at;
  }
  return -1;
}
