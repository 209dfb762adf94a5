/**
 * The chosen content -> Markdown: Turndown with GFM tables (tables.ts) and our rules; block
 * markers escaped only where a line starts (clean/escape-line-starts.ts). What each rule writes and why:
 * docs/extraction.md, "Markdown".
 */

import TurndownService from 'turndown';
import { addBrListRule } from './br-lists.js';
import { fenceFor } from '../prepare/code-blocks.js';
import {
  CAPTION_MARK,
  HEADING_LEVEL_MARK,
  LANGUAGE_MARK,
  MATH_DISPLAY_MARK,
  MATH_SPACED_MARK,
  MATH_TEX_MARK,
  TASK_MARK,
} from '../marks.js';
import { enclosedBy, insideEmphasis, unmark, withoutMarks } from '../clean/escape-line-starts.js';
import { caretSuperscript } from '../clean/inline-code.js';
import type { DomElement, DomNode } from '../dom.js';
import {
  CDATA_SECTION_NODE,
  TEXT_NODE,
  VERBATIM_TAGS,
  descendants,
  headingLevel,
  normalizeSpace,
  tagOf,
  walk,
} from '../dom.js';
import { addTableRules } from '../clean/tables.js';
import { INVISIBLE } from './tidy.js';
import { absoluteImage, absoluteLink, isPermalinkSign } from '../urls.js';

/** Attributes that lazy-loading scripts read the real image address from, best first. */
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-url', 'data-srcset', 'srcset'];

/** Ordinal suffixes set as superscripts: 1st, 2nd, 3rd, 4th; French 1er, 2e, 2ème; Spanish 1º, 1ª. */
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th|er|re|e|ème|eme|o|a|º|ª)$/i;
/** A whole amount of money just before a superscript, whose cents it then is (`$549<sup>00</sup>`). */
const WHOLE_AMOUNT = /[$€£¥]\s?\d[\d,]*$/;

function textBefore(node: DomNode): string {
  for (let at: DomNode | null = node; at !== null; at = at.parentNode) {
    const previous = at.previousSibling;
    if (previous !== null) return previous.textContent ?? '';
  }
  return '';
}

function imageSource(img: DomElement): string | null | undefined {
  const src = img.getAttribute('src')?.trim();
  if (src && !src.startsWith('data:')) return src;
  for (const name of LAZY_SOURCES) {
    const value = img.getAttribute(name)?.trim();
    // srcset-style values: the first candidate's URL.
    if (value) return value.split(/\s*,\s*/)[0]?.split(/\s+/)[0];
  }
  return src;
}

function escapeDestination(url: string): string {
  return url.replace(/([<>()])/g, '\\$1');
}

/** Link text on one line: block content inside a link (cards) loses its block markers. */
function inlineText(content: string): string {
  if (!content.includes('\n')) return content.trim();
  return content
    .split('\n')
    .map((line) => line.trim().replace(/^(?:#{1,6}\s+|>\s*|[-*+]\s+)/, ''))
    .filter((line) => line !== '')
    .join(' ');
}

const BLOCK_START = /^(?:#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s|>|```|~~~|\|)/;

/**
 * Bold or italic `content` between `delimiter`s, per paragraph, edge white space outside:
 * emphasis cannot span a blank line nor open beside white space (CommonMark 6.2).
 */
function delimit(raw: string, delimiter: string): string {
  // Invisible characters (tidy.ts removes them later) would hide a `<br>` at the edge.
  const content = raw.replace(INVISIBLE, '');
  if (content.trim() === '') return '';
  // A code block inside bold or italics stays as it is: its blank lines are the code's.
  if (/^ {0,3}(?:```|~~~)/m.test(content)) return content;
  return content
    .split(/(\n[ \t]*\n\s*)/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const core = part.trim();
      if (core === '' || BLOCK_START.test(core)) return part;
      // Trimmed, not matched: lazy matching is quadratic on long runs of white space.
      const lead = part.slice(0, part.length - part.trimStart().length);
      const trail = part.slice(part.trimEnd().length);
      return `${lead}${delimiter}${core}${delimiter}${trail}`;
    })
    .join('');
}

function isAfterTerm(element: DomElement): boolean {
  const previous = element.previousElementSibling;
  return previous !== null && tagOf(previous) === 'dt' && normalizeSpace(previous.textContent) !== '';
}

/**
 * Whether the `<dd>` follows a `<dt>` with text, past other `<dd>`s (remembered in
 * `known`).
 */
function definesTerm(dd: DomElement, known: WeakMap<DomElement, boolean>): boolean {
  const chain: DomElement[] = [];
  let answer: boolean | undefined;
  for (let at: DomElement = dd; answer === undefined;) {
    answer = known.get(at);
    if (answer !== undefined) break;
    chain.push(at);
    const previous = at.previousElementSibling;
    if (previous !== null && tagOf(previous) === 'dd') at = previous;
    else answer = isAfterTerm(at);
  }
  for (const element of chain) known.set(element, answer);
  return answer;
}

/**
 * A `<` that could open raw HTML or an autolink (CommonMark 6.5, 6.6): any not before white
 * space; escaped, no `>` closes a tag.
 */
const TAG_OPEN = /<(?!\s)/g;

/** `1) ` opens a list as `1. ` does (CommonMark 5.2); Turndown escapes only the latter. */
const PAREN_LIST_START = /^(\d{1,9})\)(?= )/;

const STRIKETHROUGH_TAGS: ReadonlySet<string> = new Set(['del', 's', 'strike']);

const TILDE_AT_EDGE = /(?<=^\s*|\n[ \t]*\n\s*)~|(?<!\\)~(?=\s*(?:\n[ \t]*\n|$))/g;

/** `&` before what reads as a character reference (`&amp;nbsp;` shows `&nbsp;`, not a space). */
const ENTITY_LIKE = /&(?=#?[A-Za-z0-9]+;)/g;

const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

/** The largest number CommonMark reads as an ordered list item's (nine digits, no sign: 5.2). */
const MAX_LIST_NUMBER = 999_999_999;

function listNumber(value: string | null): number | null {
  if (value === null || !/^\s*[-+]?\d+/.test(value)) return null;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The number each item of an `<ol>` shows (HTML 4.4.5, 4.4.8): from `start` (1, or the item
 * count when `reversed`), one more (or less) each item, unless its `value` sets it.
 */
function listOrdinals(list: DomElement): Map<DomElement, number> {
  // Its items: the `<li>`s it owns, wrapped or not (4.4.8).
  const items = descendants(list, LIST_ITEM).filter((item) => listOwner(item) === list);
  const reversed = list.hasAttribute('reversed');
  const step = reversed ? -1 : 1;
  let next = listNumber(list.getAttribute('start')) ?? (reversed ? items.length : 1);
  const numbers = new Map<DomElement, number>();
  for (const item of items) {
    const ordinal = listNumber(item.getAttribute('value')) ?? next;
    numbers.set(item, ordinal);
    next = ordinal + step;
  }
  // A number CommonMark would not read (negative, ten digits) would split the list:
  // numbered from 1.
  if ([...numbers.values()].some((n) => n < 0 || n > MAX_LIST_NUMBER))
    items.forEach((item, i) => numbers.set(item, i + 1));
  return numbers;
}

const LIST_ITEM: ReadonlySet<string> = new Set(['li']);

function listOwner(item: DomElement): DomElement | null {
  return item.parentElement?.closest('ol, ul') ?? null;
}

function carries(name: string): TurndownService.FilterFunction {
  return (node) => (node as unknown as DomElement).hasAttribute?.(name) === true;
}

function buildService(base: string | null, root: DomElement): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    hr: '---',
    br: '',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  addTableRules(service);
  // Before the other rules, which take precedence over it (a display formula's `<p>`).
  addBrListRule(service);
  // An intraword `_` cannot open or close emphasis (CommonMark 6.2): `search_label` stays
  // as it reads.
  const escape = service.escape.bind(service);
  // On a page with formulas a `$` of the text is escaped: `$25 and $x$` would read as one
  // formula.
  const dollars = root.querySelector(`[${MATH_TEX_MARK}]`) !== null;
  service.escape = (text: string) => {
    const escaped = escape(text)
      .replace(INTRAWORD_UNDERSCORE, '_')
      .replace(TAG_OPEN, '\\<')
      .replace(ENTITY_LIKE, '\\&')
      .replace(PAREN_LIST_START, '$1\\)');
    return dollars ? escaped.replace(/\$/g, '\\$') : escaped;
  };

  // Rules added later take precedence over Turndown's own.
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = inlineText(content);
      if (text === '') return '';
      const heading = node as unknown as DomElement;
      // Only an <h2> that was an <h1> goes back (the page could set the attribute itself).
      const wasH1 = tagOf(heading) === 'h2' && heading.getAttribute(HEADING_LEVEL_MARK) === '1';
      const level = wasH1 ? 1 : headingLevel(heading) || 2;
      return `\n\n${'#'.repeat(level)} ${text}\n\n`;
    },
  });

  // Emphasis inside emphasis of its kind gets no delimiters of its own (`**a **b** c**`).
  service.addRule('emphasis', {
    filter: ['em', 'i'],
    replacement: (content, node) =>
      insideEmphasis(node as unknown as DomElement, '_', root) ? content : delimit(content, '_'),
  });
  service.addRule('strong', {
    filter: ['strong', 'b'],
    replacement: (content, node) =>
      insideEmphasis(node as unknown as DomElement, '**', root) ? content : delimit(content, '**'),
  });
  // Strikethrough delimited per paragraph, a `~` at its edge escaped (beside another `~`, a
  // fence).
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike'],
    replacement: (content, node) =>
      enclosedBy(node as unknown as DomElement, root, (tag) => STRIKETHROUGH_TAGS.has(tag))
        ? content
        : delimit(content.replace(TILDE_AT_EDGE, '\\~'), '~~'),
  });

  // Definition lists (GFM has none): a bold term, `: definition` on the next line (Pandoc,
  // markdown-it).
  const definitions = new WeakMap<DomElement, boolean>();
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content, node) => {
      const text = inlineText(content);
      if (text === '') return '';
      const lead = isAfterTerm(node as unknown as DomElement) ? '\n' : '\n\n';
      return `${lead}${text.includes('![') || text.includes('**') ? text : delimit(text, '**')}\n`;
    },
  });
  service.addRule('definition', {
    filter: 'dd',
    replacement: (content, node) => {
      const text = content.trim();
      if (text === '') return '';
      const dd = node as unknown as DomElement;
      // A definition that opens with a block (code, a table, a list) cannot follow `: `.
      if (!definesTerm(dd, definitions) || BLOCK_START.test(text)) return `\n\n${text}\n\n`;
      return `${isAfterTerm(dd) ? '\n' : '\n\n'}: ${text}\n\n`;
    },
  });

  const ordinals = new WeakMap<DomElement, Map<DomElement, number>>();
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const li = node as unknown as DomElement;
      const owner = listOwner(li);
      let prefix = '- ';
      if (owner !== null && tagOf(owner) === 'ol') {
        let numbers = ordinals.get(owner);
        if (numbers === undefined) ordinals.set(owner, (numbers = listOrdinals(owner)));
        const ordinal = numbers.get(li);
        if (ordinal !== undefined) prefix = `${ordinal}. `;
      }
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n');
      const indented = body.replace(/\n(?!$)/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + indented + (li.nextSibling !== null && !indented.endsWith('\n') ? '\n' : '');
    },
  });

  // Superscripts as `10^9`, not 109; not ordinals, footnote links or raised cents
  // (`$549.00`). Subscripts inline: `~` is strikethrough.
  service.addRule('superscript', {
    filter: 'sup',
    replacement: (content, node) => {
      const text = inlineText(content);
      if (text === '' || text.startsWith('[')) return content;
      const before = textBefore(node as unknown as DomNode);
      if (ORDINAL_SUFFIX.test(text) && /\d$/.test(before)) return content;
      if (/^\d\d$/.test(text) && WHOLE_AMOUNT.test(before)) return `.${text}`;
      return caretSuperscript(text);
    },
  });

  service.addRule('taskMarker', {
    filter: carries(TASK_MARK),
    replacement: (_content, node) => {
      return (node as unknown as DomElement).getAttribute(TASK_MARK) === 'x' ? '[x] ' : '[ ] ';
    },
  });

  // A browser draws a `<q>`'s quotation marks (CSS `quotes`): double ones, single inside.
  service.addRule('inlineQuote', {
    filter: 'q',
    replacement: (content, node) => {
      if (content.trim() === '') return content;
      let depth = 0;
      for (let p = node.parentNode; p !== null; p = p.parentNode) if (p.nodeName === 'Q') depth++;
      return depth % 2 === 0 ? `“${content}”` : `‘${content}’`;
    },
  });

  // Ruby in parentheses after its base, "漢字(かんじ)"; the fallback parentheses (`<rp>`) go.
  service.addRule('rubyText', {
    filter: 'rt',
    replacement: (content) => (content.trim() === '' ? '' : `(${content.trim()})`),
  });
  service.addRule('rubyParenthesis', {
    filter: 'rp',
    replacement: () => '',
  });

  service.addRule('math', {
    filter: carries(MATH_TEX_MARK),
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const tex = element.getAttribute(MATH_TEX_MARK) ?? '';
      if (tex === '') return '';
      if (element.hasAttribute(MATH_DISPLAY_MARK)) return `\n\n$$${tex}$$\n\n`;
      // Two formulas side by side would read `$a$$b$`, a display formula's opening.
      return `${element.hasAttribute(MATH_SPACED_MARK) ? ' ' : ''}$${tex}$`;
    },
  });

  service.addRule('fencedCode', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as DomElement;
      const code = (pre.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
      if (code.trim() === '') return '';
      const fence = fenceFor(code);
      return `\n\n${fence}${pre.getAttribute(LANGUAGE_MARK) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });

  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const a = node as unknown as DomElement;
      const text = inlineText(content);
      if (text === '') return '';
      const rawHref = a.getAttribute('href')?.trim();
      if (!rawHref) return text;
      if (isPermalinkSign(rawHref, text)) return '';
      const href = absoluteLink(rawHref, base);
      return href === null ? text : `[${text}](${escapeDestination(href)})`;
    },
  });

  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const img = node as unknown as DomElement;
      const caption = normalizeSpace(withoutMarks(img.getAttribute(CAPTION_MARK) ?? ''));
      const alt = normalizeSpace(img.getAttribute('alt')) || caption;
      if (alt === '') return '';
      const src = absoluteImage(imageSource(img), base);
      if (src === null) return '';
      const title = caption !== '' && caption !== alt ? ` "${caption.replace(/(["\\])/g, '\\$1')}"` : '';
      return `![${service.escape(withoutMarks(alt))}](${escapeDestination(src)}${title})`;
    },
  });

  return service;
}

/**
 * Images without alt text or usable source and links without text or image go before
 * Turndown, which would leave their white space.
 */
export function dropEmptyInlines(root: DomElement, base: string | null): void {
  for (const el of descendants(root, new Set(['img', 'a']))) {
    if (tagOf(el) === 'img') {
      const text = normalizeSpace(el.getAttribute('alt')) || normalizeSpace(el.getAttribute(CAPTION_MARK));
      if (text === '' || absoluteImage(imageSource(el), base) === null) el.remove();
    } else if (normalizeSpace(el.textContent) === '' && el.querySelector('img') === null) {
      el.remove();
    }
  }
}

/** Turndown's block elements, void elements and elements meaningful when blank (turndown 7). */
const TURNDOWN_BLOCKS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'audio',
  'blockquote',
  'body',
  'canvas',
  'center',
  'dd',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'isindex',
  'li',
  'main',
  'menu',
  'nav',
  'noframes',
  'noscript',
  'ol',
  'output',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
const TURNDOWN_NOT_BLANK: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'command',
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
  'a',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'th',
  'td',
  'iframe',
  'script',
  'audio',
  'video',
]);

/**
 * Empties the blank blocks under `root` (Turndown's `isBlank`): same output, but Turndown's
 * own test is quadratic on chains of empty blocks. Code is left whole.
 */
export function emptyBlankBlocks(root: DomElement): void {
  const notBlank = new Set<DomNode>();
  const order: DomElement[] = [];
  walk(root, (element) => {
    order.push(element);
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if ((child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) && /\S/.test(child.textContent ?? ''))
        notBlank.add(element);
    }
  });
  for (let i = order.length - 1; i > 0; i--) {
    const element = order[i]!;
    if (notBlank.has(element) || TURNDOWN_NOT_BLANK.has(tagOf(element))) {
      if (element.parentNode !== null) notBlank.add(element.parentNode);
    }
  }
  walk(root, (element) => {
    if (element === root) return true;
    const tag = tagOf(element);
    if (VERBATIM_TAGS.has(tag)) return false;
    if (notBlank.has(element) || TURNDOWN_NOT_BLANK.has(tag)) return true;
    if (TURNDOWN_BLOCKS.has(tag)) while (element.firstChild !== null) element.firstChild.remove();
    return false;
  });
}

/**
 * Markdown of `root` as the clean passes left it, the line-start marks resolved; `root` is
 * a private copy, so Turndown's own deep copy is skipped.
 */
export function writeMarkdown(root: DomElement, base: string | null): string {
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  try {
    return unmark(buildService(base, root).turndown(root as never));
  } finally {
    delete (root as { cloneNode?: unknown }).cloneNode;
  }
}
