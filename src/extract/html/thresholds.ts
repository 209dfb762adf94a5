/**
 * The stage choice's thresholds in one table, each with why in a line; the measurements
 * behind each value are in docs/extraction.md, "Thresholds", under the same name.
 */
export const THRESHOLDS = {
  /** Readability's pick with fewer characters is a fragment (a caption, a teaser). */
  MIN_READABILITY_CHARS: 200,
  /** Readability's pick must hold this share of the cleaned body's non-link text (the recall rescue). */
  MIN_READABILITY_SHARE: 0.5,
  /** ... this share on a declared product page, whose facts sit in blocks beside the prose Readability keeps. */
  MIN_PRODUCT_READABILITY_SHARE: 0.8,
  /** A run of alike items holding this share of the cleaned body makes the page a listing. */
  MIN_ITEM_SHARE: 0.35,
  /** A cleaned body with less text is no better than nothing (unless Readability's pick has less). */
  MIN_CLEANED_BODY_CHARS: 50,
  /** A lone `<main>` holding this share of the cleaned body's text is the scope of stage 2. */
  MIN_MAIN_SHARE: 0.3,
  /** Readability's cost grows faster than the page: bodies with more elements skip it. */
  MAX_READABILITY_ELEMENTS: 7_000,
  /** ... as do bodies nested deeper (its conditional cleaning measures every candidate's subtree). */
  MAX_READABILITY_DEPTH: 128,
  /** A plain-text fallback with more link text than this share is an app shell's chrome, not content. */
  MAX_PLAIN_TEXT_LINK_DENSITY: 0.5,
} as const;
