/**
 * Extracts one URL through every gate, in the order of the issue and spec 4.2: invalid URL,
 * extension (before any request), robots.txt, HTTP status, Content-Type allowlist,
 * magic-byte sniffing, size (counted while streaming), then conversion (which refuses
 * anti-bot challenge pages). Each gate fails this URL alone, with a stable error code.
 * Used by the crawl service and by search for result page content.
 */
import type { Config } from '../core/config.js';
import { AppError, extractionErrorTypeOf, toAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ConverterPort } from '../core/converter-port.js';
import { classifyContentType, hasReadableText, parseContentType, rejectedExtension, sniffBinary } from '../extract/index.js';
import type { ConvertInput, ConvertOutput } from '../extract/types.js';
import type { HttpClient, ResponseHead } from '../net/fetch-types.js';
import type { CacheStore } from '../core/cache-port.js';
import type { ServiceObserver } from './metrics.js';

export type ExtractFormat = 'markdown' | 'html';

export interface RobotsPolicy {
  check(url: string, options?: { signal?: AbortSignal }): Promise<{ allowed: boolean; source: string; status?: number; error?: AppError }>;
}

export interface ExtractedPage {
  statusCode: number;
  finalUrl: string;
  output: ConvertOutput;
}

export type PageOutcome =
  | ({ ok: true; fromCache: boolean } & ExtractedPage)
  | { ok: false; statusCode: number; error: AppError };

export interface ExtractOptions {
  format: ExtractFormat;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface PageExtractorDeps {
  config: Config;
  client: HttpClient;
  robots: RobotsPolicy;
  cache: CacheStore<ExtractedPage>;
  /** Runs the converters (a worker pool in servers): under what is left of the URL's deadline. */
  converter: ConverterPort<ConvertInput, ConvertOutput>;
  logger: Logger;
  observer?: Pick<ServiceObserver, 'cacheLookup' | 'pageFetched'>;
}

/** The result of parsing a submitted URL string, or the reason it cannot be fetched. */
export function parseTargetUrl(raw: string): URL | AppError {
  const text = raw.trim();
  if (text === '') return new AppError('invalid_url', 'The URL is empty.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return new AppError('invalid_url', `Not a valid absolute URL: ${JSON.stringify(text.slice(0, 200))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new AppError('invalid_url', `Only http and https URLs can be extracted, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.hostname === '') return new AppError('invalid_url', 'The URL has no host.');
  return url;
}

/** The key a page is cached and de-duplicated under: the parsed URL without its fragment. */
export function pageKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** Where the operator turns robots.txt checks off, named in every robots_disallowed message. */
const ROBOTS_HINT = "the operator's WEBSEARCH_ROBOTS setting governs robots.txt checks";

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export class PageExtractor {
  constructor(private readonly deps: PageExtractorDeps) {}

  async extract(rawUrl: string, options: ExtractOptions): Promise<PageOutcome> {
    const outcome = await this.#extract(rawUrl, options);
    this.deps.observer?.pageFetched(outcome.ok ? (outcome.fromCache ? 'cached' : 'success') : extractionErrorTypeOf(outcome.error.code));
    return outcome;
  }

  async #extract(rawUrl: string, options: ExtractOptions): Promise<PageOutcome> {
    const parsed = parseTargetUrl(rawUrl);
    if (parsed instanceof AppError) return { ok: false, statusCode: 0, error: parsed };
    const cacheKey = `page:${options.format}:${pageKey(parsed)}`;
    if (this.deps.config.cache.ttlMs > 0) {
      const cached = await this.deps.cache.get(cacheKey).catch(() => undefined);
      this.deps.observer?.cacheLookup('page', cached !== undefined);
      if (cached) return { ok: true, fromCache: true, ...cached };
    }
    try {
      const page = await this.fetchAndConvert(parsed, options);
      if (this.deps.config.cache.ttlMs > 0) {
        await this.deps.cache.set(cacheKey, page, this.deps.config.cache.ttlMs).catch((err: unknown) => {
          this.deps.logger.warn({ err, url: parsed.href }, 'page cache write failed');
        });
      }
      return { ok: true, fromCache: false, ...page };
    } catch (err) {
      const error = toAppError(err);
      if (error.code === 'internal_error') this.deps.logger.error({ err, url: parsed.href }, 'extraction failed unexpectedly');
      return { ok: false, statusCode: error.statusCode ?? 0, error };
    }
  }

  private async fetchAndConvert(url: URL, options: ExtractOptions): Promise<ExtractedPage> {
    const extension = rejectedExtension(url);
    if (extension !== null) {
      throw new AppError(
        'unsupported_content_type',
        `The URL ends in ".${extension}", a binary document type that cannot be extracted (refused before any request).`,
        { statusCode: 0 },
      );
    }
    // One deadline per URL covers the robots.txt check and the page.
    const timeoutMs = Math.min(options.timeoutMs ?? this.deps.config.fetch.timeoutMs, this.deps.config.fetch.maxTimeoutMs);
    const started = performance.now();
    const deadline = AbortSignal.timeout(timeoutMs);
    const verdict = await this.deps.robots.check(url.href, { signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline }).catch((err: unknown) => {
      if (deadline.aborted && !options.signal?.aborted) {
        throw new AppError('timeout', `No answer within ${timeoutMs} ms: the site's robots.txt did not answer in that time.`, { statusCode: 0, retryable: true });
      }
      throw err;
    });
    if (!verdict.allowed) {
      // A robots.txt that cannot be fetched because the host is forbidden, cannot be
      // resolved or refuses connections says more about the host than about robots:
      // the page itself would fail the same way, so report that failure itself.
      const cause = verdict.error?.code;
      if (verdict.error && (cause === 'forbidden_address' || cause === 'network' || cause === 'cancelled')) throw verdict.error;
      const why = verdict.source === 'unreachable'
        ? `its robots.txt could not be fetched (${unreachableReason(verdict)}), and RFC 9309 (2.3.1.4) says to treat that as disallowing everything; it is asked again shortly (${ROBOTS_HINT})`
        : `its robots.txt disallows this path for ${this.deps.config.fetch.productToken} (${ROBOTS_HINT})`;
      throw new AppError('robots_disallowed', `Not fetched: ${why}.`, { statusCode: 0 });
    }
    const remainingMs = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
    const response = await this.deps.client.fetch(url.href, {
      timeoutMs: remainingMs,
      signal: options.signal,
      onHead: (head) => checkHead(head, this.deps.config.fetch.maxBytes),
      onFirstBytes: async (bytes, head) => {
        const binary = await sniffBinary(bytes);
        if (binary !== null) {
          throw new AppError(
            'unsupported_content_type',
            `The body is ${binary} (served as ${head.headers['content-type'] ?? 'no content type'}); only text-based content can be extracted.`,
            { statusCode: head.status },
          );
        }
      },
    });
    const input = { bytes: response.body, contentType: response.headers['content-type'] ?? null, url: response.finalUrl, format: options.format, headers: response.headers };
    const leftMs = timeoutMs - (performance.now() - started);
    const output = await this.deps.converter.convert(input, { timeoutMs: leftMs, signal: options.signal }).catch((err: unknown) => {
      const error = toAppError(err);
      // Conversion errors concern the page we got, so they carry its status code.
      throw error.statusCode === undefined
        ? new AppError(error.code, error.message, { statusCode: response.status, retryable: error.retryable, cause: error.cause })
        : error;
    });
    if (!hasReadableText(output)) {
      throw new AppError('empty_content', 'The page has no readable text (empty, or written by scripts this server does not run); nothing was charged.', {
        statusCode: response.status,
      });
    }
    return { statusCode: response.status, finalUrl: response.finalUrl, output };
  }
}

/** The gates that need only the status line and headers of the final hop. */
function checkHead(head: ResponseHead, maxBytes: number): void {
  if (!isSuccess(head.status)) {
    const text = head.statusText ? `${head.status} ${head.statusText}` : String(head.status);
    throw new AppError('http', `The page answered HTTP ${text}.`, {
      statusCode: head.status,
      retryable: head.status >= 500 || head.status === 429,
    });
  }
  const contentType = head.headers['content-type'];
  // An unparseable or wildcard header counts as absent: the converter sniffs the body.
  if (contentType !== undefined && parseContentType(contentType) !== null && classifyContentType(contentType) === null) {
    throw new AppError(
      'unsupported_content_type',
      `Content type "${contentType.split(';')[0]?.trim()}" is not supported: only HTML, XHTML, plain text, Markdown, CSV, JSON and XML (RSS, Atom, sitemaps) can be extracted.`,
      { statusCode: head.status },
    );
  }
  const declared = Number(head.headers['content-length']);
  const encoded = head.headers['content-encoding'] !== undefined && head.headers['content-encoding'] !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('too_large', `The page declares ${declared} bytes, over the ${maxBytes}-byte limit.`, { statusCode: head.status });
  }
}

/** Why robots.txt could not be fetched, in a few words: a status, a timeout or a network failure. */
function unreachableReason(verdict: { status?: number; error?: AppError }): string {
  if (verdict.status !== undefined) return `HTTP ${verdict.status}`;
  if (verdict.error?.code === 'timeout') return 'it did not answer in time';
  return verdict.error ? `${verdict.error.code}: ${verdict.error.message}` : 'no answer';
}
