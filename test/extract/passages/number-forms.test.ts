import { describe, expect, it } from 'vitest';
import { selectPassages } from '../../../src/extract/passages/index.js';
import { numberForms } from '../../../src/extract/passages/number-forms.js';
import { queryTerms } from '../../../src/extract/passages/query-terms.js';
import { tokenize } from '../../../src/extract/passages/tokenize.js';

describe('numberForms', () => {
  it('writes a number the other way, a unit in its other spellings, and the two glued', () => {
    const forms = numberForms(tokenize('a range of four kilometres'));
    expect(forms).toEqual(expect.arrayContaining(['4', '4km', 'km', 'kilometer']));
    expect(forms).not.toContain('four');
    expect(numberForms(tokenize('10 miles'))).toEqual(expect.arrayContaining(['ten', 'mi', '10mi', '10mile']));
    expect(numberForms(tokenize('5 metres of rope'))).toEqual(expect.arrayContaining(['five', '5m', 'meters']));
    expect(numberForms(tokenize('the third stage'))).toEqual(['3rd']);
    expect(numberForms(tokenize('the 3rd stage'))).toEqual(['third']);
  });

  it('reads digits beside digits as one number: no word for a part, the last part glued to its unit', () => {
    const forms = numberForms(tokenize('a 4.5 km walk'));
    expect(forms).not.toContain('four');
    expect(forms).not.toContain('five');
    expect(forms).toEqual(expect.arrayContaining(['5km', 'kilometres']));
    expect(numberForms(tokenize('4,500 people'))).toEqual([]);
  });

  it('reads "one" as a number beside a unit only, and leaves words without numbers alone', () => {
    expect(numberForms(tokenize('the one who won'))).toEqual([]);
    expect(numberForms(tokenize('one mile'))).toEqual(expect.arrayContaining(['1', '1mi']));
    expect(numberForms(tokenize('the bridge colour'))).toEqual([]);
    expect(numberForms([])).toEqual([]);
  });
});

describe('number forms in the ranking', () => {
  const md = [
    '## Engine',
    '',
    'The engine was built in 1999 and weighs a great deal.',
    '',
    '## Radio',
    '',
    'The radio reaches 4km over open water.',
    '',
    '## Lamp',
    '',
    'Its lamp is seen 4 km away on a clear night.',
    '',
    '## Crew',
    '',
    'Six sailors crew the boat in summer.',
  ].join('\n');

  it('meets "four kilometres" as "4km" and as "4 km", at the weight of the query\'s own words', () => {
    const texts = selectPassages(md, 'four kilometres', 2).map((p) => p.text);
    expect(texts).toEqual(['The radio reaches 4km over open water.', 'Its lamp is seen 4 km away on a clear night.']);
    const q = queryTerms('four kilometres');
    expect(q.terms.slice(q.own, q.own + 2)).toEqual(['4', '4km']);
    expect(q.weights.slice(q.own, q.own + 2)).toEqual([1, 1]);
  });

  it('meets "6" as "Six": the only word of the query the page has', () => {
    expect(selectPassages(md, '6 aboard', 1)[0]?.text).toBe('Six sailors crew the boat in summer.');
  });
});
