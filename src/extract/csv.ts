/**
 * CSV to a GFM table. The parser follows RFC 4180 (quoted fields, `""` escapes, CRLF or LF,
 * line breaks inside quotes) and is lenient where real files are not: a stray quote inside
 * an unquoted field is kept as a character, text after a closing quote is appended.
 * The delimiter is sniffed among `,` `;` tab and `|` (European exports use `;`). Every row
 * is rendered; paging long output is the caller's job (max_chars).
 */

export interface CsvOptions {
  /** Field separator; sniffed from the first rows when absent. */
  delimiter?: string;
}

const CANDIDATES = [',', ';', '\t', '|'] as const;
/** Rows and characters looked at to choose the delimiter. */
const SNIFF_ROWS = 20;
const SNIFF_CHARS = 64 * 1024;

export function convertCsv(text: string, options: CsvOptions = {}): string {
  const delimiter = options.delimiter ?? sniffDelimiter(text);
  const rows = parseCsv(text, delimiter).filter((row) => !(row.length === 1 && row[0]!.trim() === ''));
  if (rows.length === 0) return '';
  let width = 0;
  let cells = 0;
  for (const row of rows) {
    width = Math.max(width, row.length);
    cells += row.length;
  }
  // Ragged rows are padded to the widest row. When padding would multiply the output (one
  // 10 000-column row among 10 000 one-cell rows), only the header is padded: GFM fills
  // short rows with empty cells itself, while cells past the header's width would be lost.
  const padAll = rows.length * width <= cells * 2 + 10_000;
  const lines = rows.map((row, index) => renderRow(row, padAll || index === 0 ? width : row.length));
  // GFM needs a header row; the first record is it, as in nearly every CSV.
  lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return lines.join('\n');
}

function renderRow(row: string[], width: number): string {
  let line = '|';
  for (let column = 0; column < width; column++) line += ` ${renderCell(row[column] ?? '')} |`;
  return line;
}

/** A table cell holds one line and no HTML: line breaks become spaces, pipes are escaped. */
function renderCell(value: string): string {
  return value
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/**
 * RFC 4180 records; a trailing line break does not make an extra empty record. Fields are
 * cut with indexOf and a native regex search rather than char by char: a 10 MB file is
 * parsed in a fraction of a second.
 */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  const length = text.length;
  if (length === 0) return rows;
  // Next delimiter or line break (delimiter is a single character; escape it for the class).
  const stop = new RegExp(`[${delimiter.replace(/[\\\]^-]/g, '\\$&')}\\r\\n]`, 'g');
  const nextStop = (from: number): number => {
    stop.lastIndex = from;
    return stop.exec(text)?.index ?? length;
  };

  let row: string[] = [];
  let i = 0;
  for (;;) {
    let field: string;
    if (text.charCodeAt(i) === 0x22) {
      // Quoted: runs to the next lone quote; `""` is a quote; text after the closing quote
      // (malformed, but seen) is kept.
      field = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          field += text.slice(from);
          i = length;
          break;
        }
        field += text.slice(from, quote);
        if (text.charCodeAt(quote + 1) === 0x22) {
          field += '"';
          from = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      const end = nextStop(i);
      field += text.slice(i, end);
      i = end;
    } else {
      const end = nextStop(i);
      field = text.slice(i, end);
      i = end;
    }
    row.push(field);

    if (i >= length) {
      rows.push(row);
      return rows;
    }
    const char = text[i];
    if (char === delimiter) {
      i++;
      continue;
    }
    // A line break ends the record; at the very end of the text it ends the file.
    i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
    rows.push(row);
    row = [];
    if (i >= length) return rows;
  }
}

/**
 * The candidate that splits the first rows into the most columns, consistently: at least
 * two columns, the same count in 80% of the rows. Ties go to the comma.
 */
export function sniffDelimiter(text: string): string {
  let sample = text.slice(0, SNIFF_CHARS);
  if (text.length > SNIFF_CHARS) sample = sample.slice(0, Math.max(sample.lastIndexOf('\n'), 0));
  let best: string = ',';
  let bestScore = 0;
  for (const candidate of CANDIDATES) {
    const rows = parseCsv(sample, candidate)
      .filter((row) => !(row.length === 1 && row[0] === ''))
      .slice(0, SNIFF_ROWS);
    const columns = rows[0]?.length ?? 0;
    if (columns < 2) continue;
    const consistency = rows.filter((row) => row.length === columns).length / rows.length;
    const score = consistency >= 0.8 ? columns * consistency : 0;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
