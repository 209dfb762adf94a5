// The questions of the passages benchmark and the rules they keep: the shape of a set
// (checked without the pages, by the unit test too) and each answer against its page's
// Markdown (checked by the bench, which has the pages). Two sets: questions.json, mostly
// sharing words with their answers ("lexical"), and paraphrase.json, whose questions share
// at most one content word with the sentence that answers them ("paraphrase"); each of its
// questions carries that sentence, copied from the page's Markdown.
import fs from 'node:fs';

export const QUESTIONS_FILE = new URL('./questions.json', import.meta.url);
export const PARAPHRASE_FILE = new URL('./paraphrase.json', import.meta.url);

/** The dev splits the questions are written on (bench/dev-pages.mjs lists their pages). */
export const SPLITS = ['scrapinghub-dev', 'wcxb-dev', 'dragnet-dev'];
export const WHERE = ['start', 'middle', 'end'];
const FIELDS = ['dataset', 'page_id', 'question', 'answer', 'where'];
export const RULES = { minQuestions: 150, maxPerPage: 3, minBucketShare: 0.3, maxBucketShare: 0.37 };
/** A paraphrase question's content words (stemmed) that its answer sentence may hold too. */
export const MAX_SHARED_TERMS = 1;

export function loadQuestions(file = QUESTIONS_FILE) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Runs of white space as one space: a sentence split over a line break in the Markdown still matches. */
const collapse = (s) => s.replace(/\s+/g, ' ').trim();

/** Which third of the Markdown the answer's first occurrence starts in; null when absent. */
export function whereOf(markdown, answer) {
  const at = markdown.indexOf(answer);
  if (at < 0) return null;
  return WHERE[Math.min(2, Math.floor((3 * at) / markdown.length))];
}

/**
 * Problems of the set as a whole, one line each ([] when it keeps every rule): fields,
 * at most three questions a page, no question holding its answer (case aside), each
 * `where` bucket a third of the set give or take, every split present. With
 * `{ sentence: true }` (the paraphrase set) each question also needs its answer sentence,
 * the answer inside it.
 */
export function checkQuestionSet(questions, { sentence = false } = {}) {
  const fields = sentence ? [...FIELDS, 'sentence'] : FIELDS;
  const problems = [];
  if (!Array.isArray(questions)) return ['the questions file holds no array'];
  if (questions.length < RULES.minQuestions)
    problems.push(`${questions.length} questions, fewer than ${RULES.minQuestions}`);
  const perPage = new Map();
  const buckets = Object.fromEntries(WHERE.map((w) => [w, 0]));
  const splits = new Set();
  questions.forEach((q, i) => {
    const name = `#${i}`;
    const missing = fields.filter((field) => typeof q?.[field] !== 'string' || q[field].trim() === '');
    if (missing.length > 0) {
      problems.push(`${name}: no ${missing.join(', ')}`);
      return;
    }
    if (!SPLITS.includes(q.dataset)) problems.push(`${name}: unknown dataset ${q.dataset}`);
    if (!WHERE.includes(q.where)) problems.push(`${name}: where is ${q.where}, not start, middle or end`);
    else buckets[q.where]++;
    if (q.question.toLowerCase().includes(q.answer.toLowerCase()))
      problems.push(`${name}: the question holds its answer "${q.answer}"`);
    if (sentence && !collapse(q.sentence).includes(collapse(q.answer)))
      problems.push(`${name}: answer "${q.answer}" not in its sentence`);
    const page = `${q.dataset}/${q.page_id}`;
    perPage.set(page, (perPage.get(page) ?? 0) + 1);
    splits.add(q.dataset);
  });
  for (const [page, n] of perPage)
    if (n > RULES.maxPerPage) problems.push(`${page}: ${n} questions, more than ${RULES.maxPerPage}`);
  for (const w of WHERE) {
    const share = questions.length > 0 ? buckets[w] / questions.length : 0;
    if (share < RULES.minBucketShare || share > RULES.maxBucketShare)
      problems.push(`where=${w}: ${(share * 100).toFixed(1)} % of the questions, outside 30-37 %`);
  }
  for (const s of SPLITS) if (!splits.has(s)) problems.push(`no question on ${s}`);
  return problems;
}

/**
 * The problem of one question against its page's Markdown, or null: answer missing,
 * `where` wrong, or (a question with a `sentence`) the sentence not in the Markdown.
 */
export function checkAnswer(question, markdown) {
  const where = whereOf(markdown, question.answer);
  if (where === null) return `answer "${question.answer}" not in the page's Markdown`;
  if (where !== question.where)
    return `answer "${question.answer}" is in the ${where} third, not the ${question.where}`;
  return question.sentence === undefined ? null : checkSentence(question, markdown);
}

/** The problem of a question's answer sentence against its page's Markdown (white space runs collapsed), or null. */
export function checkSentence(question, markdown) {
  if (typeof question.sentence !== 'string' || question.sentence.trim() === '') return 'no sentence';
  if (!collapse(markdown).includes(collapse(question.sentence))) {
    const shown = question.sentence.length > 60 ? `${question.sentence.slice(0, 60)}...` : question.sentence;
    return `sentence "${shown}" not in the page's Markdown`;
  }
  return null;
}

/**
 * The content terms of `text`: its tokens that are not stop words, as terms. The tokenizer
 * comes from the caller (src/ in the tests, dist/ in the bench) so that there is one.
 */
export function contentTerms(text, { tokenize, termOf, stopWords }) {
  return new Set(
    tokenize(text)
      .filter((token) => !stopWords.has(token))
      .map(termOf),
  );
}

/** The content terms a question shares with its answer sentence, in the question's order. */
export function sharedTerms(question, tools) {
  const inSentence = contentTerms(question.sentence, tools);
  return [...contentTerms(question.question, tools)].filter((term) => inSentence.has(term));
}

/**
 * Problems of a paraphrase set, one line each ([] when it keeps the rule): a question
 * sharing more than one content word with its answer sentence (after `termOf`, so
 * "debut" and "debuts" are one word), naming the words.
 */
export function checkParaphrase(questions, tools) {
  const problems = [];
  questions.forEach((q, i) => {
    if (typeof q?.question !== 'string' || typeof q?.sentence !== 'string') return;
    const shared = sharedTerms(q, tools);
    if (shared.length > MAX_SHARED_TERMS)
      problems.push(
        `#${i}: the question shares ${shared.length} content words with its sentence (at most ${MAX_SHARED_TERMS}): ${shared.join(', ')}`,
      );
  });
  return problems;
}
