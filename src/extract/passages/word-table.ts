/**
 * A value per word, looked up by the word's place in a text rather than by a string: the
 * ranker tests each word of a page where it stands (tokenize.ts WordCursor), and cuts out
 * only a word it has not met before. Open addressing on a 32-bit FNV-1a hash
 * of the word's UTF-16 code units; a hit is confirmed character by character.
 */
export class WordTable<T> {
  /** Entry index + 1 per slot, 0 for empty; a power of two, at most half full. */
  private slots = new Int32Array(1024);
  private readonly words: string[] = [];
  private readonly hashes: number[] = [];
  private readonly values: T[] = [];

  /** The value stored for `text.slice(start, end)`, or undefined. */
  find(text: string, start: number, end: number): T | undefined {
    const hash = hashOf(text, start, end);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] as number) - 1;
      if (entry === -1) return undefined;
      if (this.hashes[entry] === hash && sameWord(this.words[entry] as string, text, start, end))
        return this.values[entry];
    }
  }

  /** Stores `value` for `word` (not already in the table). */
  add(word: string, value: T): void {
    if ((this.words.length + 1) * 2 > this.slots.length) this.grow();
    const hash = hashOf(word, 0, word.length);
    this.words.push(word);
    this.hashes.push(hash);
    this.values.push(value);
    this.place(hash, this.words.length);
  }

  /** Words held. */
  get size(): number {
    return this.words.length;
  }

  clear(): void {
    this.slots = new Int32Array(1024);
    this.words.length = 0;
    this.hashes.length = 0;
    this.values.length = 0;
  }

  private place(hash: number, entryPlusOne: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entryPlusOne;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.hashes.forEach((hash, entry) => this.place(hash, entry + 1));
  }
}

/**
 * `compute` of a word found by its place in a text, remembered in `table` (emptied when it
 * holds `limit` words): a word met before is never cut out nor computed again.
 */
export function byPlace<T>(
  table: WordTable<T>,
  compute: (word: string) => T,
  limit: number,
): (text: string, start: number, end: number) => T {
  return (text, start, end) => {
    let value = table.find(text, start, end);
    if (value === undefined) {
      if (table.size >= limit) table.clear();
      const word = text.slice(start, end);
      value = compute(word);
      table.add(word, value);
    }
    return value;
  };
}

function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}
