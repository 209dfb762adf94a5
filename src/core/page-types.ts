/**
 * What kind of page the HTML extractor takes a page for (its stage selector's guess,
 * extract/html/choose/stage-selector.ts): the seven types of the WCXB benchmark plus `other` for a
 * page that gave no text. Reported as `page_type` on each result converted from HTML.
 */

export const PAGE_TYPES = [
  'article',
  'forum',
  'product',
  'listing',
  'documentation',
  'service',
  'collection',
  'other',
] as const;

export type PageType = (typeof PAGE_TYPES)[number];
