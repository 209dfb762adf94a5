/**
 * The blocks of a page's Markdown as passages need them, with their offsets: paragraphs,
 * list items, table rows (after the table's header), fenced code blocks whole, and the
 * heading path each sits under. A line scanner, not a CommonMark parser: our converter
 * writes ATX headings, fenced code, "-" lists and pipe tables (extract/html/write/
 * markdown.ts); anything else (text/markdown pages) still splits at blank lines.
 */

export type UnitKind = 'paragraph' | 'list-item' | 'table-head' | 'table-row' | 'code';

export interface Unit {
  kind: UnitKind;
  start: number;
  /** Exclusive, at the end of the unit's last line (its newline not included). */
  end: number;
  /** Index of the heading section the unit sits in (0 before the first heading). */
  section: number;
  headingPath: string[];
  /** The next unit belongs with this one: a table's header row, a list's lead-in. */
  glueNext: boolean;
  /** The header row of the unit's table or the lead-in line of its list. */
  leadIn?: string;
}

interface Line {
  start: number;
  end: number;
  text: string;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const INDENTED = /^(?: {2,}|\t)/;
// GFM delimiter row: `|---|:--:|`, `--- | ---`, `| --- |` (at least one pipe).
const TABLE_DELIMITER = /^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$/;
export const SENTENCE_END = /[.!?。！？](?:["'”’)\]]*)(?=\s)/g;

function splitLines(markdown: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const stop = newline === -1 ? markdown.length : newline;
    const end = stop > start && markdown.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    lines.push({ start, end, text: markdown.slice(start, end) });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/** Heading text without Markdown syntax: `## [Setup](#setup) ##` -> `Setup`. */
export function plainHeading(raw: string): string {
  return raw
    .replace(/^ {0,3}#{1,6}[ \t]*/, '')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\\(.)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * [start, end) cut into pieces of at most `maxChars`: at the last sentence end in the
 * window, else the last white space, else hard (never inside a surrogate pair).
 */
function pieces(text: string, start: number, end: number, maxChars: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  while (end - from > maxChars) {
    const window = text.slice(from, from + maxChars);
    let cut = -1;
    for (const m of window.matchAll(SENTENCE_END))
      if (m.index + m[0].length >= maxChars / 4) cut = m.index + m[0].length;
    if (cut <= 0) cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
    if (cut <= 0) cut = isHighSurrogate(window.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    let pieceEnd = from + cut;
    while (pieceEnd > from && /\s/.test(text[pieceEnd - 1] as string)) pieceEnd--;
    out.push([from, pieceEnd]);
    from += cut;
    while (from < end && /\s/.test(text[from] as string)) from++;
  }
  if (end > from) out.push([from, end]);
  return out;
}

/** The page's units in order. Units longer than `maxChars` (code excepted) are cut at sentence ends. */
export function markdownUnits(markdown: string, maxChars: number): Unit[] {
  const lines = splitLines(markdown);
  const units: Unit[] = [];
  const headings: { level: number; text: string }[] = [];
  let path: string[] = [];
  let section = 0;
  let para: { start: number; end: number } | undefined;
  let item: { start: number; end: number } | undefined;
  let list: { leadIn?: string } | undefined;
  let tableHead: string | undefined;
  let blankBefore = false;
  // The paragraph just pushed, while nothing else followed it: a list's lead-in.
  let leadCandidate: Unit | undefined;

  const push = (kind: UnitKind, start: number, end: number, extra: Partial<Unit> = {}): Unit => {
    const unit: Unit = { kind, start, end, section, headingPath: path, glueNext: false, ...extra };
    units.push(unit);
    leadCandidate = undefined;
    return unit;
  };
  const pushSplit = (kind: UnitKind, start: number, end: number, leadIn?: string): Unit | undefined => {
    let last: Unit | undefined;
    for (const [s, e] of pieces(markdown, start, end, maxChars))
      last = push(kind, s, e, leadIn !== undefined ? { leadIn } : {});
    return last;
  };
  const flushPara = (): void => {
    if (!para) return;
    const last = pushSplit('paragraph', para.start, para.end);
    para = undefined;
    leadCandidate = last;
  };
  const flushItem = (): void => {
    if (!item) return;
    pushSplit('list-item', item.start, item.end, list?.leadIn);
    item = undefined;
  };
  const closeBlocks = (): void => {
    flushPara();
    flushItem();
    list = undefined;
    tableHead = undefined;
    leadCandidate = undefined;
  };
  const enterHeading = (level: number, text: string): void => {
    while (headings.length > 0 && (headings[headings.length - 1] as { level: number }).level >= level) headings.pop();
    headings.push({ level, text });
    path = headings.map((h) => h.text).filter((t) => t !== '');
    section += 1;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const { text } = line;
    if (text.trim() === '') {
      flushPara();
      tableHead = undefined;
      blankBefore = true;
      continue;
    }
    const wasBlank = blankBefore;
    blankBefore = false;

    const fence = FENCE.exec(text);
    if (fence) {
      const marker = fence[1] as string;
      const close = new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      let j = i + 1;
      while (j < lines.length && !close.test((lines[j] as Line).text)) j++;
      const last = lines[Math.min(j, lines.length - 1)] as Line;
      flushPara();
      flushItem();
      tableHead = undefined;
      // An indented fence belongs to the list item above it: the list goes on after it.
      if (!INDENTED.test(text)) list = undefined;
      push('code', line.start, last.end);
      i = j;
      continue;
    }

    const atx = ATX.exec(text);
    if (atx) {
      closeBlocks();
      enterHeading((atx[1] as string).length, plainHeading(text));
      continue;
    }
    const setext = para && !item ? SETEXT.exec(text) : null;
    if (setext && para) {
      const heading = plainHeading(markdown.slice(para.start, para.end));
      para = undefined;
      closeBlocks();
      enterHeading((setext[1] as string).startsWith('=') ? 1 : 2, heading);
      continue;
    }
    if (THEMATIC_BREAK.test(text)) {
      closeBlocks();
      continue;
    }

    if (tableHead !== undefined && text.includes('|')) {
      push('table-row', line.start, line.end, { leadIn: tableHead });
      continue;
    }
    tableHead = undefined;
    const next = lines[i + 1];
    if (text.includes('|') && next && TABLE_DELIMITER.test(next.text)) {
      closeBlocks();
      tableHead = markdown.slice(line.start, next.end);
      push('table-head', line.start, next.end, { glueNext: true });
      i += 1;
      continue;
    }

    if (ITEM.test(text)) {
      flushPara();
      flushItem();
      if (!list) {
        // The paragraph right before a list introduces it ("The options are:").
        const lead = leadCandidate;
        if (lead && lead.section === section) {
          lead.glueNext = true;
          const leadText = markdown.slice(lead.start, lead.end);
          list = { leadIn: leadText.slice(leadText.lastIndexOf('\n') + 1).trim() };
        } else list = {};
      }
      item = { start: line.start, end: line.end };
      continue;
    }
    if (list) {
      // Lazy continuation, or an indented paragraph after a blank line, stays in the item.
      if (item && (!wasBlank || INDENTED.test(text))) {
        item.end = line.end;
        continue;
      }
      if (!item && INDENTED.test(text)) {
        item = { start: line.start, end: line.end };
        continue;
      }
      flushItem();
      list = undefined;
    }

    if (para) para.end = line.end;
    else para = { start: line.start, end: line.end };
  }
  closeBlocks();
  return units;
}
