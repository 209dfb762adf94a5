/**
 * Query-focused passages (issue 31): a page's Markdown split at its own structure
 * (split-passages.ts) and the passages that answer a query picked offline
 * (select-passages.ts). Pure: strings in, passages with offsets into the same string out.
 */
export type { Passage } from './passage.js';
export { splitPassages, PASSAGE_SIZE } from './split-passages.js';
export { selectPassages, scorePassages, RANKING, type SelectOptions } from './select-passages.js';
export { rankPassages, type PassagesInput } from './rank-passages.js';
export { parseWordVectors, wordVectors, WordVectorsError, type WordVectors } from './word-vectors.js';
