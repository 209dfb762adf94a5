/**
 * Formulas (MathML, MathJax, KaTeX, MediaWiki) as placeholders carrying their TeX, made
 * before the noise removal drops MathML and scripts; markdown.ts writes `$tex$` or a
 * `$$tex$$` paragraph. docs/extraction.md, "Formulas as TeX".
 */

import type { DomDocument, DomElement } from '../dom.js';
import {
  INLINE_TAGS,
  TEXT_NODE,
  childElements,
  descendants,
  isElement,
  nextInTree,
  normalizeSpace,
  tagOf,
} from '../dom.js';
import { MATH_DISPLAY_MARK, MATH_SPACED_MARK, MATH_TEX_MARK } from '../marks.js';
import type { SourceWord, SourceWords } from '../read/source-words.js';
import { THRESHOLDS } from '../thresholds.js';

const TEX_ENCODINGS: ReadonlySet<string> = new Set([
  'application/x-tex',
  'text/x-tex',
  'tex',
  'latex',
  'application/x-latex',
  'text/latex',
]);

/** MediaWiki's wrapper around every formula's TeX: `{\displaystyle E=mc^{2}}`. */
const STYLE_WRAPPER = /^\{\\(?:displaystyle|textstyle|scriptstyle)\s*([\s\S]*)\}$/;

/** MathJax 2's rendered copies and previews before its script. */
const MATHJAX_RENDERED =
  /(?:^|\s)(?:MathJax(?:_Preview|_Display|_SVG(?:_Display)?|_CHTML|_MathML)?|mjx-chtml|MJXc-display)(?:\s|$)/;

/** A TeX comment: an unescaped `%` to the end of its line. */
const TEX_COMMENT = /(?<!\\)((?:\\\\)*)%.*$/gm;

/**
 * A formula's TeX on one line (a blank line ends a paragraph): comments out first, no
 * backslash left to escape the closing dollar.
 */
function cleanTex(tex: string): string {
  let text = normalizeSpace(tex.replace(TEX_COMMENT, '$1'));
  const wrapped = STYLE_WRAPPER.exec(text);
  if (wrapped !== null && balanced(wrapped[1]!)) text = normalizeSpace(wrapped[1]!);
  return /(?<!\\)(?:\\\\)*\\$/.test(text) ? text.slice(0, -1).trimEnd() : text;
}

/** Whether the braces of `tex` pair up (a wrapper's closing brace is its own). */
function balanced(tex: string): boolean {
  let depth = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

// MathML to TeX

/**
 * Big operators (for their limits) and MathML's invisible ones as TeX; other symbols (`≤`,
 * `α`) stay as they are.
 */
const OPERATORS: ReadonlyMap<string, string> = new Map([
  ['∑', '\\sum'],
  ['∏', '\\prod'],
  ['∐', '\\coprod'],
  ['∫', '\\int'],
  ['∬', '\\iint'],
  ['∮', '\\oint'],
  ['⋃', '\\bigcup'],
  ['⋂', '\\bigcap'],
  ['−', '-'],
  ['\u2061', ''],
  ['\u2062', ''],
  ['\u2063', ','],
]);

const BIG_OPERATOR = /^\\(?:sum|prod|coprod|int|iint|oint|bigcup|bigcap|lim|max|min|sup|inf)$/;

/** Function names TeX sets upright (with limits for `lim`, `max` ...). */
const FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'lim',
  'max',
  'min',
  'sup',
  'inf',
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'sinh',
  'cosh',
  'tanh',
  'arcsin',
  'arccos',
  'arctan',
  'log',
  'ln',
  'lg',
  'exp',
  'det',
  'dim',
  'ker',
  'gcd',
  'deg',
  'arg',
  'Pr',
]);

/**
 * Characters TeX reads as syntax, escaped in a token: a set's `{`, `%` (a comment), `$`
 * (the formula's end) ...
 */
const TEX_SPECIALS: ReadonlyMap<string, string> = new Map([
  ['{', '\\{'],
  ['}', '\\}'],
  ['%', '\\%'],
  ['&', '\\&'],
  ['#', '\\#'],
  ['$', '\\$'],
  ['_', '\\_'],
  ['^', '\\hat{}'],
  ['~', '\\sim '],
  ['\\', '\\backslash '],
]);

const TEXT_SPECIALS: ReadonlyMap<string, string> = new Map([
  ['{', '\\{'],
  ['}', '\\}'],
  ['%', '\\%'],
  ['&', '\\&'],
  ['#', '\\#'],
  ['$', '\\$'],
  ['_', '\\_'],
  ['^', '\\^{}'],
  ['~', '\\~{}'],
  ['\\', '\\textbackslash{}'],
]);

function escapeWith(text: string, specials: ReadonlyMap<string, string>): string {
  let out = '';
  for (const char of text) out += specials.get(char) ?? char;
  return out;
}

function tokenTex(text: string): string {
  if (FUNCTION_NAMES.has(text.trim())) return `\\${text.trim()}`;
  let out = '';
  for (const char of normalizeSpace(text)) {
    const command = OPERATORS.get(char) ?? TEX_SPECIALS.get(char);
    out += command === undefined ? char : command.startsWith('\\') && /[a-z]$/.test(command) ? `${command} ` : command;
  }
  return out.trimEnd();
}

/** `mathvariant` values with a TeX font command (a double-struck R is the reals). */
const VARIANTS: ReadonlyMap<string, string> = new Map([
  ['double-struck', 'mathbb'],
  ['bold', 'mathbf'],
  ['fraktur', 'mathfrak'],
  ['script', 'mathcal'],
  ['sans-serif', 'mathsf'],
  ['monospace', 'mathtt'],
  ['normal', 'mathrm'],
]);

/** Accents over a base (`<mover accent>`) as TeX's commands. */
const ACCENTS: ReadonlyMap<string, string> = new Map([
  ['^', 'hat'],
  ['ˆ', 'hat'],
  ['\u0302', 'hat'],
  ['~', 'tilde'],
  ['˜', 'tilde'],
  ['\u0303', 'tilde'],
  ['¯', 'bar'],
  ['‾', 'bar'],
  ['\u0304', 'bar'],
  ['\u0305', 'overline'],
  ['→', 'vec'],
  ['⃗', 'vec'],
  ['˙', 'dot'],
  ['\u0307', 'dot'],
  ['¨', 'ddot'],
  ['\u0308', 'ddot'],
  ['ˇ', 'check'],
  ['˘', 'breve'],
  ['⏞', 'overbrace'],
  ['⏟', 'underbrace'],
  ['_', 'underline'],
]);

function group(tex: string): string {
  return /^(?:[^\\{}\s]|\\[A-Za-z]+)$/u.test(tex) ? tex : `{${tex}}`;
}

/** Joins TeX pieces, spaced where a command or two words would run together. */
function join(parts: string[]): string {
  let out = '';
  let last = '';
  for (const part of parts) {
    if (part === '') continue;
    // Only the end of the part before is read (the whole output per part was quadratic).
    if (last !== '' && /(?:\\[A-Za-z]+|[\p{L}\p{N}])$/u.test(last.slice(-64)) && /^[\p{L}\p{N}]/u.test(part))
      out += ' ';
    out += part;
    last = part;
  }
  return out;
}

/** `base` with `mark` under or over it: limits, an accent, or a stacked symbol. */
function underOver(base: string, mark: string, markText: string, over: boolean): string {
  if (BIG_OPERATOR.test(base)) return `${base}${over ? '^' : '_'}${group(mark)}`;
  const accent = ACCENTS.get(markText.trim());
  if (accent !== undefined && (over || accent === 'underline' || accent === 'underbrace'))
    return `\\${accent}{${base}}`;
  return `\\${over ? 'overset' : 'underset'}{${mark}}{${base}}`;
}

export function mathmlToTex(element: DomElement, depth = 0): string {
  if (depth > THRESHOLDS.MAX_MATHML_DEPTH) return tokenTex(element.textContent ?? '');
  const kids = childElements(element);
  const tag = tagOf(element);
  // Each child converted once (using a child's TeX twice doubled the work per level).
  const parts = tag === 'mtable' ? [] : kids.map((kid) => mathmlToTex(kid, depth + 1));
  const at = (i: number): string => parts[i] ?? '';
  switch (tag) {
    case 'mi':
    case 'mn':
    case 'mo':
    case 'ms': {
      const tex = tokenTex(element.textContent ?? '');
      const variant = VARIANTS.get(element.getAttribute('mathvariant') ?? '');
      // A single-letter identifier is italic by default: `normal` is what changes it.
      if (
        variant === undefined ||
        tex === '' ||
        tag === 'mo' ||
        (variant === 'mathrm' && !(tag === 'mi' && tex.length === 1))
      )
        return tex;
      return `\\${variant}{${tex}}`;
    }
    case 'mtext': {
      // Its spaces kept: in TeX's math mode only `\text` keeps "x if y" apart.
      const text = escapeWith((element.textContent ?? '').replace(/\s+/g, ' '), TEXT_SPECIALS);
      return text.trim() === '' ? '' : `\\text{${text}}`;
    }
    case 'mspace':
      return '\\,';
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
    case 'none':
    case 'mprescripts':
      return '';
    case 'semantics':
      return at(0);
    case 'msup':
      return `${group(at(0))}^${group(at(1))}`;
    case 'msub':
      return `${group(at(0))}_${group(at(1))}`;
    case 'msubsup':
      return `${group(at(0))}_${group(at(1))}^${group(at(2))}`;
    case 'munder':
      return underOver(at(0), at(1), kids[1]?.textContent ?? '', false);
    case 'mover':
      return underOver(at(0), at(1), kids[1]?.textContent ?? '', true);
    case 'munderover':
      return `${group(at(0))}_${group(at(1))}^${group(at(2))}`;
    case 'mfrac':
      // A fraction without a bar is a binomial's or a stack's (`linethickness="0"`).
      return /^0(?:\.0*)?(?:[a-z]+|%)?$/i.test((element.getAttribute('linethickness') ?? '').trim())
        ? `\\genfrac{}{}{0pt}{}{${at(0)}}{${at(1)}}`
        : `\\frac{${at(0)}}{${at(1)}}`;
    case 'msqrt':
      return `\\sqrt{${join(parts)}}`;
    case 'mroot':
      return `\\sqrt[${at(1)}]{${at(0)}}`;
    case 'mfenced': {
      const fence = (value: string | null, fallback: string): string => {
        const text = (value ?? fallback).trim();
        return text === '{' ? '\\{' : text === '}' ? '\\}' : text;
      };
      const separator = (element.getAttribute('separators') ?? ',').trim()[0] ?? '';
      return `${fence(element.getAttribute('open'), '(')}${parts.join(separator)}${fence(element.getAttribute('close'), ')')}`;
    }
    case 'mtable': {
      const rows = kids.map((row) => {
        // A labelled row's first cell is its equation number, not a column.
        const cells = childElements(row).slice(tagOf(row) === 'mlabeledtr' ? 1 : 0);
        return cells.map((cell) => mathmlToTex(cell, depth + 2)).join(' & ');
      });
      return `\\begin{matrix} ${rows.join(' \\\\ ')} \\end{matrix}`;
    }
    default:
      return join(parts);
  }
}

// Finding formulas

interface Formula {
  tex: string;
  display: boolean;
}

function mathTex(math: DomElement): string {
  for (const annotation of descendants(math, ANNOTATION_TAG)) {
    if (TEX_ENCODINGS.has((annotation.getAttribute('encoding') ?? '').trim().toLowerCase())) {
      const tex = cleanTex(annotation.textContent ?? '');
      if (tex !== '') return tex;
    }
  }
  const alt = cleanTex(math.getAttribute('alttext') ?? '');
  return alt !== '' ? alt : cleanTex(mathmlToTex(math));
}

const MATH_TAG: ReadonlySet<string> = new Set(['math']);
const ANNOTATION_TAG: ReadonlySet<string> = new Set(['annotation']);
const SCRIPT_TAG: ReadonlySet<string> = new Set(['script']);

function classOf(element: DomElement): string {
  const value = element.getAttribute('class');
  return value === null ? '' : ` ${value} `;
}

/**
 * Replaces `element` by `formula`'s placeholder; a display one is a `<p>`: Readability
 * renames a `<div>`, and under linkedom it then loses its attributes.
 */
function replaceWith(doc: DomDocument, element: DomElement, formula: Formula): void {
  if (formula.tex === '') {
    element.remove();
    return;
  }
  const placeholder = doc.createElement(formula.display ? 'p' : 'span');
  placeholder.setAttribute(MATH_TEX_MARK, formula.tex);
  if (formula.display) placeholder.setAttribute(MATH_DISPLAY_MARK, '');
  placeholder.textContent = formula.tex;
  element.replaceWith(placeholder);
}

/**
 * MathJax 2: each `math/tex` script replaced, its preview and rendered copies before it
 * removed.
 */
function replaceMathJaxScripts(doc: DomDocument, root: DomElement): void {
  for (const script of descendants(root, SCRIPT_TAG)) {
    const type = (script.getAttribute('type') ?? '').toLowerCase();
    if (!type.startsWith('math/tex')) continue;
    for (
      let before = script.previousElementSibling;
      before !== null && MATHJAX_RENDERED.test(before.getAttribute('class') ?? '');
    ) {
      const previous = before.previousElementSibling;
      before.remove();
      before = previous;
    }
    replaceWith(doc, script, { tex: cleanTex(script.textContent ?? ''), display: /mode\s*=\s*display/.test(type) });
  }
}

/**
 * The outermost wrapper a library puts around one formula, with whether it is displayed;
 * else null.
 */
function libraryFormula(element: DomElement): { display: boolean } | null {
  const tag = tagOf(element);
  if (tag === 'mjx-container') return { display: element.getAttribute('display') === 'true' };
  const names = classOf(element);
  if (names === '') return null;
  if (names.includes(' katex-display ')) return { display: true };
  if (names.includes(' katex ')) return { display: false };
  if (names.includes(' mwe-math-element ')) {
    return { display: element.querySelector('.mwe-math-mathml-display, .mwe-math-fallback-image-display') !== null };
  }
  return null;
}

/**
 * Marks each inline formula that follows another with no text between them
 * (MATH_SPACED_MARK): `$a$$b$` would open a display formula.
 */
function markAdjacentFormulas(root: DomElement): void {
  let afterFormula = false;
  let node = nextInTree(root, root, false);
  while (node !== null) {
    let skip = false;
    if (node.nodeType === TEXT_NODE) {
      if ((node.textContent ?? '').trim() !== '') afterFormula = false;
    } else if (isElement(node)) {
      if (node.hasAttribute(MATH_TEX_MARK)) {
        if (afterFormula && !node.hasAttribute(MATH_DISPLAY_MARK)) node.setAttribute(MATH_SPACED_MARK, '');
        afterFormula = !node.hasAttribute(MATH_DISPLAY_MARK);
        skip = true;
      } else if (!INLINE_TAGS.has(tagOf(node))) {
        afterFormula = false;
      }
    }
    node = nextInTree(node, root, skip);
  }
}

/** Words of the forms normalizeMath reads: a source with none of them skips its walk. */
const MATH_WORDS: readonly SourceWord[] = ['<math', 'math/tex', 'katex', 'mjx-container', 'mwe-math'];

/**
 * Replaces every formula under `root`; a source that names none of the forms (`words`)
 * skips the walk.
 */
export function normalizeMath(doc: DomDocument, root: DomElement, words: SourceWords): void {
  if (!MATH_WORDS.some((word) => words.has(word))) return;
  replaceMathJaxScripts(doc, root);
  // Outermost wrappers first, each replaced whole; one without MathML stays, one of several
  // formulas is walked for bare `<math>` only.
  const stack: Array<[DomElement, boolean]> = [[root, true]];
  let replaced = root.querySelector(`[${MATH_TEX_MARK}]`) !== null;
  while (stack.length > 0) {
    const [element, wrappers] = stack.pop()!;
    for (const child of childElements(element)) {
      const library = wrappers ? libraryFormula(child) : null;
      if (library !== null) {
        const maths = descendants(child, MATH_TAG);
        const tex = maths.length === 1 ? mathTex(maths[0]!) : '';
        if (tex !== '') {
          replaceWith(doc, child, { tex, display: library.display });
          replaced = true;
        } else if (maths.length > 1) stack.push([child, false]);
      } else if (tagOf(child) === 'math') {
        replaceWith(doc, child, {
          tex: mathTex(child),
          display: child.getAttribute('display') === 'block' || child.getAttribute('mode') === 'display',
        });
        replaced = true;
      } else {
        stack.push([child, wrappers]);
      }
    }
  }
  if (replaced) markAdjacentFormulas(root);
}
