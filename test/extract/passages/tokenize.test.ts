import { describe, expect, it } from 'vitest';
import { stopWordsFor } from '../../../src/extract/passages/stop-words.js';
import { termOf, tokenize } from '../../../src/extract/passages/tokenize.js';

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

  it('folds full-width forms (NFKC)', () => {
    expect(tokenize('ＡＢＣ　１２３')).toEqual(['abc', '123']);
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
