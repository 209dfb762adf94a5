import { describe, expect, it } from 'vitest';
import { stopWordsFor } from '../../../src/extract/passages/stop-words.js';
import { scanWords, termOf, tokenize, WordCursor } from '../../../src/extract/passages/tokenize.js';

describe('tokenize', () => {
  it('splits at anything but letters, marks and digits, lowercased', () => {
    expect(tokenize("The café's API-v2 costs $3.50 (in 2024)!")).toEqual([
      'the',
      'café',
      's',
      'api',
      'v2',
      'costs',
      '3',
      '50',
      'in',
      '2024',
    ]);
  });

  it("reads a link's text, not its target", () => {
    expect(tokenize('See [the guide](https://example.com/setup-guide) and ![logo](logo.png).')).toEqual([
      'see',
      'the',
      'guide',
      'and',
      'logo',
    ]);
  });

  it('reads an escaped parenthesis or a title inside a target as the target', () => {
    expect(tokenize('[Ebb](https://example.org/Tide_\\(sea\\)) and ![Gull](g.png "A gull (adult)") fly')).toEqual([
      'ebb',
      'and',
      'gull',
      'fly',
    ]);
  });

  it('takes linear time on a page of unclosed link targets', () => {
    const hostile = '[a]('.repeat(40_000);
    const started = performance.now();
    expect(tokenize(hostile)).toHaveLength(40_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('folds full-width forms (NFKC), and lowercases what the fold gives', () => {
    expect(tokenize('ＡＢＣ　１２３')).toEqual(['abc', '123']);
    expect(tokenize('𝒜rea Ⅻ')).toEqual(['area', 'xii']);
  });

  it('cuts scripts written without spaces into words with Intl.Segmenter', () => {
    expect(tokenize('我们在北京大学学习。')).toEqual(['我们', '在', '北京', '大学', '学习']);
    expect(tokenize('東京タワーは高い')).toContain('東京タワー');
    // Thai: dictionary words, not one token for the whole run.
    expect(tokenize('ภาษาไทยง่ายนิดเดียว').length).toBeGreaterThan(2);
  });

  it('keeps scripts with spaces (Cyrillic, Greek, Hangul) as words', () => {
    expect(tokenize('Привет мир, γειά σου, 안녕 세계')).toEqual(['привет', 'мир', 'γειά', 'σου', '안녕', '세계']);
  });
});

describe('WordCursor', () => {
  const words = (text: string): [string, boolean][] => {
    const cursor = new WordCursor(text);
    const out: [string, boolean][] = [];
    while (cursor.next()) out.push([cursor.text.slice(cursor.start, cursor.end), cursor.noSpaces]);
    return out;
  };

  it('gives each word by its place in the folded text, a run without spaces marked', () => {
    expect(words('Tide—tables “2024” at 𝒜bc, 😀 東京タワー and x')).toEqual([
      ['tide', false],
      ['tables', false],
      ['2024', false],
      ['at', false],
      ['abc', false],
      ['東京タワー', true],
      ['and', false],
      ['x', false],
    ]);
    expect(words('')).toEqual([]);
    expect(words(' ¿¡ — ')).toEqual([]);
  });

  it('reads the same words as the Unicode classes do, on any mix of scripts and punctuation', () => {
    // Letters, marks, digits of several scripts, punctuation, symbols, surrogate pairs, a lone surrogate.
    const pool = [...'aZ9 é\u0301ß.,;—’“”\u00a0½²ªµ東京タワーไทยКиї😀𝒜\n\t#|-_', '\ud83d', '𝟙'];
    let seed = 7;
    const pick = (): string => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return pool[seed % pool.length] as string;
    };
    const noSpaces =
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 1 + (round % 40) }, pick).join('');
      const folded = new WordCursor(text).text;
      const expected = [...folded.matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((m): [string, boolean] => [
        m[0],
        noSpaces.test(m[0]),
      ]);
      // Twice: the second read takes the kinds cached by the first.
      expect(words(text)).toEqual(expected);
      expect(words(text)).toEqual(expected);
    }
  });

  it('backs scanWords', () => {
    const seen: string[] = [];
    scanWords('One [link](https://x.example/a) 北京', (word, noSpaces) => seen.push(noSpaces ? `*${word}` : word));
    expect(seen).toEqual(['one', 'link', '*北京']);
  });
});

describe('termOf', () => {
  it('stems English words to their Porter stem, leaves the rest alone', () => {
    expect(termOf('founded')).toBe(termOf('founding'));
    expect(termOf('connections')).toBe(termOf('connected'));
    expect(termOf('北京')).toBe('北京');
    expect(termOf('v2')).toBe('v2');
  });
});

describe('stopWordsFor', () => {
  it('always has English, and adds the language of the tag', () => {
    expect(stopWordsFor().has('what')).toBe(true);
    expect(stopWordsFor().has('und')).toBe(false);
    expect(stopWordsFor('de-AT').has('und')).toBe(true);
    expect(stopWordsFor('de-AT').has('what')).toBe(true);
    expect(stopWordsFor('xx').has('the')).toBe(true);
  });
});
