/**
 * JSON, pretty-printed with a 2-space indent inside a ```json fence.
 *
 * The re-indent works on the source tokens, not on JSON.parse's values: a round trip through
 * numbers would corrupt integers past 2^53 (ids!) and rewrite `1.0` as `1`, and strings keep
 * their escapes exactly as served. JSON.parse still runs first, as the validity check.
 * Invalid JSON (JSONP, NDJSON, a truncated body) is not an error: the raw text goes in the
 * fence, since the agent can still read it.
 */

import { fencedBlock } from './text.js';

const INDENT = '  ';
/**
 * Indentation grows with depth: 200 KB of `[[[[…]]]]` would pretty-print to gigabytes.
 * Past this depth, or past this growth factor, the source is shown as served instead.
 */
const MAX_DEPTH = 64;
const MAX_GROWTH = 4;

export function convertJson(text: string): string {
  const source = text.replace(/^\uFEFF/, '').trim();
  if (source === '') return '';
  try {
    JSON.parse(source);
  } catch {
    return fencedBlock(source, 'json');
  }
  return fencedBlock(reindent(source) ?? source, 'json');
}

/** A string, a structural character, or a number/literal; whitespace falls between matches. */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\],:]|[^\s{}[\],:"]+/g;

/**
 * Re-indents JSON already known to be valid; tokens are copied verbatim. The tokenizer is
 * one native regex scan, so a 10 MB document takes a few hundred milliseconds.
 */
function reindent(source: string): string | null {
  const budget = source.length * MAX_GROWTH + 1024;
  let size = 0;
  const out: string[] = [];
  const indents: string[] = ['\n'];
  const newline = (depth: number): string => (indents[depth] ??= `\n${INDENT.repeat(depth)}`);
  let depth = 0;
  let previous = '';

  for (const [token] of source.matchAll(TOKEN)) {
    const first = token[0];
    if (first === '}' || first === ']') {
      depth--;
      // Empty containers stay on one line: `{}` and `[]`.
      if (previous === '{' || previous === '[') out.push(token);
      else out.push(newline(depth), token);
    } else {
      if (previous === '{' || previous === '[') out.push(newline(depth));
      if (first === '{' || first === '[') {
        if (++depth > MAX_DEPTH) return null;
        out.push(token);
      } else if (first === ',') {
        out.push(',', newline(depth));
      } else if (first === ':') {
        out.push(': ');
      } else {
        out.push(token);
      }
    }
    previous = token;
    // Each token adds at most itself, a newline and the indent of the current depth.
    size += token.length + 2 + depth * INDENT.length;
    if (size > budget) return null;
  }
  return out.join('');
}
