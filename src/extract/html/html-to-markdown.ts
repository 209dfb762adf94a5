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
import { boundHtml } from './read/input-bounds.js';
import { metaMap } from './read/metadata.js';
import { parseDocument } from './read/parse.js';
import { readStructuredData } from './read/structured-data/structured-data.js';
import { sourceWords } from './read/source-words.js';
import type { StructuredData } from './read/structured-data/structured-data.js';
import { AppError } from '../../core/errors.js';
import { cssSelectorProblem } from '../../core/css-selector.js';
import type { PageControls, PageLink } from '../types.js';

export interface HtmlExtraction extends PageMetadata {
  markdown: string;
  /** Which stage produced the Markdown: product-description, readability, cleaned-body, plain-text or empty. */
  stage: Stage;
  /** The page's kind as the stage selector guesses it (page-type.ts). */
  pageType: PageType;
  /** The passes that failed on the page, each with its error (pipeline.ts); absent when none did. */
  failures?: PassFailure[];
  /** The page's links (controls.includeLinks only). */
  links?: PageLink[];
  linksTruncated?: boolean;
  /** The content is what controls.includeSelectors matched. */
  fromSelectors?: true;
  /** What the page says about itself (controls.includeStructuredData only). */
  structuredData?: StructuredData;
}

export type { Stage, PageType, PassFailure };

/**
 * `controls` (links, selectors) as POST /api/crawl takes them; a selector that cannot be
 * matched is refused (AppError `invalid_request` naming it), as the request schema refuses it.
 */
export function htmlToMarkdown(html: string, url: string, controls?: PageControls): HtmlExtraction {
  // A library entry: plain JavaScript may pass anything, and "[object Object]" is no page.
  const mistyped = [
    ...(typeof html !== 'string' ? [{ path: 'html', message: 'not a string' }] : []),
    ...(typeof url !== 'string' ? [{ path: 'url', message: 'not a string' }] : []),
  ];
  if (mistyped.length > 0)
    throw new AppError('invalid_request', 'htmlToMarkdown(html, url) takes the HTML and its URL as strings.', {
      details: mistyped,
    });
  if (controls !== undefined) checkSelectors(controls);
  const { markdown, stage, metadata, pageType, failures, links, fromSelectors, structuredData } = runPipeline(
    html,
    url,
    controls === undefined ? {} : { controls },
  );
  return {
    markdown,
    ...metadata,
    stage,
    pageType,
    ...(failures.length > 0 ? { failures } : {}),
    ...(links !== undefined ? { links: links.list, linksTruncated: links.truncated } : {}),
    ...(fromSelectors ? { fromSelectors } : {}),
    ...(structuredData !== undefined ? { structuredData } : {}),
  };
}

/**
 * The structured data of a page served whole (format html), where no pipeline runs: the
 * page parsed within the same input bounds, and read as the pipeline's read phase reads it.
 */
export function htmlStructuredData(html: string, url: string): StructuredData {
  const bounded = boundHtml(html);
  const doc = parseDocument(bounded.html, bounded.shape.capitalNames);
  return readStructuredData(doc, metaMap(doc), { pageUrl: url, words: sourceWords(bounded.html) });
}

function checkSelectors(controls: PageControls): void {
  const details = (['includeSelectors', 'excludeSelectors'] as const).flatMap((key) =>
    (controls[key] ?? []).flatMap((selector, i) => {
      const problem = typeof selector === 'string' ? cssSelectorProblem(selector) : 'not a string';
      return problem === null ? [] : [{ path: `${key}.${i}`, message: problem }];
    }),
  );
  if (details.length > 0)
    throw new AppError('invalid_request', `Invalid page controls: ${details.map((d) => d.path).join(', ')}`, {
      details,
    });
}
