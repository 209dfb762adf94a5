/**
 * Pre-parse hardening of XML text, done on the raw string before fast-xml-parser sees it:
 * the DOCTYPE (home of entity declarations: billion laughs, external entities) is cut from
 * the prolog, and bare `&` that real feeds carry are escaped so they validate.
 */

export interface Prolog {
  /** Index of the root element's start tag (or where the prolog stops making sense). */
  root: number;
  /** Start and end of the DOCTYPE declaration, internal subset included. */
  doctype?: [number, number];
}

/** Walks the prolog: whitespace, a BOM, the XML declaration, PIs, comments, the DOCTYPE. */
export function readProlog(text: string): Prolog {
  const prolog: Prolog = { root: 0 };
  let i = 0;
  for (;;) {
    while (i < text.length && /\s|\uFEFF/.test(text[i]!)) i++;
    prolog.root = i;
    let end: number;
    if (text.startsWith('<?', i)) {
      end = text.indexOf('?>', i);
      if (end >= 0) end += 2;
    } else if (text.startsWith('<!--', i)) {
      end = text.indexOf('-->', i);
      if (end >= 0) end += 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      end = doctypeEnd(text, i + 9);
      if (end >= 0) prolog.doctype = [i, end];
    } else {
      return prolog;
    }
    if (end < 0) return prolog;
    i = end;
  }
}

/**
 * Removes the DOCTYPE from the prolog (only there: a `<!DOCTYPE html>` inside a CDATA feed
 * item is content), and with it any entity declarations.
 */
export function stripDoctype(text: string, prolog: Prolog): string {
  if (prolog.doctype === undefined) return text;
  const [start, end] = prolog.doctype;
  return text.slice(0, start) + text.slice(end);
}

/** End of a DOCTYPE; quotes are honoured so `]>` inside an entity value cannot end it early. */
function doctypeEnd(text: string, start: number): number {
  let quote: string | null = null;
  let subset = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '[') {
      subset = true;
    } else if (char === ']') {
      subset = false;
    } else if (char === '>' && !subset) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * Real feeds carry bare `&` in text (`Q&A`), which the validator rightly refuses; escaping
 * them outside CDATA sections saves the feed without changing what it says.
 */
export function escapeBareAmpersands(text: string): string {
  if (!text.includes('&')) return text;
  return text
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/&(?!(?:[A-Za-z_][\w.-]*|#\d+|#[xX][0-9a-fA-F]+);)/g, '&amp;'),
    )
    .join('');
}
