/**
 * The questions of the passages benchmark (bench/passages/questions.json) keep their rules
 * without the pages at hand, and the checks behind those rules catch each way of breaking
 * them (the bench runs the same checks, plus each answer against its page's Markdown).
 */
import { describe, expect, it } from 'vitest';
import type { Question } from '../../bench/passages/questions.mjs';
import { checkAnswer, checkQuestionSet, loadQuestions, whereOf } from '../../bench/passages/questions.mjs';

const questions = loadQuestions();

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
