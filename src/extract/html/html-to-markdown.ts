/**
 * HTML -> main-content Markdown plus page metadata. Pure: a decoded HTML string and the
 * page URL in, text out; never throws. The steps:
 *   input bounds (input-bounds.ts: too deep flattened, too many elements cut) -> parse
 *   (linkedom, normalised: parse.ts) -> metadata (metadata.ts) and page kind
 *   (product-page.ts) -> base URL -> noise removal, copies for phones (viewport-copies.ts),
 *   placeholder text (placeholder-text.ts),
 *   code-language tagging, captions and words joined by layout (joined-words.ts) -> the
 *   cascade (cascade.ts: product description, Readability, cleaned body, plain text) ->
 *   Markdown (markdown.ts, tidy.ts; for stage 2, without repeated runs: repeated-runs.ts)
 *   -> a product page's declared price when the Markdown does not show it
 *   (product-offer.ts).
 */

import { removeNoise } from './noise.js';
import { runCascade } from './cascade.js';
import type { PageHints, Stage } from './cascade.js';
import { attachPictureCaptions } from './captions.js';
import { annotateCodeBlocks } from './code-blocks.js';
import { separateJoinedWords } from './joined-words.js';
import { normalizeMath } from './math.js';
import { markTaskItems } from './task-lists.js';
import { metaMap, readMetadata } from './metadata.js';
import type { PageMetadata } from './metadata.js';
import { bodyOf, parseDocument } from './parse.js';
import { withOffer } from './product-offer.js';
import type { Offer } from './product-offer.js';
import { readProductPage } from './product-page.js';
import { dropMobileCopies } from './viewport-copies.js';
import { dropPlaceholderText } from './placeholder-text.js';
import type { DomDocument, DomElement } from './dom.js';
import { descendants } from './dom.js';
import { documentBaseUrl } from './urls.js';
import { boundHtml } from './input-bounds.js';

export interface HtmlExtraction {
  markdown: string;
  title?: string;
  description?: string;
  language?: string;
  published_at?: string;
  /** Which cascade stage produced the Markdown: product-description, readability, cleaned-body, plain-text or empty. */
  stage: string;
}

export type { Stage };

/** The prefix of the attributes our passes write (a code block's language, a formula's TeX ...). */
const OWN_ATTRIBUTE_PREFIX = 'data-md-';

/**
 * Takes out the page's own attributes named as ours: the rules that read them write their
 * values as they are (a formula's TeX, a code block's language), so a page's
 * `data-md-tex="# Heading"` would put raw Markdown into the output.
 */
function dropOwnAttributes(root: DomElement): void {
  for (const element of [root, ...descendants(root)]) {
    for (const name of element.getAttributeNames()) {
      if (name.startsWith(OWN_ATTRIBUTE_PREFIX)) element.removeAttribute(name);
    }
  }
}

/** The body, rid of noise, with code languages recorded: the input of every stage. */
function prepare(doc: DomDocument, source: string): DomElement {
  const body = bodyOf(doc);
  if (source.includes(OWN_ATTRIBUTE_PREFIX)) dropOwnAttributes(body);
  // Before the noise goes: it takes MathML and MathJax's scripts with it. A formula the
  // conversion cannot read is no reason to lose the page.
  try {
    normalizeMath(doc, body, source);
  } catch {
    // The formulas stay as the page wrote them.
  }
  // ... and takes the checkboxes of task lists with the form controls.
  markTaskItems(doc, body, source);
  removeNoise(body, source);
  // After the noise: what a page hides outright is gone, and is no twin to judge by.
  dropMobileCopies(body, source);
  dropPlaceholderText(doc, body, source);
  annotateCodeBlocks(doc, body);
  attachPictureCaptions(body, source);
  separateJoinedWords(body);
  return body;
}

export function htmlToMarkdown(html: string, url: string): HtmlExtraction {
  let metadata: PageMetadata = {};
  try {
    // Flattened and cut before the parser when the page passes the input bounds (input-bounds.ts).
    const source = boundHtml(typeof html === 'string' ? html : String(html ?? '')).html;
    const doc = parseDocument(source);
    let hints: PageHints = {};
    let offer: Offer | null = null;
    try {
      const metas = metaMap(doc);
      metadata = readMetadata(doc, metas);
      const product = readProductPage(doc, source, metas);
      hints = { product: product !== null, declaredDescription: product?.description ?? null };
      offer = product?.offer ?? null;
    } catch {
      // Metadata and hints are a bonus: a page whose head defeats the reader still has content.
    }
    const body = prepare(doc, source);
    const reparse = (): DomElement => prepare(parseDocument(source), source);
    const { markdown, stage } = runCascade(doc, body, documentBaseUrl(doc, url), reparse, hints);
    // A product page's declared price, when the content does not show it (product-offer.ts).
    let withPrice = markdown;
    try {
      withPrice = withOffer(markdown, offer);
    } catch {
      // The price is a bonus: the content stands without it.
    }
    return { markdown: withPrice, ...metadata, stage };
  } catch {
    return { markdown: '', ...metadata, stage: 'empty' };
  }
}
