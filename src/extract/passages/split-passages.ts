/**
 * A page's passages: its Markdown units (markdown-units.ts) merged in page order up to a
 * target size, never across a heading, a table's header and a list's lead-in kept with
 * what follows them.
 */
import { markdownUnits, type Unit } from './markdown-units.js';
import type { Passage } from './passage.js';

/**
 * The sizes of a passage, in characters: three of them fill about the default
 * `max_passage_chars` (1,500) without a cut (docs/decisions.md, "Query-focused passages";
 * bench:passages).
 */
export const PASSAGE_SIZE = {
  /** A passage takes the next unit while it is shorter than this... */
  targetChars: 300,
  /** ...and the two together stay within this (a lone longer unit is cut at sentences). */
  maxChars: 600,
} as const;

interface Open {
  first: Unit;
  start: number;
  end: number;
  glue: boolean;
}

function toPassage(markdown: string, open: Open): Passage {
  const passage: Passage = {
    text: markdown.slice(open.start, open.end),
    heading_path: open.first.headingPath,
    start_char: open.start,
    end_char: open.end,
    score: 0,
  };
  // A passage that opens inside a table or list, past its header or lead-in, names it.
  const inside = open.first.kind === 'table-row' || open.first.kind === 'list-item';
  if (inside && open.first.leadIn !== undefined && open.first.leadIn !== '') passage.lead_in = open.first.leadIn;
  return passage;
}

/** The page's passages in page order, score 0; `text === markdown.slice(start_char, end_char)`. */
export function splitPassages(markdown: string): Passage[] {
  const passages: Passage[] = [];
  let open: Open | undefined;
  for (const unit of markdownUnits(markdown, PASSAGE_SIZE.maxChars)) {
    if (open) {
      const sameSection = unit.section === open.first.section;
      const fits = open.end - open.start < PASSAGE_SIZE.targetChars && unit.end - open.start <= PASSAGE_SIZE.maxChars;
      if (sameSection && (open.glue || fits)) {
        open.end = unit.end;
        open.glue = unit.glueNext;
        continue;
      }
      passages.push(toPassage(markdown, open));
    }
    open = { first: unit, start: unit.start, end: unit.end, glue: unit.glueNext };
  }
  if (open) passages.push(toPassage(markdown, open));
  return passages;
}
