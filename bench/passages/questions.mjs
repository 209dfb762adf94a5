// The questions of the passages benchmark (questions.json beside this file) and the rules
// they keep: the shape of the set (checked without the pages, by the unit test too) and
// each answer against its page's Markdown (checked by the bench, which has the pages).
import fs from 'node:fs';

export const QUESTIONS_FILE = new URL('./questions.json', import.meta.url);

/** The dev splits the questions are written on (bench/dev-pages.mjs lists their pages). */
export const SPLITS = ['scrapinghub-dev', 'wcxb-dev', 'dragnet-dev'];
export const WHERE = ['start', 'middle', 'end'];
const FIELDS = ['dataset', 'page_id', 'question', 'answer', 'where'];
export const RULES = { minQuestions: 150, maxPerPage: 3, minBucketShare: 0.3, maxBucketShare: 0.37 };

export function loadQuestions(file = QUESTIONS_FILE) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Which third of the Markdown the answer's first occurrence starts in; null when absent. */
export function whereOf(markdown, answer) {
  const at = markdown.indexOf(answer);
  if (at < 0) return null;
  return WHERE[Math.min(2, Math.floor((3 * at) / markdown.length))];
}

/**
 * Problems of the set as a whole, one line each ([] when it keeps every rule): fields,
 * at most three questions a page, no question holding its answer (case aside), each
 * `where` bucket a third of the set give or take, every split present.
 */
export function checkQuestionSet(questions) {
  const problems = [];
  if (!Array.isArray(questions)) return ['the questions file holds no array'];
  if (questions.length < RULES.minQuestions)
    problems.push(`${questions.length} questions, fewer than ${RULES.minQuestions}`);
  const perPage = new Map();
  const buckets = Object.fromEntries(WHERE.map((w) => [w, 0]));
  const splits = new Set();
  questions.forEach((q, i) => {
    const name = `#${i}`;
    const missing = FIELDS.filter((field) => typeof q?.[field] !== 'string' || q[field].trim() === '');
    if (missing.length > 0) {
      problems.push(`${name}: no ${missing.join(', ')}`);
      return;
    }
    if (!SPLITS.includes(q.dataset)) problems.push(`${name}: unknown dataset ${q.dataset}`);
    if (!WHERE.includes(q.where)) problems.push(`${name}: where is ${q.where}, not start, middle or end`);
    else buckets[q.where]++;
    if (q.question.toLowerCase().includes(q.answer.toLowerCase()))
      problems.push(`${name}: the question holds its answer "${q.answer}"`);
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

/** The problem of one question against its page's Markdown, or null: answer missing, `where` wrong. */
export function checkAnswer(question, markdown) {
  const where = whereOf(markdown, question.answer);
  if (where === null) return `answer "${question.answer}" not in the page's Markdown`;
  if (where !== question.where)
    return `answer "${question.answer}" is in the ${where} third, not the ${question.where}`;
  return null;
}
