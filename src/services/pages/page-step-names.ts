/**
 * The names of a page's journey, in order (page-journey.ts runs the steps under these names;
 * a test holds the two in step). A failed URL's outcome and the step-failure metric carry them.
 */
export const PAGE_STEP_NAMES = [
  'cache',
  'address',
  'robots',
  'fetch',
  'convert',
  'render',
  'readable',
  'store',
  'passages',
] as const;

export type PageStepName = (typeof PAGE_STEP_NAMES)[number];

/** Where a URL failed: its parse (the page request could not be built), or a step. */
export type PageFailureStep = 'url' | PageStepName;
