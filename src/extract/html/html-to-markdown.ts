/**
 * HTML -> main-content Markdown plus page metadata: the package's converter
 * (`htmlToMarkdown` in the library entry), the pipeline of pipeline.ts with every pass on.
 * Pure: a decoded HTML string and the page URL in, text out; never throws.
 */

import type { PageMetadata } from './metadata.js';
import type { Stage } from './page-context.js';
import { runPipeline } from './pipeline.js';

export interface HtmlExtraction extends PageMetadata {
  markdown: string;
  /** Which stage produced the Markdown: product-description, readability, cleaned-body, plain-text or empty. */
  stage: Stage;
}

export type { Stage };

export function htmlToMarkdown(html: string, url: string): HtmlExtraction {
  const { markdown, stage, metadata } = runPipeline(html, url);
  return { markdown, ...metadata, stage };
}
