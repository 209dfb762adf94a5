/**
 * Word vectors an operator points the server at (WEBSEARCH_WORD_VECTORS: GloVe's text
 * format, or fastText's .vec, which adds a header line): what lets the passage ranker meet
 * a question asked in words its page does not use ("the red planet" / "Mars"). Never
 * downloaded and never required: without them the ranker reads words and WordNet only.
 * Each row is scaled to unit length once, so a dot product is a cosine. The matrix may sit
 * on a SharedArrayBuffer that every converter thread reads (convert-pool.ts).
 */

export interface WordVectors {
  readonly dims: number;
  /** Row i's word, in the file's order (GloVe's and fastText's files list common words first). */
  readonly words: readonly string[];
  /** words.length rows of `dims` numbers, each row of unit length. */
  readonly matrix: Float32Array;
  /** The row of each word. */
  readonly index: ReadonlyMap<string, number>;
  /** Nearest words already found, per word (nearestWords; at most NEAREST_KEPT words). */
  readonly nearest: Map<string, readonly string[]>;
}

/** A word vectors file that cannot be read, with the line that says why. */
export class WordVectorsError extends Error {}

/** Vectors over rows already of unit length (a converter thread's view of the shared matrix). */
export function wordVectors(words: readonly string[], matrix: Float32Array, dims: number): WordVectors {
  if (matrix.length !== words.length * dims)
    throw new WordVectorsError(
      `${words.length} words of ${dims} numbers need ${words.length * dims}, not ${matrix.length}`,
    );
  const index = new Map<string, number>();
  // A word listed twice keeps its first (commoner) row.
  words.forEach((word, i) => {
    if (!index.has(word)) index.set(word, i);
  });
  return { dims, words, matrix, index, nearest: new Map() };
}

/**
 * The first `limit` words of a vectors file's text (`text`: GloVe `word v1 ... vd` lines, or
 * fastText's, after its `count dims` header), rows scaled to unit length, the matrix on a
 * SharedArrayBuffer when `shared`. Throws WordVectorsError naming the first bad line.
 */
export function parseWordVectors(text: string, limit: number, shared = false): WordVectors {
  const words: string[] = [];
  let rows: number[][] = [];
  let dims = 0;
  let line = 0;
  let start = 0;
  while (start < text.length && words.length < limit) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const row = text.slice(start, end).trim();
    start = end + 1;
    line++;
    if (row === '') continue;
    const fields = row.split(/\s+/);
    // fastText's header: the count of words and their dimensions.
    if (line === 1 && fields.length === 2 && /^\d+$/.test(fields[0]!) && /^\d+$/.test(fields[1]!)) continue;
    const values = fields.slice(1).map(Number);
    if (dims === 0) dims = values.length;
    if (values.length === 0 || values.length !== dims || values.some((v) => !Number.isFinite(v)))
      throw new WordVectorsError(
        `line ${line} is not a word and ${dims || 'its'} numbers: ${JSON.stringify(row.slice(0, 60))}`,
      );
    words.push(fields[0]!.toLowerCase());
    rows.push(values);
  }
  if (words.length === 0) throw new WordVectorsError('it holds no word vectors');
  const bytes = words.length * dims * Float32Array.BYTES_PER_ELEMENT;
  const matrix = new Float32Array(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  rows.forEach((values, i) => {
    const norm = Math.hypot(...values) || 1;
    for (let k = 0; k < dims; k++) matrix[i * dims + k] = values[k]! / norm;
  });
  rows = [];
  return wordVectors(words, matrix, dims);
}

/** Query words whose nearest words are kept (wordnet.ts keeps its relatives so). */
const NEAREST_KEPT = 5_000;

/** The common words a query word's nearest are looked for among (the file's first). */
export const NEAREST_AMONG = 50_000;

/** Up to `count` words of at least `min` cosine to `word`, nearest first, among the NEAREST_AMONG first; remembered. */
export function nearestWords(vectors: WordVectors, word: string, count: number, min: number): readonly string[] {
  const key = `${word}\u0000${count}\u0000${min}`;
  const known = vectors.nearest.get(key);
  if (known !== undefined) return known;
  const row = vectors.index.get(word);
  const found: Array<[number, number]> = [];
  if (row !== undefined) {
    const { dims, matrix } = vectors;
    const at = row * dims;
    const among = Math.min(NEAREST_AMONG, vectors.words.length);
    for (let other = 0; other < among; other++) {
      if (other === row) continue;
      let dot = 0;
      const o = other * dims;
      for (let k = 0; k < dims; k++) dot += matrix[at + k]! * matrix[o + k]!;
      if (dot >= min) found.push([dot, other]);
    }
  }
  found.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const words = found.slice(0, count).map(([, other]) => vectors.words[other]!);
  // A query's words recur (a search ranks its query on every result): bounded, cleared when full.
  if (vectors.nearest.size >= NEAREST_KEPT) vectors.nearest.clear();
  vectors.nearest.set(key, words);
  return words;
}

/**
 * The unit-length mean of the vectors of `tokens` (lower-cased words) that `skip` does not
 * hold, each weighted by how rare it is (the log of its row: files list common words
 * first); null when none has a vector. The 100 commonest words carry no meaning here.
 */
export function meanVector(
  vectors: WordVectors,
  tokens: Iterable<string>,
  skip: ReadonlySet<string>,
): Float64Array | null {
  const rows: number[] = [];
  for (const token of tokens) {
    const row = meaningRow(vectors, token, skip);
    if (row !== -1) rows.push(row);
  }
  return meanOfRows(vectors, rows);
}

/** The row whose vector stands for `token` in a mean (meanVector), -1 for none: unknown, skipped, or too common. */
export function meaningRow(vectors: WordVectors, token: string, skip: ReadonlySet<string>): number {
  if (skip.has(token)) return -1;
  const row = vectors.index.get(token);
  return row === undefined || row < COMMONEST ? -1 : row;
}

/** The unit-length mean of the vectors of `rows` (meaningRow's), each weighted by the log of its row; null for none. */
export function meanOfRows(vectors: WordVectors, rows: readonly number[]): Float64Array | null {
  if (rows.length === 0) return null;
  const { dims, matrix } = vectors;
  const sum = new Float64Array(dims);
  for (const row of rows) {
    const weight = Math.log(1 + row);
    const at = row * dims;
    for (let k = 0; k < dims; k++) sum[k] = sum[k]! + weight * matrix[at + k]!;
  }
  let norm = 0;
  for (let k = 0; k < dims; k++) norm += sum[k]! * sum[k]!;
  norm = Math.sqrt(norm);
  if (norm === 0) return null;
  for (let k = 0; k < dims; k++) sum[k] = sum[k]! / norm;
  return sum;
}

/** Rows below this are function words and punctuation in GloVe's and fastText's files. */
const COMMONEST = 100;

/** The cosine of two unit vectors. */
export function cosine(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  for (let k = 0; k < a.length; k++) dot += a[k]! * b[k]!;
  return dot;
}
