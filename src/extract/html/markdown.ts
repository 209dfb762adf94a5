/**
 * The chosen content element -> Markdown, with Turndown, task lists (task-lists.ts),
 * GFM tables (tables.ts) and our rules:
 *   - ATX headings on one line, `-` bullets (one space after the marker), `---` rules;
 *   - fenced code blocks carrying the language found by code-blocks.ts;
 *   - links and images absolute against the document base; a link with no text is
 *     dropped, a `javascript:` (or unresolvable) link keeps its text only, a heading's
 *     symbol-only permalink (`¶`, `#`) is dropped; images only with alt text or a caption
 *     (captions.ts), the caption as the image's title;
 *   - bold and italics closed on the line they open, definition lists as `**term**` and
 *     `: definition`, labels of page controls dropped (control-labels.ts);
 *   - a section shown twice in a row (a responsive page's two copies) written once
 *     (repeated-blocks.ts);
 *   - inline code as a code span can hold it: its markup flattened, a linked code as a
 *     link around the code, a `<code>` wrapping blocks unwrapped (inline-code.ts);
 *   - `<br>` is a plain newline (no trailing spaces); tidy.ts finishes the text;
 *   - block markers escaped only where a line starts (line-starts.ts), and a `<` that
 *     could open a tag or an autolink escaped everywhere.
 */

import TurndownService from 'turndown';
import { fenceFor } from './code-blocks.js';
import { CAPTION_MARK, HEADING_LEVEL_MARK, LANGUAGE_MARK, MATH_DISPLAY_MARK, MATH_SPACED_MARK, MATH_TEX_MARK, TASK_MARK } from './marks.js';
import { enclosedBy, insideEmphasis, unmark, withoutMarks } from './line-starts.js';
import { caretSuperscript } from './inline-code.js';
import type { DomElement, DomNode } from './dom.js';
import { CDATA_SECTION_NODE, TEXT_NODE, VERBATIM_TAGS, descendants, headingLevel, isElement, normalizeSpace, tagOf } from './dom.js';
import { addTableRules } from './tables.js';
import { INVISIBLE } from './tidy.js';
import { absoluteImage, absoluteLink, isPermalinkSign } from './urls.js';

/** Attributes that lazy-loading scripts read the real image address from, best first. */
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-url', 'data-srcset', 'srcset'];

/** Ordinal suffixes set as superscripts: 1st, 2nd, 3rd, 4th; French 1er, 2e, 2ème; Spanish 1º, 1ª. */
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th|er|re|e|ème|eme|o|a|º|ª)$/i;
/** A whole amount of money just before a superscript, whose cents it then is (`$549<sup>00</sup>`). */
const WHOLE_AMOUNT = /[$€£¥]\s?\d[\d,]*$/;

/** The text just before `node` in its block (what the previous sibling, or the parent's, ends with). */
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

/** The start of a Markdown block construct: a heading, list item, quotation, fence or table row. */
const BLOCK_START = /^(?:#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s|>|```|~~~|\|)/;

/**
 * Bold or italic `content` between `delimiter`s, so that the Markdown reads back as such.
 * CommonMark emphasis cannot span a blank line, and a delimiter with white space on its
 * inner side neither opens nor closes (the flanking rules, spec 6.2): `<b>Title<br></b>`
 * made `**Title` and a line `**` of its own, `<i>` round two paragraphs a stray `_`. So
 * each paragraph of the content is wrapped on its own, its edge white space (a `<br>`'s
 * newline) outside the delimiters; a block inside (a list, a heading) is left unmarked.
 */
function delimit(raw: string, delimiter: string): string {
  // Invisible characters (which tidy.ts removes later) would hide a `<br>` at the edge:
  // `<strong>Faster builds<br>&zwj;</strong>` came out as `**Faster builds` and `**Tools`.
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
      // Edge white space by trimming, not by a pattern (lazy matching is quadratic on long runs of it).
      const lead = part.slice(0, part.length - part.trimStart().length);
      const trail = part.slice(part.trimEnd().length);
      return `${lead}${delimiter}${core}${delimiter}${trail}`;
    })
    .join('');
}

/** Whether `element` comes straight after a `<dt>` with text (a second term, or a term's definition). */
function isAfterTerm(element: DomElement): boolean {
  const previous = element.previousElementSibling;
  return previous !== null && tagOf(previous) === 'dt' && normalizeSpace(previous.textContent) !== '';
}

/**
 * Whether the `<dd>` defines a term: a `<dt>` with text comes before it, past other `<dd>`s.
 * Remembered per element (`known`), so that a list of many definitions is read once.
 */
function definesTerm(dd: DomElement, known: WeakMap<DomElement, boolean>): boolean {
  const chain: DomElement[] = [];
  let answer: boolean | undefined;
  for (let at: DomElement = dd; answer === undefined; ) {
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
 * A `<` that could open raw HTML or an autolink (CommonMark 6.5, 6.6): any but one
 * before white space (an email autolink may start with a digit or most punctuation, and
 * an inline element's text may follow one that ends a text node). Turndown leaves `<` as
 * it is, so page text such as `&lt;div&gt;`, `x &lt;y` or a message id
 * `&lt;1234@example.org&gt;` came out as markup or a mail link. With every such `<`
 * escaped, no `>` can close a tag.
 */
const TAG_OPEN = /<(?!\s)/g;

/**
 * `1) ` opens an ordered list as `1. ` does (CommonMark 5.2); Turndown escapes only the
 * latter. At a text node's start (line-starts.ts marks the ones that start mid-line).
 */
const PAREN_LIST_START = /^(\d{1,9})\)(?= )/;

const STRIKETHROUGH_TAGS: ReadonlySet<string> = new Set(['del', 's', 'strike']);

/** A `~` opening or closing a paragraph (of strikethrough content). */
const TILDE_AT_EDGE = /(?<=^\s*|\n[ \t]*\n\s*)~|(?<!\\)~(?=\s*(?:\n[ \t]*\n|$))/g;

/** `&` before what reads as a character reference (`&amp;nbsp;` shows `&nbsp;`, not a space). */
const ENTITY_LIKE = /&(?=#?[A-Za-z0-9]+;)/g;

/** An escaped `_` between two letters or digits. */
const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

/** The largest number CommonMark reads as an ordered list item's (nine digits, no sign: 5.2). */
const MAX_LIST_NUMBER = 999_999_999;

function listNumber(value: string | null): number | null {
  if (value === null || !/^\s*[-+]?\d+/.test(value)) return null;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The number each item of an `<ol>` shows (HTML Living Standard 4.4.5, 4.4.8): from `start`
 * (by default 1, or the number of items when the list is `reversed`), each item one more
 * than the one before (one less when reversed), unless its own `value` sets it. A
 * countdown (`<ol reversed>`) read 1, 2, 3 before, and an item's `value` was ignored.
 */
function listOrdinals(list: DomElement): Map<DomElement, number> {
  // Its items: the `<li>`s it owns, a wrapper between them and the list or not (4.4.8).
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
  // A number CommonMark does not read as a list's (negative, or of ten digits) would split
  // the list: it is then numbered from 1.
  if ([...numbers.values()].some((n) => n < 0 || n > MAX_LIST_NUMBER)) items.forEach((item, i) => numbers.set(item, i + 1));
  return numbers;
}

const LIST_ITEM: ReadonlySet<string> = new Set(['li']);

/** The list an item belongs to: its nearest `<ol>` or `<ul>`. */
function listOwner(item: DomElement): DomElement | null {
  return item.parentElement?.closest('ol, ul') ?? null;
}

/** A Turndown filter: the element carries the attribute `name` (a placeholder of ours). */
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
  // Turndown escapes every `_`; one between two letters or digits cannot open or close
  // emphasis (CommonMark 6.2: an intraword `_` run neither opens nor closes), so
  // `search_label` and `MAX_VALUE` are written as they read.
  const escape = service.escape.bind(service);
  // On a page with formulas, a `$` of the text is escaped: `costs $25 and $x$` would read
  // as one formula from the price to the variable (Pandoc's and GitHub's dollar rules).
  const dollars = root.querySelector(`[${MATH_TEX_MARK}]`) !== null;
  service.escape = (text: string) => {
    const escaped = escape(text).replace(INTRAWORD_UNDERSCORE, '_').replace(TAG_OPEN, '\\<').replace(ENTITY_LIKE, '\\&').replace(PAREN_LIST_START, '$1\\)');
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

  // Emphasis inside emphasis of its kind is written without delimiters of its own: the
  // enclosing ones cover it, and `**a **b** c**` does not read back as bold.
  service.addRule('emphasis', {
    filter: ['em', 'i'],
    replacement: (content, node) => (insideEmphasis(node as unknown as DomElement, '_', root) ? content : delimit(content, '_')),
  });
  service.addRule('strong', {
    filter: ['strong', 'b'],
    replacement: (content, node) => (insideEmphasis(node as unknown as DomElement, '**', root) ? content : delimit(content, '**')),
  });
  // GFM strikethrough, delimited as bold and italics are (each paragraph on its own, a
  // block inside left unmarked), with a `~` at a paragraph's edge escaped: the plugin's
  // `~~` round the whole content put a closing `~~` at a line's start after a block, and
  // beside a `~` of the text or the next strikethrough's `~~` that line opened a fence.
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike'],
    replacement: (content, node) =>
      enclosedBy(node as unknown as DomElement, root, (tag) => STRIKETHROUGH_TAGS.has(tag))
        ? content
        : delimit(content.replace(TILDE_AT_EDGE, '\\~'), '~~'),
  });

  // Definition lists: GFM has none. Each term is a bold line and each definition follows
  // it on the next line after `: ` (the definition-list syntax of PHP Markdown Extra,
  // Pandoc and markdown-it; in plain GFM it reads "Term : definition"), so that a term stays
  // with what defines it instead of becoming a paragraph like any other.
  const definitions = new WeakMap<DomElement, boolean>();
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content, node) => {
      const text = inlineText(content);
      if (text === '') return '';
      const lead = isAfterTerm(node as unknown as DomElement) ? '\n' : '\n\n';
      // Bold unless the term has its own bold or is an image.
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

  // Superscripts: `10<sup>9</sup>` is ten to the ninth, not 109 (so with `mc<sup>2</sup>`
  // and footnote marks). Markdown has none; a caret reads as one (`10^9`, `^(a b)` when it
  // holds spaces). Ordinal suffixes (`9<sup>th</sup>`) read right without it, a footnote
  // link (`[1]`) is marked by its brackets, and shops' raised cents (`$549<sup>00</sup>`)
  // are cents: `$549.00`. Subscripts stay inline (`H2O`): GFM reads `~` as strikethrough.
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

  // A task list item's checkbox (task-lists.ts): `[x]` or `[ ]` as it is, then a space.
  service.addRule('taskMarker', {
    filter: carries(TASK_MARK),
    replacement: (_content, node) => {
      // (task-lists.ts took the item's own space after the checkbox out.)
      return (node as unknown as DomElement).getAttribute(TASK_MARK) === 'x' ? '[x] ' : '[ ] ';
    },
  });

  // An inline quotation: a browser draws its quotation marks (CSS `quotes`), the text has
  // none, so "He said <q>stay</q>" read "He said stay". Double marks, single ones inside.
  service.addRule('inlineQuote', {
    filter: 'q',
    replacement: (content, node) => {
      if (content.trim() === '') return content;
      let depth = 0;
      for (let p = node.parentNode; p !== null; p = p.parentNode) if (p.nodeName === 'Q') depth++;
      return depth % 2 === 0 ? `“${content}”` : `‘${content}’`;
    },
  });

  // Ruby annotations (furigana, pinyin): in parentheses after their base text, as plain text
  // writes them ("漢字(かんじ)"), not run into it; the page's own fallback parentheses (`<rp>`)
  // are what a browser without ruby shows, so they go.
  service.addRule('rubyText', {
    filter: 'rt',
    replacement: (content) => (content.trim() === '' ? '' : `(${content.trim()})`),
  });
  service.addRule('rubyParenthesis', {
    filter: 'rp',
    replacement: () => '',
  });

  // Formulas (math.ts): TeX between dollars, as it is; a display formula as a paragraph.
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
 * Images without alt text or a usable source, and links with neither text nor image, go
 * before Turndown sees them: dropped by a rule they would leave their white space behind
 * (a paragraph starting with a space).
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
  'address', 'article', 'aside', 'audio', 'blockquote', 'body', 'canvas', 'center', 'dd', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hgroup', 'hr', 'html', 'isindex', 'li', 'main', 'menu', 'nav', 'noframes', 'noscript', 'ol', 'output', 'p', 'pre',
  'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);
const TURNDOWN_NOT_BLANK: ReadonlySet<string> = new Set([
  'area', 'base', 'br', 'col', 'command', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source',
  'track', 'wbr', 'a', 'table', 'thead', 'tbody', 'tfoot', 'th', 'td', 'iframe', 'script', 'audio', 'video',
]);

/**
 * Empties the blank block elements under `root`: those with no text but white space and no
 * void or "meaningful when blank" element inside (Turndown's `isBlank`). Turndown writes a
 * blank block as a paragraph break whatever it holds, so emptying it changes nothing in
 * the Markdown; but its test reads every descendant of each element it asks about
 * (`getElementsByTagName` for 27 tags), so a chain of empty blocks over many empty
 * siblings was quadratic: 20,000 nested `<div><input>` (600 KB, the inputs gone with the
 * noise) took about 30 s. One post-order pass finds them. Code is left whole: its text is
 * written as it is, and a blank line's block there holds the line break.
 */
export function emptyBlankBlocks(root: DomElement): void {
  const notBlank = new Set<DomNode>();
  // Post-order: an element is not blank when it is a kind that never is, or holds text or
  // an element that is not blank.
  const order: DomElement[] = [];
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    order.push(element);
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) stack.push(child);
      else if ((child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) && /\S/.test(child.textContent ?? '')) notBlank.add(element);
    }
  }
  for (let i = order.length - 1; i > 0; i--) {
    const element = order[i]!;
    if (notBlank.has(element) || TURNDOWN_NOT_BLANK.has(tagOf(element))) {
      if (element.parentNode !== null) notBlank.add(element.parentNode);
    }
  }
  const walk: DomElement[] = [root];
  while (walk.length > 0) {
    const element = walk.pop()!;
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) {
      const tag = tagOf(child);
      // Code is written from its text, white space and all (fencedCode): left whole.
      if (VERBATIM_TAGS.has(tag)) continue;
      if (notBlank.has(child) || TURNDOWN_NOT_BLANK.has(tag)) walk.push(child);
      else if (TURNDOWN_BLOCKS.has(tag)) while (child.firstChild !== null) child.firstChild.remove();
    }
  }
}

/**
 * Markdown of `root` as the clean passes left it (pipeline.ts): Turndown with our rules, the
 * line-start marks resolved. Turndown deep-copies a DOM input before working on it; `root`
 * is already a private copy, so it is handed over as is (linkedom nodes are costly to create).
 */
export function writeMarkdown(root: DomElement, base: string | null): string {
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  try {
    return unmark(buildService(base, root).turndown(root as never));
  } finally {
    delete (root as { cloneNode?: unknown }).cloneNode;
  }
}
