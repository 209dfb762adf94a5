/**
 * The document's JSON-LD blocks, parsed: every `<script type="application/ld+json">` (the
 * type trimmed, in any case), in page order. A block some CMS wrapped in an HTML comment or
 * a CDATA section, or left with trailing commas or raw line breaks in its strings, is
 * repaired once before it is given up on; one that still fails says so instead of throwing.
 * Read by the page metadata (metadata.ts), the product facts (product-page.ts) and the
 * structured data (structured-data/json-ld.ts), each block parsed once for all three: its
 * value is shared, and none of them changes it.
 */

import type { DomDocument, DomElement } from '../dom.js';

/** Upper bound on the JSON-LD text parsed per script (some embed whole catalogues). */
export const MAX_JSON_LD_CHARS = 1_000_000;

export interface JsonLdBlock {
  /** 1-based, among the document's JSON-LD scripts. */
  index: number;
  /** The text parsed (unwrapped and trimmed), to tell identical blocks apart; '' when not parsed. */
  text: string;
  /** The parsed value, when the block parsed. */
  value?: unknown;
  problem?: 'empty' | 'too-long' | 'invalid';
}

/**
 * Each script's block as last parsed, with the text it was parsed from: the metadata, the
 * product facts and the structured data read the same blocks of a page, parsed once.
 */
const parsedBlocks = new WeakMap<DomElement, { raw: string; block: JsonLdBlock }>();

/** Blocks whose text contains `needle` only, when given (a cheap filter before parsing). */
export function* jsonLdBlocks(doc: DomDocument, needle?: string): Generator<JsonLdBlock> {
  let index = 0;
  for (const script of Array.from(doc.getElementsByTagName('script'))) {
    if (script.getAttribute('type')?.trim().toLowerCase() !== 'application/ld+json') continue;
    index += 1;
    const raw = script.textContent ?? '';
    if (raw.length > MAX_JSON_LD_CHARS) {
      yield { index, text: '', problem: 'too-long' };
      continue;
    }
    if (needle !== undefined && !raw.includes(needle)) continue;
    const known = parsedBlocks.get(script);
    if (known !== undefined && known.raw === raw && known.block.index === index) {
      yield known.block;
      continue;
    }
    const block = parsedBlock(index, raw);
    parsedBlocks.set(script, { raw, block });
    yield block;
  }
}

function parsedBlock(index: number, raw: string): JsonLdBlock {
  const text = unwrapped(raw);
  if (text === '') return { index, text, problem: 'empty' };
  const parsed = parsedJson(text) ?? parsedJson(repaired(text));
  return parsed === undefined ? { index, text, problem: 'invalid' } : { index, text, value: parsed.value };
}

function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const OPENER = /^(?:<!--|(?:\/\/|\/\*)?[ \t]*<!\[CDATA\[(?:[ \t]*\*\/)?)/;
const CLOSER = /(?:-->|(?:\/\/|\/\*)?[ \t]*\]\]>(?:[ \t]*\*\/)?)$/;

/** The text without the comment and CDATA wrappers around it (`<!-- //<![CDATA[ ... //]]> -->`). */
function unwrapped(raw: string): string {
  let text = raw.trim();
  for (let round = 0; round < 3; round += 1) {
    const start = OPENER.exec(text);
    if (start !== null) text = text.slice(start[0].length).trimStart();
    // The closer is looked for in the tail only: the pattern unanchored at its start stays linear.
    const tail = text.slice(-32);
    const end = CLOSER.exec(tail);
    if (end !== null) text = text.slice(0, text.length - tail.length + end.index).trimEnd();
    if (start === null && end === null) break;
  }
  return text;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * One linear pass over the text that drops commas before `}` or `]` and escapes control
 * characters inside strings, the two slips hand-written JSON-LD makes most.
 */
function repaired(text: string): string {
  const out: string[] = [];
  let from = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (inString) {
      if (c === 0x5c)
        at += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      else if (c < 0x20) {
        const char = text[at]!;
        out.push(text.slice(from, at), ESCAPES[char] ?? `\\u${c.toString(16).padStart(4, '0')}`);
        from = at + 1;
      }
    } else if (c === 0x22) inString = true;
    else if (c === 0x2c) {
      let next = at + 1;
      while (next < text.length && /\s/.test(text[next]!)) next += 1;
      if (text[next] === '}' || text[next] === ']') {
        out.push(text.slice(from, at));
        from = at + 1;
      }
    }
  }
  out.push(text.slice(from));
  return out.join('');
}
