/**
 * The contract of the pure converters: bytes + content type + URL in, Markdown (or HTML)
 * plus metadata out. No I/O anywhere under extract/.
 */

import type { PageType } from '../core/page-types.js';
import type { PassFailure } from './html/page-context.js';
import type { StructuredData } from './html/read/structured-data/structured-data.js';

export type ContentKind = 'html' | 'text' | 'markdown' | 'csv' | 'json' | 'xml';

export interface ConvertInput {
  /** Decoded body bytes (transfer encodings removed; charset not yet decoded). */
  bytes: Uint8Array;
  /** The Content-Type header as served (may carry `charset=`), or null when absent. */
  contentType: string | null;
  /** The final URL (after redirects): base for relative links. */
  url: string;
  format: 'markdown' | 'html';
  /** Response headers (lower-cased names), e.g. `cf-mitigated: challenge`. */
  headers?: Record<string, string>;
  /** What the caller asked of the page beyond its main content (HTML only; absent: nothing). */
  controls?: PageControls;
  /**
   * The bytes already passed the binary sniff (the page journey sniffs the first bytes while
   * they download, to stop a binary early): not sniffed again. Absent: this call sniffs.
   */
  sniffed?: true;
}

/** The caller's page controls (`include_links`, `include_selectors`, `exclude_selectors`). */
export interface PageControls {
  /** List the page's links (`links`, `links_truncated`). */
  includeLinks?: boolean;
  /** CSS selectors whose elements, in page order, are the content (no stage is chosen). */
  includeSelectors?: readonly string[];
  /** CSS selectors whose elements are removed before anything else reads the page. */
  excludeSelectors?: readonly string[];
  /** Readers' comments after the content, under `## Comments` (left out otherwise). */
  includeComments?: boolean;
  /** The page's structured data (`structured_data`: JSON-LD, microdata, RDFa, OpenGraph). */
  includeStructuredData?: boolean;
}

/** One link of the page: absolute, tracking parameters dropped. */
export interface PageLink {
  url: string;
  /** Its anchor text (else its label, title or image alt), white space collapsed; may be ''. */
  text: string;
  /** It lies inside the content the Markdown holds. */
  in_content: boolean;
}

export interface ConvertOutput {
  /** Markdown of the main content (format markdown), '' for format html. */
  markdown: string;
  /** The page's full HTML decoded to UTF-8 (format html only). */
  html?: string;
  title?: string;
  description?: string;
  language?: string;
  published_at?: string;
  /** The authors' names (HTML): the structured data's, else the byline's. */
  authors?: string[];
  /** What the page says about itself (HTML, controls.includeStructuredData). */
  structured_data?: StructuredData;
  /** The HTML extractor's guess of the page's kind: set only where it ran (HTML to Markdown). */
  page_type?: PageType;
  /** Essence of the content type that was converted, e.g. `text/html`. */
  content_type: string;
  /** The page's links (controls.includeLinks; [] for content that is not HTML). */
  links?: PageLink[];
  /** More links than the list holds were found (controls.includeLinks). */
  links_truncated?: boolean;
  /** `selectors`: the content is what controls.includeSelectors matched (HTML only). */
  content_source?: 'selectors';
  /**
   * Internal, never in an answer: the HTML pipeline's passes that failed on the page
   * (absent when none did). The page extractor counts them (the metrics) and drops them.
   */
  pass_failures?: PassFailure[];
  /**
   * An HTML page with next to no Markdown whose markup says scripts write its content
   * (script-dependent.ts), judged on the text decoded here: the render decision reads it
   * instead of decoding the body again. Set only then; never part of an answer.
   */
  script_dependent?: true;
  /**
   * The page's `<link rel=canonical>` (HTML, either format), absolute http(s): a site crawl
   * knows the page under that URL too. Internal, never part of an answer.
   */
  canonical_url?: string;
}

export type { PassFailure };
