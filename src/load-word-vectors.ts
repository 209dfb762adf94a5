/**
 * The operator's word vectors file (WEBSEARCH_WORD_VECTORS), read at start for the passage
 * ranker (extract/passages/word-vectors.ts parses it; this reads it).
 */
import { open } from 'node:fs/promises';
import type { Config } from './core/config.js';
import { ConfigError } from './core/config.js';
import type { Logger } from './core/logger.js';
import { parseWordVectors, WordVectorsError, type WordVectors } from './extract/passages/word-vectors.js';

/**
 * The word vectors file (WEBSEARCH_WORD_VECTORS), read once: its first
 * WEBSEARCH_WORD_VECTORS_WORDS words, each row scaled to unit length, on a SharedArrayBuffer
 * that every converter thread reads. A file that cannot be read or parsed is a setting to
 * fix: one ConfigError naming it, the path and why (exit 2). Unset: nothing is read.
 */
export async function loadWordVectors(config: Config, logger: Logger): Promise<WordVectors | undefined> {
  const { wordVectors: path, wordVectorsWords: limit } = config.passages;
  if (path === undefined) return undefined;
  const started = performance.now();
  let vectors: WordVectors;
  try {
    vectors = parseWordVectors(await readLeadingLines(path, limit + 1), limit, true);
  } catch (err) {
    // "/x/v.txt line 7 is not a word and 100 numbers: ...", "/x/v.txt does not exist"
    const why =
      err instanceof WordVectorsError ? err.message.replace(/^it /, '') : unreadable(err as NodeJS.ErrnoException);
    throw new ConfigError([`WEBSEARCH_WORD_VECTORS: ${path} ${why}`]);
  }
  logger.info(
    { path, words: vectors.words.length, dims: vectors.dims, ms: Math.round(performance.now() - started) },
    'word vectors loaded',
  );
  return vectors;
}

/** Why a file could not be read, in words. */
function unreadable(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return 'does not exist';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'cannot be read (permission denied)';
  if (err.code === 'EISDIR') return 'is a directory, not a file';
  return `cannot be read: ${err.message}`;
}

/** Bytes read from a word vectors file at a time. */
const READ_CHUNK = 4 * 1024 * 1024;
/** A line longer than this is no word and its numbers (300 of them take ~3 KB): a binary file, say. */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * The text of a file's first `lines` lines that hold something (utf8), up to the end of
 * the last one: a file's first words are read, never the rest (glove.840B.300d.txt is
 * 5.6 GB, past what one string can hold).
 */
async function readLeadingLines(path: string, lines: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let found = 0;
    /** The line being read: its number, its bytes so far, whether one is other than white space. */
    let line = 1;
    let length = 0;
    let filled = false;
    for (;;) {
      const { buffer, bytesRead } = await file.read(Buffer.allocUnsafe(READ_CHUNK), 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let at = 0;
      while (at < bytesRead) {
        const newline = chunk.indexOf(0x0a, at);
        const end = newline === -1 ? bytesRead : newline;
        for (let i = at; i < end && !filled; i++) filled = !BLANK.has(chunk[i]!);
        length += end - at;
        if (length > MAX_LINE_BYTES)
          throw new WordVectorsError(`line ${line} is longer than 1 MB: not a word and its numbers (a binary file?)`);
        // The line goes on in the next chunk.
        if (newline === -1) break;
        if (filled) found += 1;
        if (found === lines) {
          chunks.push(chunk.subarray(0, newline + 1));
          return Buffer.concat(chunks).toString('utf8');
        }
        line += 1;
        length = 0;
        filled = false;
        at = newline + 1;
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await file.close();
  }
}

/** Space, tab and carriage return: a line of these alone holds nothing. */
const BLANK = new Set([0x20, 0x09, 0x0d]);
