/**
 * The names of the HTML pipeline's passes, in their order, and of the rules inside them
 * (pipeline.ts): what `off` switches off and a pass's `on` asks about. Typed lists, so a
 * misspelt name is a type error; PIPELINE holds one pass under each name of PASSES, in the
 * same order (test/extract/pipeline-state.test.ts). No imports: the services read the
 * names (the metrics' `pass` label) without loading the pipeline.
 */

export const PASSES = [
  // read
  'bounds',
  'parse',
  'metadata',
  // prepare
  'own-marks',
  'math',
  'task-lists',
  'noise',
  'viewport-copies',
  'placeholder-text',
  'code-languages',
  'picture-captions',
  'joined-words',
  'base-url',
  // choose
  'readability-size-cap',
  'beside-article',
  'declared-in-page',
  'chrome',
  'readability',
  'cleaned-body',
  'product-description',
  'rank',
  // clean
  'comments',
  'control-labels',
  'repeated-blocks',
  'inline-code',
  'empty-inlines',
  'tables',
  'white-space-runs',
  'line-starts',
  'blank-blocks',
  // write
  'turndown',
  'plain-text',
  'tidy',
  'repeated-runs',
  // finish
  'offer',
] as const;

/** Rules inside passes, switchable by name like the passes themselves. */
export const RULES = [
  'chrome-tags',
  'chrome-words',
  'related-sections',
  'readability-patches',
  'comment-threads',
  'before-title',
  'listing-run',
  'beside-article-share',
  'stage-selector',
  'plain-text-links',
] as const;

export type PassName = (typeof PASSES)[number];
export type RuleName = (typeof RULES)[number];
export type SwitchName = PassName | RuleName;
