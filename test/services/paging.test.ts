import { describe, expect, it } from 'vitest';
import { pageContent } from '../../src/services/pages/paging.js';

describe('pageContent', () => {
  const text = 'abcdefghij';
  it('returns the text untouched without paging', () => {
    expect(pageContent(text, 0, undefined)).toEqual({ text });
  });
  it('cuts and points at the rest', () => {
    expect(pageContent(text, 0, 4)).toEqual({ text: 'abcd', totalChars: 10, nextStartChar: 4 });
    expect(pageContent(text, 4, 4)).toEqual({ text: 'efgh', totalChars: 10, nextStartChar: 8 });
    expect(pageContent(text, 8, 4)).toEqual({ text: 'ij', totalChars: 10 });
  });
  it('returns an empty page past the end', () => {
    expect(pageContent(text, 50, 4)).toEqual({ text: '', totalChars: 10 });
  });
  it('never splits a surrogate pair and always advances', () => {
    const emoji = 'a😀b';
    const first = pageContent(emoji, 0, 2);
    expect(first.text).toBe('a');
    const second = pageContent(emoji, first.nextStartChar!, 1);
    expect(second.text).toBe('😀');
    const third = pageContent(emoji, second.nextStartChar!, 5);
    expect(first.text + second.text + third.text).toBe(emoji);
  });
});
