/**
 * Tables as GFM tables: layout tables become blocks, lists in data cells go on one line,
 * row spans are spelled out, a headless table's first row heads it; then `addTableRules`
 * writes the rows (the GFM plugin's rules need `HTMLTableElement.rows`, which linkedom
 * lacks). docs/extraction.md, "Tables".
 */

import type TurndownService from 'turndown';
import type { DomDocument, DomElement, DomNode } from '../dom.js';
import { TEXT_NODE, childElements, descendants, isElement, nextInTree, normalizeSpace, retag, tagOf } from '../dom.js';
import { MATH_TEX_MARK } from '../marks.js';
import { THRESHOLDS } from '../thresholds.js';

/**
 * The rows by row group in tree order (a run of rows straight in the table is an implied
 * body).
 */
function rowGroups(table: DomElement): DomElement[][] {
  const groups: DomElement[][] = [];
  let implied: DomElement[] | null = null;
  for (const child of childElements(table)) {
    const tag = tagOf(child);
    if (tag === 'tr') {
      if (implied === null) groups.push((implied = []));
      implied.push(child);
    } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      groups.push(childElements(child).filter((row) => tagOf(row) === 'tr'));
      implied = null;
    }
  }
  return groups;
}

function tableRows(table: DomElement): DomElement[] {
  return rowGroups(table).flat();
}

const CELL_TAGS: ReadonlySet<string> = new Set(['td', 'th']);
/** Cell content that makes a table a layout (the plugin would emit such a table as HTML). */
const BLOCK_IN_CELL: ReadonlySet<string> = new Set([
  'table',
  'dl',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'blockquote',
  'pre',
  'form',
  'article',
  'section',
]);
const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol']);
const ITEM_TAG: ReadonlySet<string> = new Set(['li']);

function cellsOf(row: DomElement): DomElement[] {
  return childElements(row).filter((el) => CELL_TAGS.has(tagOf(el)));
}

function listsAreData(rows: DomElement[]): boolean {
  return (
    rows.length >= THRESHOLDS.MIN_LIST_TABLE_ROWS &&
    rows.some((row) => cellsOf(row).some((cell) => tagOf(cell) === 'th'))
  );
}

function isDataTable(table: DomElement, rows: DomElement[]): boolean {
  const role = table.getAttribute('role')?.toLowerCase();
  if (role === 'presentation' || role === 'none') return false;
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, cellsOf(row).length);
  if (columns < 2 || descendants(table, BLOCK_IN_CELL).length > 0) return false;
  return descendants(table, LIST_TAGS).length === 0 || listsAreData(rows);
}

/** Text that ends a list item's sentence or clause: the next item follows a space. */
const ENDS_CLAUSE = /[.;,:!?]$/;
/** What makes a list item without text worth keeping. */
const ITEM_MEDIA = `img, picture, [${MATH_TEX_MARK}]`;

/**
 * Takes the white space off the start or end of the text under `element`, across text
 * nodes.
 */
function trimEdge(element: DomElement, end: boolean): void {
  const texts: DomNode[] = [];
  for (let node = nextInTree(element, element, false); node !== null; node = nextInTree(node, element, false)) {
    if (node.nodeType === TEXT_NODE) texts.push(node);
  }
  if (end) texts.reverse();
  for (const text of texts) {
    const trimmed = (text.textContent ?? '').replace(end ? /[\s\u00a0]+$/ : /^[\s\u00a0]+/, '');
    text.textContent = trimmed;
    if (trimmed !== '') return;
  }
}

/**
 * Writes each list in a data table's cells on one line: items joined by "; " (a space after
 * a stop), an inner list in parentheses after its item, empty items dropped; inner lists
 * first.
 */
function flattenCellLists(doc: DomDocument, table: DomElement): void {
  for (const list of descendants(table, LIST_TAGS).reverse()) {
    for (let child = list.firstChild; child !== null;) {
      const next = child.nextSibling;
      if (child.nodeType === TEXT_NODE && (child.textContent ?? '').trim() === '') child.remove();
      child = next;
    }
    let previous: { span: DomElement; text: string } | null = null;
    // The inner lists are spans by now: every item left below belongs to this list.
    for (const item of descendants(list, ITEM_TAG)) {
      const text = normalizeSpace(item.textContent);
      if (text === '' && item.querySelector(ITEM_MEDIA) === null) {
        item.remove();
        continue;
      }
      // A wrapper between list and item (`<ul><div><li>`) is a block to Turndown: it would
      // break the line.
      const wrappers: DomElement[] = [];
      for (let up = item.parentElement; up !== null && up !== list; up = up.parentElement) wrappers.push(up);
      for (const wrapper of wrappers) retag(doc, wrapper, 'span');
      for (const paragraph of childElements(item).filter((child) => tagOf(child) === 'p')) {
        if (paragraph.nextSibling !== null)
          paragraph.parentNode?.insertBefore(doc.createTextNode(' '), paragraph.nextSibling);
        retag(doc, paragraph, 'span');
      }
      trimEdge(item, false);
      if (previous !== null) {
        // The item's trailing white space would come before the separator (` ; `).
        trimEdge(previous.span, true);
        item.parentNode?.insertBefore(doc.createTextNode(ENDS_CLAUSE.test(previous.text) ? ' ' : '; '), item);
      }
      previous = { span: retag(doc, item, 'span'), text };
    }
    const owner = list.parentElement?.closest('li') ?? null;
    const line = retag(doc, list, 'span');
    if (owner !== null && owner.closest('table') === table && previous !== null) {
      line.insertBefore(doc.createTextNode(' ('), line.firstChild);
      // A space after it when the item's text goes on (`a (b) tail`, not `a (b)tail`).
      const after = line.nextSibling;
      line.appendChild(
        doc.createTextNode(after !== null && /^[^\s\u00a0.,;:!?)]/.test(after.textContent ?? '') ? ') ' : ')'),
      );
    }
  }
}

function linearize(doc: DomDocument, table: DomElement): void {
  for (const el of descendants(table)) {
    // Only this table's own structure: nested tables are judged on their own.
    if (el.closest('table') !== table) continue;
    const tag = tagOf(el);
    if (
      tag === 'tr' ||
      tag === 'td' ||
      tag === 'th' ||
      tag === 'caption' ||
      tag === 'thead' ||
      tag === 'tbody' ||
      tag === 'tfoot'
    ) {
      retag(doc, el, 'div');
    }
  }
  retag(doc, table, 'div');
}

function ensureHeaderRow(doc: DomDocument, table: DomElement, rows: DomElement[]): void {
  const thead = childElements(table).find((el) => tagOf(el) === 'thead');
  if (thead !== undefined) {
    if (childElements(thead).some((el) => tagOf(el) === 'tr')) return;
    thead.remove();
  }
  const first = rows[0];
  if (first === undefined) return;
  const head = doc.createElement('thead');
  const firstSection = childElements(table).find(
    (el) => tagOf(el) !== 'caption' && tagOf(el) !== 'colgroup' && tagOf(el) !== 'col',
  );
  table.insertBefore(head, firstSection ?? null);
  head.appendChild(first);
}

function rowSpan(cell: DomElement): number {
  const n = Number.parseInt(cell.getAttribute('rowspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, THRESHOLDS.MAX_ROW_SPAN) : 1;
}

/**
 * GFM has no row spans: a spanning cell is repeated in each row it covers, so that every
 * row keeps its columns and reads on its own; column spans stay one cell and empty ones.
 */
function fillRowSpans(doc: DomDocument, rows: DomElement[], budget: { chars: number }): void {
  if (!rows.some((row) => cellsOf(row).some((cell) => rowSpan(cell) > 1))) return;
  let width = 0;
  for (const row of rows) width = Math.max(width, rowWidth(row));
  if (width * rows.length > THRESHOLDS.MAX_ROW_SPAN_SLOTS) return;
  // Per column: the cell spanning down into it (shared by the columns it spans) and the
  // rows it still covers.
  const above: Array<{ cell: DomElement; columns: number; rows: number; chars: number } | undefined> = [];
  for (const row of rows) {
    let column = 0;
    const fill = (before: DomElement | null): void => {
      for (let down = above[column]; down !== undefined && down.rows > 0; down = above[column]) {
        const copy = doc.createElement(tagOf(down.cell));
        if (down.columns > 1) copy.setAttribute('colspan', String(down.columns));
        if (down.chars <= budget.chars) {
          budget.chars -= down.chars;
          for (let child = down.cell.firstChild; child !== null; child = child.nextSibling)
            copy.appendChild(child.cloneNode(true));
        }
        row.insertBefore(copy, before);
        down.rows -= 1;
        column += down.columns;
      }
    };
    for (const cell of cellsOf(row)) {
      fill(cell);
      const columns = span(cell);
      const down =
        rowSpan(cell) > 1 ? { cell, columns, rows: rowSpan(cell) - 1, chars: cell.innerHTML.length } : undefined;
      for (let k = 0; k < columns; k++) above[column + k] = down;
      column += columns;
    }
    for (; column < above.length; column += 1) fill(null);
  }
}

export function normalizeTables(doc: DomDocument, root: DomElement): void {
  const tables = descendants(root, new Set(['table']));
  // Every table is judged on the markup as written, before any of them is rewritten.
  const isData = tables.map((table) => isDataTable(table, tableRows(table)));
  tables.forEach((table, i) => {
    if (isData[i]) {
      // A row span ends with its row group (HTML 4.9.11): each group is laid out alone.
      const budget = { chars: THRESHOLDS.MAX_ROW_SPAN_COPY_CHARS };
      for (const group of rowGroups(table)) fillRowSpans(doc, group, budget);
      ensureHeaderRow(doc, table, tableRows(table));
      flattenCellLists(doc, table);
    } else linearize(doc, table);
  });
}

// ---------------------------------------------------------------------------------------
// Turndown rules (they run on Turndown's clone of the prepared tree)

function parentTable(node: DomNode): DomElement | null {
  for (let p = node.parentNode; p !== null; p = p.parentNode) if (tagOf(p) === 'table') return p;
  return null;
}

function span(cell: DomElement): number {
  const n = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, THRESHOLDS.MAX_COLUMN_SPAN) : 1;
}

function rowWidth(row: DomElement): number {
  return cellsOf(row).reduce((sum, cell) => sum + span(cell), 0);
}

function columnCount(table: DomElement): number {
  let count = 0;
  for (const row of tableRows(table)) count = Math.max(count, rowWidth(row));
  return count;
}

function isFirstCell(cell: DomElement): boolean {
  for (let prev = cell.previousSibling; prev !== null; prev = prev.previousSibling) {
    if (isElement(prev) && CELL_TAGS.has(tagOf(prev))) return false;
  }
  return true;
}

function cellText(content: string): string {
  return content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

export function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = node as unknown as DomElement;
      const text = ` ${cellText(content)} |` + '  |'.repeat(span(cell) - 1);
      return isFirstCell(cell) ? `|${text}` : text;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as unknown as DomElement;
      const section = row.parentNode;
      const table = parentTable(row);
      if (content.trim() === '') return '';
      const isHeader = section !== null && tagOf(section) === 'thead' && childElements(section)[0] === row;
      if (!isHeader || table === null) return `\n${content.trim()}`;
      // GFM reads a table only when its header row has as many cells as the delimiter row
      // (GFM 0.29, 4.10): a short header is padded.
      const columns = Math.max(1, columnCount(table));
      const missing = columns - rowWidth(row);
      return `\n${content.trim()}${'  |'.repeat(Math.max(0, missing))}\n|${' --- |'.repeat(columns)}`;
    },
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('tableCaption', {
    filter: ['caption'],
    replacement: () => '',
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      const caption = service.escape(
        normalizeCaption((node as unknown as DomElement).querySelector('caption')?.textContent),
      );
      const rows = content.replace(/\n+/g, '\n').trim();
      if (rows === '') return caption ? `\n\n${caption}\n\n` : '';
      return `\n\n${caption ? `${caption}\n\n` : ''}${rows}\n\n`;
    },
  });
}

function normalizeCaption(text: string | null | undefined): string {
  return (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
}
