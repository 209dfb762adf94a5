/** The kind of answer a question asks for (answer-cues.ts), and the ranker using it. */
import { describe, expect, it } from 'vitest';
import { answerCue } from '../../../src/extract/passages/answer-cues.js';
import { selectPassages } from '../../../src/extract/passages/index.js';

const matches = (question: string, text: string) => answerCue(question)?.test(text) ?? false;

describe('answerCue', () => {
  it('reads dates, times, money, quantities and numbers from the question words', () => {
    expect(matches('When did the bridge open?', 'It opened in 1932 after four years.')).toBe(true);
    expect(matches('In which year was it built?', 'Built on 3 May by hand.')).toBe(true);
    expect(matches('At what time does it close?', 'It closes at 5:30 pm.')).toBe(true);
    expect(matches('At what hour do they start?', 'They start at 1 p.m. sharp.')).toBe(true);
    expect(matches('How much does a ticket cost?', 'A ticket is €4.50 for adults.')).toBe(true);
    expect(matches('How much money did they raise?', 'They raised 3 million dollars.')).toBe(true);
    expect(matches('What is the price tag of the new bridge?', 'The bridge will cost $40 million.')).toBe(true);
    expect(matches('What monthly fee do members pay?', 'Members pay 12 euros a month.')).toBe(true);
    expect(matches('How far is the island?', 'The island lies 4 km offshore.')).toBe(true);
    expect(matches('How long did the repair take?', 'The repair took six weeks.')).toBe(true);
    expect(matches('How many boats are there?', 'There are twelve boats.')).toBe(true);
    expect(matches('Who founded the club?', 'The club was founded by Ada Lovelace in town.')).toBe(true);
  });

  it('does not read an ordinary word as a date, nor a number where none is asked', () => {
    expect(matches('When does the ferry leave?', 'You may park by the harbour and march on.')).toBe(false);
    expect(matches('How far is the island?', 'The island is far away.')).toBe(false);
    expect(answerCue('What is the name of the bakery?')).toBeUndefined();
    // "How many" asks for a count: a year alone is none, a count in thousands is.
    expect(matches('How many boats are there?', 'The harbour opened in 1985.')).toBe(false);
    expect(matches('How many boats are there?', 'A fleet of 2,000 boats.')).toBe(true);
    expect(matches('How many boats are there?', 'In 1985 it had 40.')).toBe(true);
    expect(matches('What share of boats sank?', 'In 1985 a storm came.')).toBe(true);
    expect(answerCue('bakery opening')).toBeUndefined();
  });
});

describe('the ranker with a question that names its kind of answer', () => {
  it('finds the passage holding a date when the question shares no word with it', () => {
    const md = [
      '## The bridge',
      '',
      'The bridge crosses the river at its narrowest point, where the old ford was.',
      '',
      'Its first stone was laid in 1927, and the first carts rolled over it in 1932.',
      '',
      '## The market',
      '',
      'Stalls sell fish, bread and cheese under the arches every morning of the week.',
    ].join('\n');
    const [best] = selectPassages(md, 'When was the bridge finished?', 1);
    expect(best?.text).toContain('1932');
  });
});
