/**
 * Every tuned threshold of the HTML extraction in one table, grouped by the pass of
 * pipeline.ts (PIPELINE, RULES) each serves, with why in a line. The measurements behind
 * each value: docs/extraction.md, "Thresholds", under the same name. Characters are
 * counted without white space (text-stats.ts).
 */
export const THRESHOLDS = {
  // metadata: the product facts (product-page.ts, product-offer.ts, declared-description.ts)
  /** A declared product name shorter than this is too common to tell one page from another. */
  MIN_PRODUCT_NAME_CHARS: 4,
  /** A heading that opens the declared name and covers this share of it is the name cut short. */
  MIN_PRODUCT_TITLE_SHARE: 0.6,
  /** A heading inside a longer declared name names the product from this length (a category's is short). */
  MIN_SPECIFIC_PRODUCT_NAME_CHARS: 25,
  /** JSON-LD offers nested deeper than this (offers of offers) are not read. */
  MAX_OFFER_DEPTH: 4,
  /** An amount from this on is no price (and its digits would not read as one). */
  MAX_OFFER_AMOUNT: 1e12,
  /** A declared description shorter than this is a tag line, not an anchor. */
  MIN_DECLARED_CHARS: 200,

  // math
  /** MathML nested deeper than this is written as its text: no formula is that deep. */
  MAX_MATHML_DEPTH: 200,

  // task-lists
  /** A task's list item sits at most this many levels above its checkbox (`li > label > span > input`). */
  MAX_TASK_DEPTH: 4,

  // noise
  /** A `<noscript>` with this much text is the page as a client without scripts sees it: kept. */
  MIN_NOSCRIPT_CHARS: 200,
  /** A hidden element with less text is dropped; a larger one is content a script reveals. */
  MAX_HIDDEN_CHARS: 200,
  /** A button label longer than this is no heading or question (an accordion's toggle is kept). */
  MAX_BUTTON_LABEL_CHARS: 300,
  /** ... nor one of more nodes than this (an SVG icon is a few). */
  MAX_BUTTON_LABEL_NODES: 200,
  /** A heading holds its toggle button within this many levels (`<h3><span><button>`). */
  MAX_TOGGLE_HEADING_DEPTH: 6,
  /** An icon font's glyph holds no more text than this (a ligature's name). */
  MAX_ICON_CHARS: 40,
  /** A default avatar holds its user's initials only. */
  MAX_AVATAR_CHARS: 2,
  /** Elements nested deeper are flattened: Turndown's blank test is quadratic on deep chains. */
  MAX_TREE_DEPTH: 256,

  // viewport-copies
  /** A phone-only element is a copy when this share of its word pairs occurs in the rest of the page. */
  MIN_PHONE_COPY_SHARE: 0.8,
  /** Judging nested phone-only elements reads at most this many times the page. */
  MAX_PHONE_COPY_READ_FACTOR: 4,

  // picture-captions
  /** A class-marked caption longer than this, or a frame with more other text, is prose. */
  MAX_CAPTION_CHARS: 300,
  /** A caption with more link text than this share is a card or a list of links. */
  MAX_CAPTION_LINK_DENSITY: 0.5,

  // readability-size-cap
  /** Readability's cost grows faster than the page: bodies with more elements skip it. */
  MAX_READABILITY_ELEMENTS: 7_000,
  /** ... as do bodies nested deeper (its conditional cleaning measures every candidate's subtree). */
  MAX_READABILITY_DEPTH: 128,

  // declared-in-page (declared-description.ts)
  /** The declared description is looked for in the page by this many of its first words. */
  DECLARED_PROBE_WORDS: 12,

  // chrome: rules chrome-tags, chrome-words, related-sections (boilerplate.ts)
  /** Chrome holding more than this share of the page's text is kept (a page wrapper, a forum's comments). */
  MAX_CHROME_SHARE: 0.4,
  /** ... when it is prose (a form or header of prose): at most this share of link text. */
  MAX_PROSE_LINK_DENSITY: 0.5,
  /** Fine print holding more than this share of the text is the page (terms, a privacy policy). */
  MIN_LEGAL_TEXT_SHARE: 0.6,
  /** A reviews widget holds at most this much before its heading (a star rating, not a description). */
  MAX_BEFORE_REVIEWS_CHARS: 40,
  /** A reviews widget goes while it holds at most this share of the page's text (reviews outweigh a description). */
  MAX_REVIEWS_SHARE: 0.8,

  // cleaned-body: rules main-scope, before-title, link-blocks, listing-run (candidates.ts, boilerplate.ts, listing-items.ts)
  /** A lone `<main>` holding this share of the cleaned body's text is the scope of stage 2. */
  MIN_MAIN_SHARE: 0.3,
  /** What precedes the one `<h1>` goes while it holds at most this share of the text (missed chrome). */
  MAX_BEFORE_TITLE_SHARE: 0.3,
  /** A link block has more than this share of link text ... */
  MAX_LINK_DENSITY: 0.8,
  /** ... at least this many links ... */
  MIN_LINKS: 3,
  /** ... this share of them short (menus, tags, pagers: lists of long links are a listing's content) ... */
  MIN_SHORT_LINK_SHARE: 0.8,
  /** ... short meaning fewer characters than this ("Home", "Next", "2") ... */
  SHORT_LINK_CHARS: 20,
  /** ... and at most this share of the text (a bigger block is page structure). */
  MAX_LINK_BLOCK_SHARE: 0.3,
  /** A run of alike items has at least this many siblings ... */
  MIN_ITEMS: 4,
  /** ... each with a link and this many characters ... */
  MIN_ITEM_CHARS: 20,
  /** ... and this share of link text over the run (a forum's posts are prose with an author link). */
  MIN_ITEM_LINK_SHARE: 0.3,

  // product-description (product-page.ts, declared-description.ts)
  /** The named description must hold this share of the cleaned body (less is a teaser) ... */
  MIN_DESCRIPTION_SHARE: 0.3,
  /** ... and less than this share (else it is the page itself: nothing to choose). */
  MAX_DESCRIPTION_SHARE: 0.95,
  /** The element around the declared words grows while it holds at most this many times the declared text. */
  MAX_DECLARED_GROWTH: 1.5,
  /** ... and must hold this share of it (a teaser quoting its opening words is not it). */
  MIN_DECLARED_SHARE: 0.6,

  // rank: rules listing-run, readability-minimum, recall-rescue, product-share, cleaned-body-minimum (candidates.ts)
  /** A run of alike items holding this share of the cleaned body makes the page a listing. */
  MIN_ITEM_SHARE: 0.35,
  /** Readability's pick with fewer characters is a fragment (a caption, a teaser). */
  MIN_READABILITY_CHARS: 200,
  /** Readability's pick must hold this share of the cleaned body's non-link text (the recall rescue). */
  MIN_READABILITY_SHARE: 0.5,
  /** ... this share on a declared product page, whose facts sit in blocks beside the prose Readability keeps. */
  MIN_PRODUCT_READABILITY_SHARE: 0.8,
  /** A cleaned body with less text is no better than nothing (unless Readability's pick has less). */
  MIN_CLEANED_BODY_CHARS: 50,

  // control-labels
  /** Longer text is never just a control's label. */
  MAX_CONTROL_LABEL_CHARS: 40,
  /** A label's block is looked for at most this many levels up (a link in an item in a list). */
  MAX_CONTROL_LABEL_DEPTH: 6,
  /** ... reading each wrapper at most this many nodes deep. */
  MAX_CONTROL_LABEL_NODES: 30,

  // repeated-blocks
  /** An element that is no block is compared from this many words ("had had" in word spans stays). */
  MIN_INLINE_WORDS: 3,
  /** One run of text is compared from this length: a poem's line, a grid's "Yes" cell can repeat. */
  MIN_LONE_CHARS: 200,
  /** A screen-reader copy of the text just before it is dropped from this length ("No<b>No</b>" stays). */
  MIN_SCREEN_READER_COPY_CHARS: 6,

  // tables
  /** Lists in a headed table's cells are data from this many rows (fewer: a pros-and-cons box). */
  MIN_LIST_TABLE_ROWS: 3,
  /** A row span past this is clipped (a page's 1e6 would be a loop). */
  MAX_ROW_SPAN: 1_000,
  /** A column span past this is clipped. */
  MAX_COLUMN_SPAN: 50,
  /** Characters of markup a table's repeated row-span cells may add in all (then they stay empty). */
  MAX_ROW_SPAN_COPY_CHARS: 100_000,
  /** A row group with more slots (rows x columns) keeps its row spans as they are: laying out costs a step per slot. */
  MAX_ROW_SPAN_SLOTS: 250_000,

  // white-space-runs
  /** A run of white space in code keeps this many line breaks and indentation characters: Turndown's trim is quadratic in it. */
  MAX_VERBATIM_RUN: 64,

  // plain-text: rule plain-text-links
  /** A plain-text fallback with more link text than this share is an app shell's chrome, not content. */
  MAX_PLAIN_TEXT_LINK_DENSITY: 0.5,

  // repeated-runs
  /** A repeated run goes from this many characters of words (shorter: each item's own "Free shipping"). */
  MIN_REPEAT_CHARS: 40,
  /** A block is compared with at most this many earlier places of its words (bounds the cost). */
  MAX_EARLIER_PLACES: 8,
} as const;
