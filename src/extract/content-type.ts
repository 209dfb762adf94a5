/**
 * Content-Type parsing and the allowlist of extractable types (docs/interface.md 4.2:
 * HTML and XHTML, plain text, Markdown, CSV, JSON incl. +json, XML incl. RSS, Atom and
 * sitemaps). Anything not on the list is unsupported: an allowlist fails closed on the
 * many binary types.
 */

import type { ContentKind } from './types.js';

export interface ParsedContentType {
  /** Lower-cased `type/subtype`, parameters removed. */
  essence: string;
  /** Lower-cased `charset` parameter, quotes removed, when present. */
  charset?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Parses a Content-Type header. A header repeated by the server reaches us joined with
 * ", " (see net/fetch-types.ts); like WHATWG Fetch's "extract a MIME type" the last valid
 * value wins, and a charset carries over from an earlier value of the same essence.
 * Returns null for a missing, empty or unparseable header.
 */
export function parseContentType(header: string | null): ParsedContentType | null {
  if (header === null) return null;
  let result: ParsedContentType | null = null;
  for (const value of splitOutsideQuotes(header, ',')) {
    const parsed = parseOne(value);
    if (parsed === null) continue;
    if (result !== null && result.essence === parsed.essence && parsed.charset === undefined) {
      continue;
    }
    result = parsed;
  }
  return result;
}

function parseOne(value: string): ParsedContentType | null {
  const [head = '', ...params] = splitOutsideQuotes(value, ';');
  const essence = head.trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return null;
  if (!TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return null;
  // `*/*` and `text/*` come from sloppy servers; they say nothing about the body.
  if (essence.includes('*')) return null;
  const result: ParsedContentType = { essence };
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let charset = param.slice(eq + 1).trim();
    if (charset.startsWith('"')) charset = charset.slice(1, charset.endsWith('"') ? -1 : undefined);
    charset = charset.replace(/\\(.)/g, '$1').trim().toLowerCase();
    if (charset !== '' && result.charset === undefined) result.charset = charset;
  }
  return result;
}

/** Splits on `separator` except inside double quotes (a quoted charset may hold anything). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const EXACT_KINDS: ReadonlyMap<string, ContentKind> = new Map<string, ContentKind>([
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['text/plain', 'text'],
  ['text/markdown', 'markdown'],
  ['text/x-markdown', 'markdown'],
  ['text/csv', 'csv'],
  ['text/x-csv', 'csv'],
  ['application/csv', 'csv'],
  // TSV is CSV with a tab delimiter: the dispatcher passes the tab (see isTabSeparated).
  ['text/tab-separated-values', 'csv'],
  ['application/json', 'json'],
  ['text/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
]);

/**
 * The kind of converter for a Content-Type header, or null when the type is missing or
 * unsupported. Structured-syntax suffixes count: `application/ld+json` is JSON,
 * `application/rss+xml` is XML; `image/svg+xml` stays an image (docs/interface.md 4.2:
 * SVG is refused).
 */
export function classifyContentType(header: string | null): ContentKind | null {
  const parsed = parseContentType(header);
  if (parsed === null) return null;
  return kindOfEssence(parsed.essence);
}

export function kindOfEssence(essence: string): ContentKind | null {
  const exact = EXACT_KINDS.get(essence);
  if (exact !== undefined) return exact;
  const type = essence.slice(0, essence.indexOf('/'));
  // Suffixes only on types that carry documents; image/*, audio/*, model/* … stay refused.
  if (type !== 'application' && type !== 'text') return null;
  if (essence.endsWith('+json')) return 'json';
  if (essence.endsWith('+xml')) return 'xml';
  return null;
}

/** Whether the essence announces tab-separated values rather than comma-separated. */
export function isTabSeparated(essence: string): boolean {
  return essence === 'text/tab-separated-values';
}
