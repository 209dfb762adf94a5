/**
 * Every tuned threshold of the HTML extraction, grouped by the pass of pipeline.ts it
 * serves, each with why in a line; the measurements behind each value are in
 * docs/extraction.md, "Thresholds". Characters are counted without white space.
 */
export const THRESHOLDS = {
  // metadata: the product facts (product-page.ts, product-offer.ts, declared-description.ts)
  /** A shorter product name is too common to tell pages apart. */
  MIN_PRODUCT_NAME_CHARS: 4,
  /** A heading opening the declared name and covering this share is it, cut short. */
  MIN_PRODUCT_TITLE_SHARE: 0.6,
  /** A heading inside a longer declared name names it from this length (a category's is short). */
  MIN_SPECIFIC_PRODUCT_NAME_CHARS: 25,
  /** JSON-LD offers nested deeper are not read. */
  MAX_OFFER_DEPTH: 4,
  /** An amount from this on is no price. */
  MAX_OFFER_AMOUNT: 1e12,
  /** A shorter declared description is a tag line, not an anchor. */
  MIN_DECLARED_CHARS: 200,

  // math
  /** Deeper MathML is written as its text: no formula is that deep. */
  MAX_MATHML_DEPTH: 200,

  // task-lists
  /** A task's list item is at most this far above its checkbox (`li > label > span > input`). */
  MAX_TASK_DEPTH: 4,

  // noise
  /** A `<noscript>` with this much text is the page for clients without scripts: kept. */
  MIN_NOSCRIPT_CHARS: 200,
  /** A hidden element with less text goes; a larger one is content a script reveals. */
  MAX_HIDDEN_CHARS: 200,
  /** A longer button label is no accordion heading or FAQ question ... */
  MAX_BUTTON_LABEL_CHARS: 300,
  /** ... nor one of more nodes (an SVG icon is a few). */
  MAX_BUTTON_LABEL_NODES: 200,
  /** A heading holds its toggle button within this many levels. */
  MAX_TOGGLE_HEADING_DEPTH: 6,
  /** An icon font's glyph holds at most a ligature's name. */
  MAX_ICON_CHARS: 40,
  /** A default avatar holds its user's initials only. */
  MAX_AVATAR_CHARS: 2,
  /** Deeper elements are flattened: Turndown's blank test is quadratic on deep chains. */
  MAX_TREE_DEPTH: 256,

  // viewport-copies
  /** A phone-only element is a copy when this share of its word pairs is said elsewhere. */
  MIN_PHONE_COPY_SHARE: 0.8,
  /** Judging nested phone-only elements reads the page at most this many times. */
  MAX_PHONE_COPY_READ_FACTOR: 4,

  // picture-captions
  /** A longer class-marked caption, or a frame with more other text, is prose. */
  MAX_CAPTION_CHARS: 300,
  /** A caption with more link text is a card or a list of links. */
  MAX_CAPTION_LINK_DENSITY: 0.5,

  // readability-size-cap
  /** Readability's cost grows faster than the page: larger bodies skip it ... */
  MAX_READABILITY_ELEMENTS: 7_000,
  /** ... and deeper ones (its cleaning measures every candidate's subtree). */
  MAX_READABILITY_DEPTH: 128,

  // declared-in-page (declared-description.ts)
  /** The declared description is found in the page by this many first words. */
  DECLARED_PROBE_WORDS: 12,

  // beside-article: comment threads and teasers that follow an article (beside-article.ts)
  /** A thread has at least this many posts side by side: fewer is a quote or two, not a discussion. */
  MIN_THREAD_ITEMS: 3,
  /** ... and they are at least this share of the run's elements of their tag (cards of a list are not posts). */
  MIN_POST_SHARE: 0.5,
  /** A thread or teaser follows an article when this much other non-link text precedes it (two short paragraphs). */
  MIN_ARTICLE_CHARS: 400,
  /**
   * ... but a thread leaves the content after this much (a headline and a line of story):
   * readers' comments under a story of a few sentences are still not the story.
   */
  MIN_STORY_BEFORE_THREAD_CHARS: 150,
  /** A thread's mark goes on the section around its run when that adds at most this (its heading, a reply form). */
  MAX_SECTION_EXTRA_CHARS: 200,
  /** A run of teasers has at least this many items (a rail of other headlines, not a "see also" pair). */
  MIN_TEASERS: 4,
  /** A teaser's headline link is at least this long: menu entries ("Sport", "Next") are shorter. */
  MIN_HEADLINE_CHARS: 20,
  /** ... after at most this much other text: a section's name or a date ("Politics", "2 hours ago"). */
  MAX_KICKER_CHARS: 20,
  /** Short text is read for a date or a reply label; longer text is prose. */
  MAX_POST_LABEL_CHARS: 60,
  /** A post's signs are read on elements of at most this many characters (a byline with its date and links). */
  MAX_POST_SIGN_CHARS: 120,

  // chrome: rules chrome-tags, chrome-words, related-sections (boilerplate.ts)
  /** Chrome holding more of the text is kept (a page wrapper, a forum's comments). */
  MAX_CHROME_SHARE: 0.4,
  /** ... a form or header too, when prose: at most this much link text. */
  MAX_PROSE_LINK_DENSITY: 0.5,
  /** Fine print holding more of the text is the page (terms, a privacy policy). */
  MIN_LEGAL_TEXT_SHARE: 0.6,
  /** A reviews widget holds at most a star rating before its heading. */
  MAX_BEFORE_REVIEWS_CHARS: 40,
  /** A reviews widget goes up to this share of the text (reviews outweigh descriptions). */
  MAX_REVIEWS_SHARE: 0.8,

  // cleaned-body: rules before-title, listing-run (candidates.ts, boilerplate.ts, listing-items.ts)
  /** What precedes the one `<h1>` goes up to this share of the text (missed chrome). */
  MAX_BEFORE_TITLE_SHARE: 0.3,
  /** A link shorter than this is a menu's or a pager's ("Home", "Next", "2"); a teaser's headline is longer. */
  SHORT_LINK_CHARS: 20,
  /** A run of alike items has this many siblings ... */
  MIN_ITEMS: 4,
  /** ... each with a link and this many characters ... */
  MIN_ITEM_CHARS: 20,
  /** ... and this much link text (a forum's posts are prose). */
  MIN_ITEM_LINK_SHARE: 0.3,

  // product-description (product-page.ts, declared-description.ts)
  /** The named description holds this share of the cleaned body (less: a teaser) ... */
  MIN_DESCRIPTION_SHARE: 0.3,
  /** ... and less than this (more: the page itself). */
  MAX_DESCRIPTION_SHARE: 0.95,
  /** The element around the declared words grows up to this many times the declared text ... */
  MAX_DECLARED_GROWTH: 1.5,
  /** ... and holds this share of it (a teaser quoting them does not). */
  MIN_DECLARED_SHARE: 0.6,

  // control-labels
  /** Longer text is never just a control's label. */
  MAX_CONTROL_LABEL_CHARS: 40,
  /** A label's block is at most this many levels up ... */
  MAX_CONTROL_LABEL_DEPTH: 6,
  /** ... each wrapper read at most this many nodes deep. */
  MAX_CONTROL_LABEL_NODES: 30,

  // repeated-blocks
  /** An element that is no block is compared from this many words ("had had"). */
  MIN_INLINE_WORDS: 3,
  /** One run of text is compared from this length (a poem's line may repeat). */
  MIN_LONE_CHARS: 200,
  /** A screen-reader copy of the text before it goes from this length. */
  MIN_SCREEN_READER_COPY_CHARS: 6,

  // tables
  /** Lists in a headed table's cells are data from this many rows (fewer: a layout). */
  MIN_LIST_TABLE_ROWS: 3,
  /** Row spans are clipped to this ... */
  MAX_ROW_SPAN: 1_000,
  /** ... column spans to this. */
  MAX_COLUMN_SPAN: 50,
  /** Markup that repeated row-span cells may add per table (then they stay empty). */
  MAX_ROW_SPAN_COPY_CHARS: 100_000,
  /** A row group with more slots keeps its row spans: layout costs a step per slot. */
  MAX_ROW_SPAN_SLOTS: 250_000,

  // white-space-runs
  /** Code keeps this much of a white-space run: Turndown's trim is quadratic in it. */
  MAX_VERBATIM_RUN: 64,

  // plain-text: rule plain-text-links
  /** A plain-text fallback with more link text is an app shell's chrome. */
  MAX_PLAIN_TEXT_LINK_DENSITY: 0.5,

  // repeated-runs
  /** A repeated run goes from this many characters (shorter: an item's "Free shipping"). */
  MIN_REPEAT_CHARS: 40,
  /** A block is compared with at most this many earlier places (cost). */
  MAX_EARLIER_PLACES: 8,
} as const;
