/**
 * HTML -> main-content Markdown plus page metadata: the package's converter
 * (`htmlToMarkdown` in the library entry), the pipeline of pipeline.ts with every pass on.
 * Pure: a decoded HTML string and the page URL in, text out; never throws (what failed
 * on the way comes back in `failures`).
 */

import type { PageMetadata } from './read/metadata.js';
import type { PassFailure, Stage } from './page-context.js';
import type { PageType } from '../../core/page-types.js';
import { runPipeline } from './pipeline.js';

export interface HtmlExtraction extends PageMetadata {
  markdown: string;
  /** Which stage produced the Markdown: product-description, readability, cleaned-body, plain-text or empty. */
  stage: Stage;
  /** The page's kind as the stage selector guesses it (page-type.ts). */
  pageType: PageType;
  /** The passes that failed on the page, each with its error (pipeline.ts); absent when none did. */
  failures?: PassFailure[];
}

export type { Stage, PageType, PassFailure };

export function htmlToMarkdown(html: string, url: string): HtmlExtraction {
  const { markdown, stage, metadata, pageType, failures } = runPipeline(html, url);
  return { markdown, ...metadata, stage, pageType, ...(failures.length > 0 ? { failures } : {}) };
}
