/**
 * Whether a selector is standard CSS as Chromium's querySelector reads it (Selectors Level 4
 * over the tokens of CSS Syntax Level 3), for the selectors css-select also compiles:
 * css-select's parser takes more (its jQuery-style pseudo-classes, `!=`, a combinator or a
 * comma with nothing on one side, unquoted attribute values that are no identifier, `#1a`),
 * and the browser throws on each. Every rule here was checked against Chromium
 * (test/faces/page-controls-render.test.ts). Pseudo-classes and pseudo-elements outside
 * the vocabulary both engines share are left to css-select, which refuses them. And
 * whether its shape is within SELECTOR_LIMITS, which no real selector comes near: the
 * server matches right to left, backtracking over descendant and `~` combinators, so a
 * bound here keeps the obvious abuse out before any page is fetched (the matching itself
 * has a budget too: extract/html/prepare/selector-budget.ts). Pure.
 */

/** Bounds on a selector's shape (docs/decisions.md, "Page controls"). */
export const SELECTOR_LIMITS = {
  /** Selector lists inside :is(), :not(), :where(), :has() and :nth-child(… of), one inside another. */
  nesting: 3,
  /** Compound selectors (the parts between combinators), in every list and argument together. */
  compounds: 32,
  /** Descendant (" ") and "~" combinators, each relative selector of :has() counted as one. */
  backtracking: 8,
} as const;

/** Pseudo-classes without an argument that both Chromium and css-select know. */
const PLAIN_PSEUDO_CLASSES: ReadonlySet<string> = new Set([
  'active',
  'any-link',
  'checked',
  'disabled',
  'empty',
  'enabled',
  'first-child',
  'first-of-type',
  'hover',
  'last-child',
  'last-of-type',
  'link',
  'only-child',
  'only-of-type',
  'optional',
  'read-only',
  'read-write',
  'required',
  'root',
  'scope',
  'visited',
]);

/** css-select's own pseudo-classes (jQuery's), which browsers refuse. */
const CSS_SELECT_EXTENSIONS: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'contains',
  'file',
  'header',
  'icontains',
  'image',
  'input',
  'matches',
  'parent',
  'password',
  'radio',
  'reset',
  'selected',
  'submit',
  'text',
]);

/** Pseudo-classes with an argument that both know; read here, since css-select takes more in each. */
const FUNCTIONAL_PSEUDO_CLASSES: ReadonlySet<string> = new Set([
  'has',
  'is',
  'lang',
  'not',
  'nth-child',
  'nth-last-child',
  'nth-last-of-type',
  'nth-of-type',
  'where',
]);

const WHITESPACE = /[ \t\n\r\f]/;
/** An+B (CSS Syntax 3, 6): `2n+1`, `-n + 3`, `odd`, `5`; a sign that follows `n` may stand apart. */
const AN_PLUS_B = /[ \t\n\r\f]*(?:odd|even|[+-]?\d*n(?:[ \t\n\r\f]*[+-][ \t\n\r\f]*\d+)?|[+-]?\d+)(?![\w\\-])/iy;
/** `of` after An+B in :nth-child() and :nth-last-child() (Selectors 4, 14.3.1); Chromium takes it in lower case only. */
const OF = /[ \t\n\r\f]+of(?![\w\\-]|[^\0-\x7f])/y;

/** What a selector list may hold where it stands. */
interface Place {
  /** Its selectors may begin with a combinator: directly inside :has(). */
  relative: boolean;
  /** Inside :has(), which Chromium does not take again. */
  inHas: boolean;
}

class NotStandard extends Error {}
class TooComplex extends Error {}

/** Reads one selector from the start, throwing NotStandard at the first part Chromium would refuse. */
class SelectorReader {
  private pos = 0;
  private nesting = 0;
  private compounds = 0;
  private backtracking = 0;

  constructor(private readonly text: string) {}

  read(): void {
    this.list({ relative: false, inHas: false }, 'the selector');
    if (this.pos < this.text.length) this.unexpected();
  }

  private peek(ahead = 0): string {
    return this.text[this.pos + ahead] ?? '';
  }

  private fail(message: string): never {
    throw new NotStandard(message);
  }

  private unexpected(): never {
    if (this.pos >= this.text.length) this.fail('the selector ends too early');
    const rest = this.text.slice(this.pos, this.pos + 20);
    this.fail(`"${rest}" at character ${this.pos + 1} cannot stand there`);
  }

  /** Skips whitespace and comments; whether there was whitespace (a comment alone separates nothing). */
  private space(): boolean {
    let spaced = false;
    for (;;) {
      if (WHITESPACE.test(this.peek())) {
        spaced = true;
        this.pos++;
      } else if (!this.comment()) return spaced;
    }
  }

  /** Skips a comment (one left open runs to the end, CSS Syntax 3, 4.3.2). */
  private comment(): boolean {
    if (this.peek() !== '/' || this.peek(1) !== '*') return false;
    const end = this.text.indexOf('*/', this.pos + 2);
    this.pos = end === -1 ? this.text.length : end + 2;
    return true;
  }

  /** A comma-separated list of selectors; `what` names it when it is empty. */
  private list(place: Place, what: string): void {
    for (let first = true; ; first = false) {
      if (!this.complex(place)) {
        if (this.peek() === ',')
          this.fail(first ? 'a comma has no selector before it' : 'two commas have no selector between them');
        if (!first) this.fail('the comma has no selector after it');
        this.fail(`${what} is empty`);
      }
      if (this.peek() !== ',') return;
      this.pos++;
    }
  }

  /** Compounds joined by combinators; false when there is none at all. */
  private complex(place: Place): boolean {
    this.space();
    const leading = this.combinator();
    if (leading !== null) {
      if (!place.relative)
        this.fail(`"${leading}" has no selector before it (only inside :has() may a selector begin with a combinator)`);
      this.space();
      if (!this.compound(place)) this.fail(`the combinator "${leading}" has no selector after it`);
      if (leading === '~') this.backtracks();
    } else if (!this.compound(place)) return false;
    // A relative selector without a combinator of its own looks among all descendants.
    else if (place.relative) this.backtracks();
    for (;;) {
      const spaced = this.space();
      const combinator = this.combinator();
      if (combinator !== null) {
        this.space();
        if (!this.compound(place)) this.fail(`the combinator "${combinator}" has no selector after it`);
        if (combinator === '~') this.backtracks();
      } else if (spaced && this.compound(place)) this.backtracks();
      else {
        if (!['', ',', ')'].includes(this.peek())) this.unexpected();
        return true;
      }
    }
  }

  /** One more descendant or "~" combinator, within SELECTOR_LIMITS.backtracking. */
  private backtracks(): void {
    if (++this.backtracking > SELECTOR_LIMITS.backtracking)
      throw new TooComplex(
        `more than ${SELECTOR_LIMITS.backtracking} descendant (" ") and "~" combinators (each relative selector of :has() counts as one): matching backtracks over each; ">" and "+" do not`,
      );
  }

  /** A selector list one level deeper, within SELECTOR_LIMITS.nesting. */
  private nested(place: Place, what: string): void {
    if (++this.nesting > SELECTOR_LIMITS.nesting)
      throw new TooComplex(
        `:is(), :not(), :where(), :has() and :nth-child(… of) nested more than ${SELECTOR_LIMITS.nesting} deep`,
      );
    this.list(place, what);
    this.nesting--;
  }

  private combinator(): string | null {
    const c = this.peek();
    if (c !== '>' && c !== '+' && c !== '~') return null;
    this.pos++;
    return c;
  }

  /** A type selector and what qualifies it; false when it reads nothing. */
  private compound(place: Place): boolean {
    const start = this.pos;
    this.typeSelector();
    for (;;) {
      while (this.comment());
      const c = this.peek();
      if (c === '#' || c === '.') {
        this.pos++;
        if (this.ident() === null)
          this.fail(
            `"${c}${this.text.slice(this.pos, this.pos + 10)}": a CSS identifier must follow "${c}" (one cannot begin with a digit, nor with "-" and a digit)`,
          );
      } else if (c === '[') this.attribute();
      else if (c === ':') this.pseudo(place);
      else {
        if (this.pos === start) return false;
        if (++this.compounds > SELECTOR_LIMITS.compounds)
          throw new TooComplex(
            `more than ${SELECTOR_LIMITS.compounds} compound selectors (the parts between combinators, in every list and argument together)`,
          );
        return true;
      }
    }
  }

  /** `name`, `*`, with a namespace prefix (`ns|`, `*|`, `|`) before either. */
  private typeSelector(): void {
    if (this.ident() === null) this.star();
    if (this.peek() === '|' && this.peek(1) !== '=' && this.peek(1) !== '|') {
      this.pos++;
      if (this.ident() === null && !this.star()) this.fail('"|" is followed by no element name or *');
    }
  }

  private star(): boolean {
    if (this.peek() !== '*') return false;
    this.pos++;
    return true;
  }

  /** `[name]`, `[name op value flag]` (Selectors 4, 6). */
  private attribute(): void {
    const open = this.pos;
    this.pos++;
    this.space();
    if (this.peek() === '*' && this.peek(1) === '|') this.pos++;
    if (this.peek() === '|' && this.peek(1) !== '=') this.pos++;
    const name = this.ident();
    if (name === null) this.fail(`"[" at character ${open + 1} is followed by no attribute name`);
    if (this.peek() === '|' && this.peek(1) !== '=') {
      this.pos++;
      if (this.ident() === null) this.fail(`"[${name}|" is followed by no attribute name`);
    }
    this.space();
    if (this.peek() !== ']') {
      this.matcher(name);
      this.space();
      this.attributeValue(name);
      this.space();
      const flag = this.ident();
      if (flag !== null && flag.toLowerCase() !== 'i')
        this.fail(
          flag.toLowerCase() === 's'
            ? `the attribute flag "${flag}" is not supported by Chromium: leave it out (values compare case-sensitively without "i")`
            : `"${flag}" is no attribute flag (only "i" is)`,
        );
      this.space();
    }
    if (this.peek() === '') this.fail(`"[" at character ${open + 1} is never closed`);
    if (this.peek() !== ']') this.unexpected();
    this.pos++;
  }

  private matcher(name: string): void {
    if (this.peek() === '!' && this.peek(1) === '=')
      this.fail(`"[${name}!=…]": != is an extension of css-select that browsers refuse (write :not([${name}="…"]))`);
    if ('~|^$*'.includes(this.peek()) && this.peek(1) === '=') this.pos += 2;
    else if (this.peek() === '=') this.pos++;
    else if (this.peek() === '') this.fail(`"[${name}" is never closed`);
    else this.fail(`"[${name}" is followed by no "]" nor a test (=, ~=, |=, ^=, $=, *=)`);
  }

  private attributeValue(name: string): void {
    const c = this.peek();
    if (c === '"' || c === "'") return this.string();
    if (this.ident() !== null) return;
    if (c === ']' || c === '') this.fail(`the attribute value after "=" is empty: quote it ([${name}=""])`);
    const value = /^[^\s\]]*/.exec(this.text.slice(this.pos))?.[0] ?? '';
    this.fail(`the attribute value ${value} is no CSS identifier: quote it ([${name}="${value}"])`);
  }

  /** A quoted string; an unclosed one runs to the end, as CSS Syntax 3 (4.3.5) reads it. */
  private string(): void {
    const quote = this.peek();
    this.pos++;
    for (;;) {
      const c = this.peek();
      if (c === '' || c === quote) {
        this.pos++;
        return;
      }
      if (c === '\n' || c === '\r' || c === '\f') this.fail('a quoted string does not end on its line');
      this.pos += c === '\\' ? 2 : 1;
    }
  }

  /** `:name` or `:name(argument)`; `::name` is left to css-select. */
  private pseudo(place: Place): void {
    this.pos++;
    const element = this.peek() === ':';
    if (element) this.pos++;
    const name = this.ident();
    if (name === null) this.fail(`"${element ? '::' : ':'}" is followed by no name`);
    const call = this.peek() === '(';
    if (call) this.pos++;
    const lower = name.toLowerCase();
    const shown = `:${name}${call ? '()' : ''}`;
    if (element) return call ? this.skipArgument() : undefined;
    if (CSS_SELECT_EXTENSIONS.has(lower)) this.fail(`${shown} is an extension of css-select that browsers refuse`);
    if (PLAIN_PSEUDO_CLASSES.has(lower)) {
      if (call) this.fail(`:${name} takes no argument: write it without ()`);
      return;
    }
    if (!FUNCTIONAL_PSEUDO_CLASSES.has(lower)) return call ? this.skipArgument() : undefined;
    if (!call) this.fail(`:${name} needs an argument: :${name}(…)`);
    if (lower === 'has') {
      if (place.inHas) this.fail(':has() cannot be used inside :has()');
      this.nested({ relative: true, inHas: true }, shown);
    } else if (lower === 'lang') {
      this.space();
      const tag = this.ident();
      this.space();
      if (tag === null || this.peek() !== ')')
        this.fail(':lang() takes one language tag, unquoted (:lang(en), :lang(de-CH))');
    } else if (lower.startsWith('nth-')) this.nth(lower, place);
    else this.nested({ relative: false, inHas: place.inHas }, shown);
    this.space();
    if (this.peek() === '') this.fail(`"${shown.slice(0, -1)}" is never closed`);
    if (this.peek() !== ')') this.unexpected();
    this.pos++;
  }

  /** `An+B`, with `of <selectors>` for :nth-child() and :nth-last-child(). */
  private nth(name: string, place: Place): void {
    AN_PLUS_B.lastIndex = this.pos;
    if (!AN_PLUS_B.test(this.text)) {
      const close = this.text.indexOf(')', this.pos);
      const argument = this.text.slice(this.pos, close === -1 ? undefined : close);
      this.fail(`:${name}(${argument}) is not of the form An+B (2n+1, -n+3, odd, even, 5)`);
    }
    this.pos = AN_PLUS_B.lastIndex;
    OF.lastIndex = this.pos;
    if ((name === 'nth-child' || name === 'nth-last-child') && OF.test(this.text)) {
      this.pos = OF.lastIndex;
      this.nested({ relative: false, inHas: place.inHas }, `:${name}(… of)`);
    }
  }

  /** The argument of a pseudo-class or element css-select decides on: up to its closing parenthesis. */
  private skipArgument(): void {
    for (let depth = 1; this.pos < this.text.length;) {
      const c = this.peek();
      if (c === '"' || c === "'") this.string();
      else {
        this.pos += c === '\\' ? 2 : 1;
        if (c === '(') depth++;
        if (c === ')' && --depth === 0) return;
      }
    }
  }

  /** A CSS identifier (CSS Syntax 3, 4.3.10): `--x`, `-x`, `x`, escapes and non-ASCII included. */
  private ident(): string | null {
    const start = this.pos;
    if (this.peek() === '-') {
      this.pos++;
      if (this.peek() === '-') this.pos++;
      else if (!this.nameCharacter(false)) {
        this.pos = start;
        return null;
      }
    } else if (!this.nameCharacter(false)) return null;
    while (this.nameCharacter(true));
    return this.text.slice(start, this.pos);
  }

  /** One character of a name (a digit or "-" only past its start), or an escape. */
  private nameCharacter(inside: boolean): boolean {
    const c = this.peek();
    if (c === '\\') return this.escape();
    if (/[A-Za-z_]/.test(c) || (c !== '' && c.charCodeAt(0) >= 0x80) || (inside && /[\d-]/.test(c))) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** `\` and a character, or up to six hex digits and one whitespace; not `\` and a newline. */
  private escape(): boolean {
    const next = this.peek(1);
    if (next === '\n' || next === '\r' || next === '\f') return false;
    this.pos++;
    const hex = /^[0-9a-fA-F]{1,6}[ \t\n\r\f]?/.exec(this.text.slice(this.pos, this.pos + 7));
    this.pos += hex !== null ? hex[0].length : next === '' ? 0 : 1;
    return true;
  }
}

/** What is wrong with `selector`, in a line: the part that is not standard CSS as Chromium reads it, or the bound of SELECTOR_LIMITS its shape passes; null when neither. */
export function standardSelectorProblem(
  selector: string,
): { kind: 'not standard CSS' | 'too complex'; message: string } | null {
  try {
    new SelectorReader(selector).read();
    return null;
  } catch (error) {
    if (error instanceof NotStandard) return { kind: 'not standard CSS', message: error.message };
    if (error instanceof TooComplex) return { kind: 'too complex', message: error.message };
    throw error;
  }
}
