// Types of questions.mjs for the tests.
export type Where = 'start' | 'middle' | 'end';
export interface Question {
  dataset: string;
  page_id: string;
  question: string;
  answer: string;
  where: Where;
}

export const QUESTIONS_FILE: URL;
export const SPLITS: string[];
export const WHERE: Where[];
export const RULES: { minQuestions: number; maxPerPage: number; minBucketShare: number; maxBucketShare: number };
export function loadQuestions(file?: URL | string): Question[];
export function whereOf(markdown: string, answer: string): Where | null;
export function checkQuestionSet(questions: unknown): string[];
export function checkAnswer(question: Question, markdown: string): string | null;
