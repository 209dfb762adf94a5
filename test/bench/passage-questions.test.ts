/**
 * The questions of the passages benchmark (bench/passages/questions.json, the lexical set,
 * and bench/passages/paraphrase.json) keep their rules without the pages at hand, and the
 * checks behind those rules catch each way of breaking them (the bench runs the same
 * checks, plus each answer and sentence against its page's Markdown).
 */
import { describe, expect, it } from 'vitest';
import type { Question, Tokenizer } from '../../bench/passages/questions.mjs';
import {
  PARAPHRASE_FILE,
  checkAnswer,
  checkParaphrase,
  checkQuestionSet,
  checkSentence,
  loadQuestions,
  sharedTerms,
  whereOf,
} from '../../bench/passages/questions.mjs';
import { stopWordsFor } from '../../src/extract/passages/stop-words.js';
import { termOf, tokenize } from '../../src/extract/passages/tokenize.js';

const questions = loadQuestions();
const paraphrase = loadQuestions(PARAPHRASE_FILE);
/** The ranker's own tokenizer and English stop words: what "a content word" means to it. */
const tools: Tokenizer = { tokenize, termOf, stopWords: stopWordsFor('en') };

/** A set that keeps every rule: 150 questions, three a page, one per third, all splits. */
function validSet(): Question[] {
  const splits = ['scrapinghub-dev', 'wcxb-dev', 'dragnet-dev'];
  const where = ['start', 'middle', 'end'] as const;
  return Array.from({ length: 150 }, (_, i) => ({
    dataset: splits[Math.floor(i / 3) % 3]!,
    page_id: `p${Math.floor(i / 3)}`,
    question: `What is fact number ${i}?`,
    answer: `answer-${i}`,
    where: where[i % 3]!,
  }));
}

describe('bench/passages/questions.json', () => {
  it('keeps every rule of the set', () => {
    expect(checkQuestionSet(questions)).toEqual([]);
  });

  it('has at least 150 well-formed questions, over all three splits, at most three a page', () => {
    expect(questions.length).toBeGreaterThanOrEqual(150);
    for (const q of questions) {
      expect(Object.keys(q).sort()).toEqual(['answer', 'dataset', 'page_id', 'question', 'where']);
      expect(q.answer.length).toBeGreaterThan(0);
      expect(q.question.toLowerCase()).not.toContain(q.answer.toLowerCase());
    }
    expect(new Set(questions.map((q) => q.dataset))).toEqual(new Set(['scrapinghub-dev', 'wcxb-dev', 'dragnet-dev']));
    const perPage = new Map<string, number>();
    for (const q of questions)
      perPage.set(`${q.dataset}/${q.page_id}`, (perPage.get(`${q.dataset}/${q.page_id}`) ?? 0) + 1);
    expect(Math.max(...perPage.values())).toBeLessThanOrEqual(3);
    expect(perPage.size).toBeGreaterThanOrEqual(50);
  });

  it('takes a third of its answers, give or take, from each third of the pages', () => {
    for (const w of ['start', 'middle', 'end']) {
      const share = questions.filter((q) => q.where === w).length / questions.length;
      expect(share).toBeGreaterThanOrEqual(0.3);
      expect(share).toBeLessThanOrEqual(0.37);
    }
  });
});

describe('bench/passages/paraphrase.json', () => {
  it('keeps every rule of the set, sentences included', () => {
    expect(checkQuestionSet(paraphrase, { sentence: true })).toEqual([]);
  });

  it('has at least 150 well-formed questions, over all three splits and many pages, at most three a page', () => {
    expect(paraphrase.length).toBeGreaterThanOrEqual(150);
    for (const q of paraphrase) {
      expect(Object.keys(q).sort()).toEqual(['answer', 'dataset', 'page_id', 'question', 'sentence', 'where']);
      expect(q.sentence).toContain(q.answer);
      expect(q.question.toLowerCase()).not.toContain(q.answer.toLowerCase());
    }
    const perSplit = new Map<string, number>();
    for (const q of paraphrase) perSplit.set(q.dataset, (perSplit.get(q.dataset) ?? 0) + 1);
    expect([...perSplit.keys()].sort()).toEqual(['dragnet-dev', 'scrapinghub-dev', 'wcxb-dev']);
    // A fair share each: no split under a fifth of the set.
    for (const n of perSplit.values()) expect(n / paraphrase.length).toBeGreaterThanOrEqual(0.2);
    const perPage = new Map<string, number>();
    for (const q of paraphrase)
      perPage.set(`${q.dataset}/${q.page_id}`, (perPage.get(`${q.dataset}/${q.page_id}`) ?? 0) + 1);
    expect(Math.max(...perPage.values())).toBeLessThanOrEqual(3);
    expect(perPage.size).toBeGreaterThanOrEqual(50);
  });

  it('asks every question in other words than its answer sentence: at most one content word shared', () => {
    // English is the stop-word list the ranker always applies; "en" adds no other list.
    expect(stopWordsFor('en')).toBe(stopWordsFor());
    expect(stopWordsFor('en').has('what')).toBe(true);
    expect(stopWordsFor('en').has('debut')).toBe(false);
    expect(checkParaphrase(paraphrase, tools)).toEqual([]);
    for (const q of paraphrase) expect(sharedTerms(q, tools).length, q.question).toBeLessThanOrEqual(1);
  });

  it('is not the lexical set: no question of one is a question of the other', () => {
    const lexical = new Set(questions.map((q) => q.question));
    expect(paraphrase.filter((q) => lexical.has(q.question))).toEqual([]);
  });
});

describe('checkQuestionSet', () => {
  it('passes a set that keeps the rules', () => {
    expect(checkQuestionSet(validSet())).toEqual([]);
  });

  it('reports too few questions', () => {
    expect(checkQuestionSet(validSet().slice(0, 147)).join('\n')).toMatch(/147 questions, fewer than 150/);
  });

  it('reports a missing field and an unknown where', () => {
    const set = validSet();
    set[0] = { ...set[0]!, answer: '' };
    set[1] = { ...set[1]!, where: 'top' as never };
    const problems = checkQuestionSet(set).join('\n');
    expect(problems).toMatch(/#0: no answer/);
    expect(problems).toMatch(/#1: where is top/);
  });

  it('reports a question that holds its answer, whatever the case', () => {
    const set = validSet();
    set[4] = { ...set[4]!, question: 'Is ANSWER-4 the answer?' };
    expect(checkQuestionSet(set)).toEqual(['#4: the question holds its answer "answer-4"']);
  });

  it('reports a fourth question on one page', () => {
    const set = validSet();
    set[3] = { ...set[3]!, dataset: set[0]!.dataset, page_id: set[0]!.page_id };
    expect(checkQuestionSet(set).join('\n')).toMatch(/p0: 4 questions, more than 3/);
  });

  it('reports a lopsided where and a missing split', () => {
    const lopsided = validSet().map((q, i) => (i < 30 && q.where === 'end' ? { ...q, where: 'start' as const } : q));
    expect(checkQuestionSet(lopsided).join('\n')).toMatch(/where=end: 26\.7 % of the questions/);
    const twoSplits = validSet().map((q) => (q.dataset === 'dragnet-dev' ? { ...q, dataset: 'wcxb-dev' } : q));
    expect(checkQuestionSet(twoSplits)).toEqual(['no question on dragnet-dev']);
  });
});

describe('checkAnswer', () => {
  const markdown = `${'a'.repeat(100)}first${'b'.repeat(100)}second${'c'.repeat(100)}third`;
  const q = (answer: string, where: Question['where']): Question => ({
    dataset: 'wcxb-dev',
    page_id: 'x',
    question: 'Which one?',
    answer,
    where,
  });

  it('places an answer by the third its first occurrence starts in', () => {
    expect(whereOf(markdown, 'first')).toBe('start');
    expect(whereOf(markdown, 'second')).toBe('middle');
    expect(whereOf(markdown, 'third')).toBe('end');
    expect(whereOf(markdown, 'fourth')).toBeNull();
  });

  it('accepts a right where and reports a wrong one or a missing answer', () => {
    expect(checkAnswer(q('second', 'middle'), markdown)).toBeNull();
    expect(checkAnswer(q('second', 'end'), markdown)).toBe('answer "second" is in the middle third, not the end');
    expect(checkAnswer(q('Second', 'middle'), markdown)).toBe(`answer "Second" not in the page's Markdown`);
  });
});

describe('the paraphrase checks', () => {
  const sentence = 'The missile, first shown in May, has a range of 4 km and debuts at retailers on 3 May.';
  const q = (question: string, answer: string, answerSentence?: string): Question => ({
    dataset: 'wcxb-dev',
    page_id: 'x',
    question,
    answer,
    where: 'start',
    ...(answerSentence === undefined ? {} : { sentence: answerSentence }),
  });
  /** The valid set of checkQuestionSet's tests, each answer inside a sentence of its own. */
  const withSentences = (): Question[] => validSet().map((v) => ({ ...v, sentence: `It is ${v.answer}, in short.` }));

  it('counts content words after stemming, without stop words', () => {
    expect(sharedTerms(q('How far can the missile travel?', '4 km', sentence), tools)).toEqual(['missil']);
    expect(sharedTerms(q('When will it first appear in shops?', '3 May', sentence), tools)).toEqual(['first']);
    // "debut" and "debuts" are one word; "when", "will" and "the" are stop words.
    expect(sharedTerms(q('When will the missile debut?', '3 May', sentence), tools)).toEqual(['missil', 'debut']);
  });

  it('passes a question sharing one content word and reports one sharing two, naming them', () => {
    const set = [
      q('How far can the missile travel?', '4 km', sentence),
      q('When will the missile debut?', '3 May', sentence),
    ];
    expect(checkParaphrase(set, tools)).toEqual([
      '#1: the question shares 2 content words with its sentence (at most 1): missil, debut',
    ]);
  });

  it('passes a set with sentences and reports an answer outside its sentence or a missing sentence', () => {
    expect(checkQuestionSet(withSentences(), { sentence: true })).toEqual([]);
    const set = withSentences();
    set[2] = { ...set[2]!, sentence: 'A sentence about something else.' };
    const noSentence = { ...set[5]! };
    delete noSentence.sentence;
    set[5] = noSentence;
    expect(checkQuestionSet(set, { sentence: true })).toEqual([
      '#2: answer "answer-2" not in its sentence',
      '#5: no sentence',
    ]);
    // The lexical set has no sentences and needs none.
    expect(checkQuestionSet(validSet())).toEqual([]);
  });

  it('finds the sentence in the Markdown across a line break, and reports one that is not there', () => {
    const markdown = `# Title\n\nThe missile, first shown in May, has a range\nof 4 km and debuts at retailers on 3 May.\n\n${'x'.repeat(200)}`;
    expect(checkSentence(q('How far?', '4 km', sentence), markdown)).toBeNull();
    expect(checkAnswer(q('How far?', '4 km', sentence), markdown)).toBeNull();
    expect(checkSentence(q('How far?', '4 km'), markdown)).toBe('no sentence');
    const elsewhere = q('How far?', '4 km', 'It has a range of 4 km.');
    expect(checkSentence(elsewhere, markdown)).toBe(`sentence "It has a range of 4 km." not in the page's Markdown`);
    expect(checkAnswer(elsewhere, markdown)).toMatch(/not in the page's Markdown/);
  });
});
