/**
 * What kind of page the extractor takes a page for (the stage selector's guess,
 * stage-selector.ts): the seven types of the WCXB benchmark plus `other` for a page the
 * model cannot place. Reported as `page_type` on each HTML result.
 */

export const PAGE_TYPES = ['article', 'forum', 'product', 'listing', 'documentation', 'service', 'collection', 'other'] as const;

export type PageType = (typeof PAGE_TYPES)[number];
