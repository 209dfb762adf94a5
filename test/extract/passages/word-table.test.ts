import { describe, expect, it } from 'vitest';
import { byPlace, WordTable } from '../../../src/extract/passages/word-table.js';

describe('WordTable', () => {
  it('finds a word by its place in a text, and nothing for a word not added', () => {
    const table = new WordTable<number>();
    table.add('tide', 1);
    table.add('tides', 2);
    const text = 'the tide and tides, tid';
    expect(table.find(text, 4, 8)).toBe(1);
    expect(table.find(text, 13, 18)).toBe(2);
    expect(table.find(text, 0, 3)).toBeUndefined();
    expect(table.find(text, 20, 23)).toBeUndefined();
    expect(table.find(text, 4, 4)).toBeUndefined();
  });

  it('holds thousands of words as it grows, each to its own value, and empties on clear', () => {
    const table = new WordTable<string>();
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}é${i % 7}`);
    words.forEach((word) => table.add(word, word.toUpperCase()));
    expect(table.size).toBe(5000);
    const text = words.join(' ');
    let at = 0;
    for (const word of words) {
      expect(table.find(text, at, at + word.length)).toBe(word.toUpperCase());
      // A word one character shorter or longer is another word.
      expect(table.find(text, at, at + word.length - 1)).toBeUndefined();
      at += word.length + 1;
    }
    table.clear();
    expect(table.size).toBe(0);
    expect(table.find(text, 0, (words[0] as string).length)).toBeUndefined();
    table.add('again', 'AGAIN');
    expect(table.find('again', 0, 5)).toBe('AGAIN');
  });

  it('byPlace computes a word once, found again by its place, and starts over past its limit', () => {
    const computed: string[] = [];
    const table = new WordTable<number>();
    const lengthOf = byPlace(
      table,
      (word) => {
        computed.push(word);
        return word.length;
      },
      3,
    );
    const text = 'tide ebb tide flow tide';
    expect(lengthOf(text, 0, 4)).toBe(4);
    expect(lengthOf(text, 5, 8)).toBe(3);
    expect(lengthOf(text, 9, 13)).toBe(4);
    expect(computed).toEqual(['tide', 'ebb']);
    expect(lengthOf(text, 14, 18)).toBe(4);
    expect(table.size).toBe(3);
    // Full: emptied before the next new word, which then is its only entry.
    expect(lengthOf('moon', 0, 4)).toBe(4);
    expect(table.size).toBe(1);
    expect(lengthOf(text, 19, 23)).toBe(4);
    expect(computed).toEqual(['tide', 'ebb', 'flow', 'moon', 'tide']);
  });
});
