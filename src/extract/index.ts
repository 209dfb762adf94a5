/**
 * The public API of extract/: `convert` turns a fetched body into Markdown (or decoded HTML)
 * plus metadata. Pure: bytes in, text out, no I/O. Order of the checks:
 *   1. the declared Content-Type must be on the allowlist (unsupported → error);
 *   2. the bytes must not be binary, whatever was declared (docs/interface.md 4.2, rule 3);
 *   3. with no Content-Type, the kind is sniffed from the first bytes (then the URL);
 *   4. the charset is decoded (charset.ts); an HTML challenge page is `blocked`;
 *   5. format `html` returns the decoded document; `markdown` runs the kind's converter.
 * The HTML cascade (DOM, Readability, Turndown) is loaded on first use only: desktop
 * clients start the server per session, and most of its weight is in that module.
 */

import { AppError } from '../core/errors.js';
import { isChallengePage } from './challenge.js';
import { decodeText } from './charset.js';
import { isTabSeparated, kindOfEssence, parseContentType } from './content-type.js';
import { convertCsv } from './csv.js';
import { readHtmlMeta } from './html-meta.js';
import type { HtmlMeta } from './html-meta.js';
import { absoluteHttpLink } from './site/html-discovery.js';
import { convertJson } from './json.js';
import type { HtmlExtraction } from './html/html-to-markdown.js';
import { looksScriptDependent } from './script-dependent.js';
import { sniffBinary, utf16Endianness } from './sniff.js';
import { convertMarkdown, convertText, markdownTitle } from './text.js';
import type { ContentKind, ConvertInput, ConvertOutput, PageControls } from './types.js';
import type { StructuredData } from './html/read/structured-data/structured-data.js';
import { convertXml } from './xml.js';

export { rejectedExtension } from './extension-gate.js';
export { classifyContentType, parseContentType } from './content-type.js';
export type { ParsedContentType } from './content-type.js';
export { sniffBinary } from './sniff.js';
export { isChallengePage } from './challenge.js';
export { hasReadableText } from './readable-text.js';
export { decodeText } from './charset.js';
export type { DecodedText } from './charset.js';
export type { ContentKind, ConvertInput, ConvertOutput, PageControls, PageLink, PassFailure } from './types.js';
export type { Passage, PassagesInput } from './passages/index.js';

const SUPPORTED = 'only HTML, text, Markdown, CSV, JSON and XML can be extracted';

interface HtmlModule {
  htmlToMarkdown(html: string, url: string, controls?: PageControls): HtmlExtraction;
  htmlStructuredData(html: string, url: string): StructuredData;
}
let htmlModule: Promise<HtmlModule> | undefined;

function loadHtmlModule(): Promise<HtmlModule> {
  htmlModule ??= import('./html/html-to-markdown.js').catch((error: unknown) => {
    // Let a later call try again rather than caching the failure for the process lifetime.
    htmlModule = undefined;
    throw error;
  });
  return htmlModule;
}

export async function convert(input: ConvertInput): Promise<ConvertOutput> {
  const { bytes, contentType, url, format } = input;
  const declared = parseContentType(contentType);
  let kind: ContentKind | null = null;
  if (declared !== null) {
    kind = kindOfEssence(declared.essence);
    if (kind === null) throw unsupported(declared.essence);
  }

  const binary = input.sniffed === true ? null : await sniffBinary(bytes);
  if (binary !== null) throw unsupported(binary, declared?.essence);

  let essence: string;
  if (declared !== null && kind !== null) {
    essence = declared.essence;
  } else {
    ({ kind, essence } = sniffKind(bytes, url));
  }

  const { text } = decodeText(bytes, contentType, kind);
  if (kind === 'html' && isChallengePage(text, input.headers)) {
    throw new AppError('blocked', 'The site answered with an anti-bot challenge page instead of the content');
  }

  // Links of content that is not HTML: none (docs/decisions.md, "Page controls").
  const noLinks = input.controls?.includeLinks === true ? { links: [], links_truncated: false } : {};
  if (format === 'html') {
    // Non-HTML kinds: `html` holds the document as served (decoded), so the caller always
    // gets the raw text back for format html; metadata comes from HTML heads only.
    const { canonical, ...meta }: HtmlMeta = kind === 'html' ? readHtmlMeta(text) : {};
    // The links' in_content follows the Markdown extraction's content, as with format markdown.
    const links = kind === 'html' && input.controls?.includeLinks === true ? await htmlLinks(text, url) : noLinks;
    const canonicalUrl = absoluteHttpLink(canonical, url);
    const structured =
      kind === 'html' && input.controls?.includeStructuredData === true
        ? { structured_data: (await loadHtmlModule()).htmlStructuredData(text, url) }
        : {};
    return {
      markdown: '',
      html: text,
      ...meta,
      ...structured,
      content_type: essence,
      ...links,
      ...(canonicalUrl !== undefined ? { canonical_url: canonicalUrl } : {}),
    };
  }

  switch (kind) {
    case 'html': {
      const { htmlToMarkdown } = await loadHtmlModule();
      const extraction = htmlToMarkdown(text, url, input.controls);
      const head = readHtmlMeta(text);
      return withoutUndefined({
        markdown: extraction.markdown,
        title: extraction.title ?? head.title,
        description: extraction.description ?? head.description,
        language: extraction.language ?? head.language,
        published_at: extraction.published_at ?? head.published_at,
        authors: extraction.authors ?? head.authors,
        structured_data: extraction.structuredData,
        page_type: extraction.pageType,
        content_type: essence,
        links: extraction.links,
        links_truncated: extraction.linksTruncated,
        content_source: extraction.fromSelectors ? 'selectors' : undefined,
        pass_failures: extraction.failures,
        script_dependent: looksScriptDependent(text, extraction.markdown) ? true : undefined,
        canonical_url: absoluteHttpLink(head.canonical, url),
      });
    }
    case 'markdown': {
      const markdown = convertMarkdown(text);
      return withoutUndefined({ markdown, title: markdownTitle(markdown), content_type: essence, ...noLinks });
    }
    case 'text':
      return { markdown: convertText(text), content_type: essence, ...noLinks };
    case 'csv':
      return {
        markdown: convertCsv(text, isTabSeparated(essence) ? { delimiter: '\t' } : {}),
        content_type: essence,
        ...noLinks,
      };
    case 'json':
      return { markdown: convertJson(text), content_type: essence, ...noLinks };
    case 'xml':
      return { ...convertXml(text, url), content_type: essence, ...noLinks };
  }
}

/** The links of an HTML page served as format html: those of its Markdown extraction. */
async function htmlLinks(text: string, url: string): Promise<Pick<ConvertOutput, 'links' | 'links_truncated'>> {
  const { htmlToMarkdown } = await loadHtmlModule();
  const { links = [], linksTruncated = false } = htmlToMarkdown(text, url, { includeLinks: true });
  return { links, links_truncated: linksTruncated };
}

function unsupported(detected: string, declared?: string): AppError {
  const served = declared !== undefined && declared !== detected ? ` (served as ${declared})` : '';
  return new AppError('unsupported_content_type', `Content type ${detected}${served} is not supported: ${SUPPORTED}`);
}

/** Optional fields are absent, not `undefined`, so the JSON and snapshots stay clean. */
function withoutUndefined(output: ConvertOutput): ConvertOutput {
  for (const key of Object.keys(output) as (keyof ConvertOutput)[]) {
    if (output[key] === undefined) delete output[key];
  }
  return output;
}

/** Start tags that make an untyped body HTML (WHATWG MIME Sniffing, "rules for unknown"). */
const HTML_START =
  /^<(?:!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link)(?=[\s>/])/;
const XML_ROOT = /^<(?:rss|feed|urlset|sitemapindex|rdf:rdf)(?=[\s>/])/;

/** Kind and canonical essence of a body served without Content-Type. */
function sniffKind(bytes: Uint8Array, url: string): { kind: ContentKind; essence: string } {
  const prefix = textPrefix(bytes).trimStart().toLowerCase();
  const afterComments = prefix.replace(/^(?:<!--[\s\S]*?-->\s*)+/, '');
  if (prefix.startsWith('<?xml')) {
    // XHTML with an XML declaration reads best through the HTML cascade.
    return /<!doctype\s+html|<html[\s>]/.test(prefix)
      ? { kind: 'html', essence: 'text/html' }
      : { kind: 'xml', essence: 'application/xml' };
  }
  if (HTML_START.test(afterComments)) return { kind: 'html', essence: 'text/html' };
  if (XML_ROOT.test(afterComments)) return { kind: 'xml', essence: 'application/xml' };
  if (prefix.startsWith('{') || prefix.startsWith('[')) {
    try {
      JSON.parse(decodeText(bytes, null, 'json').text);
      return { kind: 'json', essence: 'application/json' };
    } catch {
      // Brackets but not JSON: plain text.
    }
  }
  return hintFromExtension(url) ?? { kind: 'text', essence: 'text/plain' };
}

/** The URL's extension decides between the plain-text kinds when the bytes cannot. */
function hintFromExtension(url: string): { kind: ContentKind; essence: string } | null {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return null;
  }
  if (/\.(?:md|markdown|mdown|mkd)$/.test(path)) return { kind: 'markdown', essence: 'text/markdown' };
  if (path.endsWith('.csv')) return { kind: 'csv', essence: 'text/csv' };
  if (path.endsWith('.tsv')) return { kind: 'csv', essence: 'text/tab-separated-values' };
  return null;
}

/** The first 1 KiB as text: UTF-16 when a BOM says so, else bytes as Latin-1 (ASCII is all we test). */
function textPrefix(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 1024);
  const utf16 = utf16Endianness(head);
  if (utf16 !== null) return new TextDecoder(utf16 === 'le' ? 'utf-16le' : 'utf-16be').decode(head);
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  return Buffer.from(head.buffer, head.byteOffset + start, head.length - start).toString('latin1');
}
