// Types of questions.mjs for the tests.
export type Where = 'start' | 'middle' | 'end';
export interface Question {
  dataset: string;
  page_id: string;
  question: string;
  answer: string;
  where: Where;
  /** The answer sentence as the page's Markdown holds it (the paraphrase set only). */
  sentence?: string;
}

/** The tokenizer a paraphrase check uses: src/'s in the tests, dist/'s in the bench. */
export interface Tokenizer {
  tokenize: (text: string) => string[];
  termOf: (token: string) => string;
  stopWords: ReadonlySet<string>;
}

export const QUESTIONS_FILE: URL;
export const PARAPHRASE_FILE: URL;
export const SPLITS: string[];
export const WHERE: Where[];
export const RULES: { minQuestions: number; maxPerPage: number; minBucketShare: number; maxBucketShare: number };
export const MAX_SHARED_TERMS: number;
export function loadQuestions(file?: URL | string): Question[];
export function whereOf(markdown: string, answer: string): Where | null;
export function checkQuestionSet(questions: unknown, options?: { sentence?: boolean }): string[];
export function checkAnswer(question: Question, markdown: string): string | null;
export function checkSentence(question: Question, markdown: string): string | null;
export function contentTerms(text: string, tools: Tokenizer): Set<string>;
export function sharedTerms(question: Question, tools: Tokenizer): string[];
export function checkParaphrase(questions: Question[], tools: Tokenizer): string[];
