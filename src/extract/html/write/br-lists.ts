/**
 * Lists a page types as lines parted by `<br>` (`• Apples<br>• Pears`, `1. Mix<br>2. Bake`),
 * written as Markdown lists: as they were, each line was an escaped marker (`\- Apples`)
 * in one paragraph. docs/extraction.md, "Markdown".
 */

import type TurndownService from 'turndown';
import { escapeRegExp } from '../../../core/escape-reg-exp.js';
import type { DomElement, DomNode } from '../dom.js';
import { COMMENT_NODE, INLINE_TAGS, TEXT_NODE, isElement, nextInTree, tagOf } from '../dom.js';
import { withoutMarks } from '../clean/escape-line-starts.js';

/** Blocks Turndown writes as their content between blank lines: a list can take their place. */
const HOSTS: ReadonlySet<string> = new Set(['p', 'div', 'section', 'article', 'main', 'center']);

/**
 * Where lines are joined into one (a table cell's row, tables.ts; a heading, a link, a
 * term: markdown.ts): the bullets are all that parts the items there.
 */
const ONE_LINE = 'td, th, h1, h2, h3, h4, h5, h6, a, dt';

/** Elements a line may hold besides the inline ones: they write no line break. */
const LINE_TAGS: ReadonlySet<string> = new Set([...INLINE_TAGS, 'img', 'code', 'br']);

/**
 * Bullets, each a kind of its own: ASCII ones and dashes need a space after them (`-5 °C`,
 * `*Terms apply` are text), typographic ones not (`•Apples`).
 */
const SPACED_BULLET = /^([-*+–·])\s+\S/u;
const SYMBOL_BULLET = /^([•◦‣▪▸►●○■])\s*\S/u;
const NUMBERED = /^(\d{1,9})([.)])\s+\S/;

interface Marker {
  /** The bullet, or a number's delimiter (`.`, `)`): no bullet is one. */
  kind: string;
  /** Its number; null for a bullet. */
  number: number | null;
}

interface Plan {
  /** Lines before the first item, kept as a paragraph. */
  lead: number;
  items: Marker[];
}

function markerOf(line: string): Marker | null {
  const numbered = NUMBERED.exec(line);
  if (numbered !== null) return { kind: numbered[2]!, number: Number(numbered[1]) };
  const bullet = SPACED_BULLET.exec(line) ?? SYMBOL_BULLET.exec(line);
  return bullet === null ? null : { kind: bullet[1]!, number: null };
}

/** Characters of a line enough to read its marker (`123456789. x`). */
const PREFIX_CHARS = 16;

/**
 * The opening characters of each line of `element` parted by its own `<br>`s (blank lines
 * left out), or null when it holds no `<br>` or an element that would break a line
 * otherwise. A line is read only as far as its marker: a chain of nested hosts is not read
 * once per level.
 */
function linesOf(element: DomElement): string[] | null {
  const lines: string[] = [];
  let line = '';
  let media = false;
  let breaks = 0;
  const full = (): boolean => line.trimStart().length >= PREFIX_CHARS;
  const read = (inline: DomElement): void => {
    for (
      let node = nextInTree(inline, inline, false);
      node !== null && !full();
      node = nextInTree(node, inline, false)
    ) {
      if (node.nodeType === TEXT_NODE) line += node.textContent ?? '';
      else if (isElement(node) && tagOf(node) === 'img') media = true;
    }
  };
  const end = (): void => {
    // Without the marks line-starts.ts left before a marker.
    line = withoutMarks(line);
    if (line.trim() !== '' || media) lines.push(line.trim());
    line = '';
    media = false;
  };
  for (let child: DomNode | null = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) line += child.textContent ?? '';
    else if (isElement(child)) {
      const tag = tagOf(child);
      if (!LINE_TAGS.has(tag)) return null;
      if (tag === 'br') {
        breaks++;
        end();
      } else if (tag === 'img') media = true;
      else if (!full()) read(child);
    } else if (child.nodeType !== COMMENT_NODE) return null;
  }
  end();
  return breaks === 0 ? null : lines;
}

/**
 * Its lines as a list, when at least two follow its lead-in and every one of them opens
 * with a marker of one kind (numbers counting up by one); else null.
 */
function planOf(element: DomElement): Plan | null {
  if (!HOSTS.has(tagOf(element))) return null;
  const lines = linesOf(element);
  if (lines === null || lines.length < 2) return null;
  const markers = lines.map(markerOf);
  const lead = markers.findIndex((m) => m !== null);
  if (lead === -1 || lines.length - lead < 2) return null;
  const first = markers[lead]!;
  const items: Marker[] = [];
  for (const marker of markers.slice(lead)) {
    if (marker === null || marker.kind !== first.kind) return null;
    if (marker.number !== null && marker.number !== first.number! + items.length) return null;
    items.push(marker);
  }
  return element.closest(ONE_LINE) === null ? { lead, items } : null;
}

/** Noncharacter marks line-starts.ts leaves (U+FDD0, U+FDD1: no escape, an escape). */
const MARKS = '[\\uFDD0\\uFDD1]*';

/** The marker as Turndown and line-starts.ts wrote it at a line's start, escaped or not. */
function writtenMarker(marker: Marker): RegExp {
  if (marker.number !== null) return new RegExp(`^\\s*${MARKS}\\d{1,9}${MARKS}\\\\?${escapeRegExp(marker.kind)}\\s*`);
  return new RegExp(`^\\s*${MARKS}\\\\?${escapeRegExp(marker.kind)}\\s*`, 'u');
}

/** What would open a block at the start of an item's text (CommonMark 4, 5), escaped. */
const ITEM_BLOCK_START = /^(?:#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|```|~~~|(?:[-*_][ \t]*){3,}$)/;
const ITEM_NUMBER_START = /^(\d{1,9})([.)])(?=\s|$)/;

function itemText(text: string): string {
  const rest = text.replace(/^\uFDD0+/, '').trim();
  if (ITEM_BLOCK_START.test(rest)) return `\\${rest}`;
  return rest.replace(ITEM_NUMBER_START, '$1\\$2');
}

/**
 * Writes a block whose `<br>`-parted lines are a list (planOf) as its lead-in paragraph
 * and a list: `-` items, or the page's numbers. When Turndown's lines do not match the
 * page's one for one, or a marker is not where it was, the block is written as before.
 */
export function addBrListRule(service: TurndownService): void {
  const plans = new WeakMap<object, Plan>();
  service.addRule('brList', {
    filter: (node) => {
      const plan = planOf(node as unknown as DomElement);
      if (plan !== null) plans.set(node, plan);
      return plan !== null;
    },
    replacement: (content, node) => {
      const plan = plans.get(node)!;
      const lines = content.split('\n').filter((line) => line.trim() !== '');
      const asBefore = `\n\n${content}\n\n`;
      if (lines.length !== plan.lead + plan.items.length) return asBefore;
      const items: string[] = [];
      for (const [i, marker] of plan.items.entries()) {
        const line = lines[plan.lead + i]!;
        const written = writtenMarker(marker).exec(line);
        if (written === null) return asBefore;
        const text = itemText(line.slice(written[0].length));
        if (text === '') return asBefore;
        items.push(`${marker.number === null ? '-' : `${marker.number}.`} ${text}`);
      }
      const lead = lines.slice(0, plan.lead).join('\n');
      return `\n\n${lead === '' ? '' : `${lead}\n\n`}${items.join('\n')}\n\n`;
    },
  });
}
