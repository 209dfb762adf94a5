/**
 * Extracts one URL through every gate, in the order of the issue and
 * docs/interface.md 4.2: invalid URL, extension (before any request), robots.txt, HTTP
 * status, Content-Type allowlist, magic-byte sniffing, size (counted while streaming),
 * then conversion (which refuses anti-bot challenge pages), rendering in the headless
 * browser when the page needs it (render-decision below), and the readable-text gate.
 * Each gate fails this URL alone, with a stable error code. Used by the extract service and
 * by search for result page content.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Config } from '../core/config.js';
import { AppError, contentErrorOf, extractionErrorTypeOf, toAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ConverterPort } from '../core/converter-port.js';
import type { RenderedPage, Renderer, StaticDocument } from '../core/render-port.js';
import { timeLeft, type RequestContext, type RequestDeadline } from '../core/request-context.js';
import {
  classifyContentType,
  decodeText,
  hasReadableText,
  looksScriptDependent,
  nearEmpty,
  parseContentType,
  rejectedExtension,
  sniffBinary,
} from '../extract/index.js';
import type { ConvertInput, ConvertOutput, PageControls } from '../extract/types.js';
import { addressPolicyFor, stripBrackets, type AddressPolicy } from '../net/address-policy.js';
import { browserProfile } from '../net/browser-profile.js';
import { portOf, resolveGuarded, systemResolver } from '../net/connector.js';
import type { FetchedResponse, HttpClient, ResponseHead } from '../net/fetch-types.js';
import { parseTargetUrl as parseRequestUrl, precheckLiteralHost } from '../net/request-url.js';
import type { CacheStore } from '../core/cache-port.js';
import type { ServiceObserver } from './metrics.js';

export type ExtractFormat = 'markdown' | 'html';

export interface RobotsPolicy {
  /** Rejects with `timeout` at the caller's deadline, `cancelled` when it gives up. */
  check(
    url: string,
    ctx?: RequestDeadline,
  ): Promise<{ allowed: boolean; source: string; status?: number; error?: AppError }>;
}

export interface ExtractedPage {
  statusCode: number;
  finalUrl: string;
  output: ConvertOutput;
  /** Whether `output` comes from the page rendered in the headless browser. */
  rendered: boolean;
  /**
   * When the page was fetched (ISO 8601 UTC). Absent in entries cached before it was kept:
   * their age is unknown, so any `max_age` fetches them again.
   */
  cachedAt?: string;
  /** The rendered page as a base64 PNG (`screenshot`; never cached). */
  screenshot?: string;
}

export type PageOutcome =
  ({ ok: true; fromCache: boolean } & ExtractedPage) | { ok: false; statusCode: number; error: AppError };

export interface ExtractOptions {
  format: ExtractFormat;
  /** The browser profile on the static fetch, and a rendered retry of a blocked page. */
  stealth?: boolean;
  /** Links and selectors (HTML only): part of the cache key. */
  controls?: PageControls;
  /** Render, and wait for this CSS selector to match (needs the browser): part of the cache key. */
  waitForSelector?: string;
  /** Render, and take a PNG of the page (needs the browser): never served from or written to the cache. */
  screenshot?: boolean;
  /** Seconds: a cached copy older than this is fetched again; 0 always fetches. */
  maxAge?: number;
}

export interface PageExtractorDeps {
  config: Config;
  client: HttpClient;
  robots: RobotsPolicy;
  cache: CacheStore<ExtractedPage>;
  /** Runs the converters (a worker pool in servers): under what is left of the request's deadline. */
  converter: ConverterPort<ConvertInput, ConvertOutput>;
  logger: Logger;
  observer?: Pick<ServiceObserver, 'cacheLookup' | 'pageFetched' | 'passFailed'>;
  /** The headless browser, when one exists and WEBSEARCH_RENDER is not `never`. */
  renderer?: Renderer;
}

/** The result of parsing a submitted URL string (the fetcher's rules: net/request-url.ts), or the reason it cannot be fetched. */
export function parseTargetUrl(raw: string): URL | AppError {
  const text = raw.trim();
  if (text === '') return new AppError('invalid_url', 'The URL is empty.');
  try {
    return parseRequestUrl(text);
  } catch (err) {
    return toAppError(err);
  }
}

/** The key a page is cached and de-duplicated under: the parsed URL without its fragment. */
export function pageKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/**
 * The key a page's output is cached under: its format and URL, and a digest of the options
 * that change the output (links, selectors, the selector waited for, stealth: a site may
 * answer a browser's identity with another page), so that one never answers for another;
 * a request without them keeps the key it always had.
 */
export function pageCacheKey(format: ExtractFormat, url: URL, options: ExtractOptions): string {
  const { controls = {}, waitForSelector } = options;
  const shaping = {
    links: controls.includeLinks === true,
    include: controls.includeSelectors ?? [],
    exclude: controls.excludeSelectors ?? [],
    wait: waitForSelector ?? null,
    ...(options.stealth === true ? { stealth: true } : {}),
  };
  const plain =
    !shaping.links &&
    shaping.include.length === 0 &&
    shaping.exclude.length === 0 &&
    shaping.wait === null &&
    options.stealth !== true;
  if (plain) return `page:${format}:${pageKey(url)}`;
  const digest = createHash('sha256').update(JSON.stringify(shaping)).digest('hex').slice(0, 16);
  return `page:${format}:${digest}:${pageKey(url)}`;
}

/** A cached copy young enough for `maxAge` seconds (no limit when undefined; an unknown age is too old for any). */
function youngEnough(page: ExtractedPage, maxAge: number | undefined, now: number): boolean {
  if (maxAge === undefined) return true;
  if (page.cachedAt === undefined) return false;
  return now - Date.parse(page.cachedAt) < maxAge * 1000;
}

/** The options that need the headless browser, named for the error that says it is missing. */
function browserOptions(options: ExtractOptions): string[] {
  return [
    ...(options.waitForSelector !== undefined ? ['wait_for_selector'] : []),
    ...(options.screenshot === true ? ['screenshot'] : []),
  ];
}

/** Where the operator turns robots.txt checks off, named in every robots_disallowed message. */
const ROBOTS_HINT = "the operator's WEBSEARCH_ROBOTS setting governs robots.txt checks";

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export class PageExtractor {
  readonly #deps: PageExtractorDeps;

  constructor(deps: PageExtractorDeps) {
    this.#deps = deps;
  }

  /** One URL through every gate, under the request's deadline (the whole of it: URLs run side by side). */
  async extract(ctx: RequestContext, rawUrl: string, options: ExtractOptions): Promise<PageOutcome> {
    const outcome = await this.#extract(ctx, rawUrl, options);
    this.#deps.observer?.pageFetched(
      outcome.ok ? (outcome.fromCache ? 'cached' : 'success') : extractionErrorTypeOf(outcome.error.code),
    );
    return outcome;
  }

  async #extract(ctx: RequestContext, rawUrl: string, options: ExtractOptions): Promise<PageOutcome> {
    const parsed = parseTargetUrl(rawUrl);
    if (parsed instanceof AppError) return { ok: false, statusCode: 0, error: parsed };
    const cacheKey = pageCacheKey(options.format, parsed, options);
    // A screenshot is of the page now, and too big a value for the cache.
    const cacheable = this.#deps.config.cache.ttlMs > 0 && options.screenshot !== true;
    if (cacheable && options.maxAge !== 0) {
      const found = await this.#deps.cache.get(cacheKey).catch(() => undefined);
      const cached = found !== undefined && youngEnough(found, options.maxAge, Date.now()) ? found : undefined;
      this.#deps.observer?.cacheLookup('page', cached !== undefined);
      // Pages cached before rendering existed carry no flag: they were static.
      if (cached) return { ok: true, fromCache: true, ...cached, rendered: cached.rendered ?? false };
    }
    try {
      const page = await this.#fetchAndConvert(ctx, parsed, options);
      page.cachedAt = new Date().toISOString();
      if (cacheable) {
        await this.#deps.cache.set(cacheKey, page, this.#deps.config.cache.ttlMs).catch((err: unknown) => {
          ctx.log.warn({ err, url: parsed.href }, 'page cache write failed');
        });
      }
      return { ok: true, fromCache: false, ...page };
    } catch (err) {
      const error = toAppError(err);
      if (error.code === 'internal_error') ctx.log.error({ err, url: parsed.href }, 'extraction failed unexpectedly');
      return { ok: false, statusCode: error.statusCode ?? 0, error };
    }
  }

  async #fetchAndConvert(ctx: RequestContext, url: URL, options: ExtractOptions): Promise<ExtractedPage> {
    const extension = rejectedExtension(url);
    if (extension !== null) {
      throw new AppError(
        'unsupported_content_type',
        `The URL ends in ".${extension}", a binary document type that cannot be extracted (refused before any request).`,
        { statusCode: 0 },
      );
    }
    const needsBrowser = browserOptions(options);
    if (needsBrowser.length > 0 && (!this.#deps.renderer || this.#deps.config.render.mode === 'never'))
      throw renderUnavailable(needsBrowser, this.#deps.config.render.mode === 'never');
    // The request's one deadline covers the robots.txt check and the page.
    const budgetMs = Math.max(0, Math.round(timeLeft(ctx)));
    const verdict = await this.#deps.robots.check(url.href, ctx).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'timeout') {
        throw new AppError(
          'timeout',
          `No answer within ${budgetMs} ms: the site's robots.txt did not answer in that time.`,
          { statusCode: 0, retryable: true },
        );
      }
      throw err;
    });
    if (!verdict.allowed) {
      // A robots.txt that cannot be fetched because the host is forbidden, cannot be
      // resolved or refuses connections says more about the host than about robots:
      // the page itself would fail the same way, so report that failure itself.
      const cause = verdict.error?.code;
      if (verdict.error && (cause === 'forbidden_address' || cause === 'network' || cause === 'cancelled'))
        throw verdict.error;
      const why =
        verdict.source === 'unreachable'
          ? `its robots.txt could not be fetched (${unreachableReason(verdict)}), and RFC 9309 (2.3.1.4) says to treat that as disallowing everything; it is asked again shortly (${ROBOTS_HINT})`
          : `its robots.txt disallows this path for ${this.#deps.config.fetch.productToken} (${ROBOTS_HINT})`;
      throw new AppError('robots_disallowed', `Not fetched: ${why}.`, { statusCode: 0 });
    }
    const profile = options.stealth ? browserProfile(this.#deps.renderer?.browserMajor?.()) : undefined;
    let response: FetchedResponse;
    let output: ConvertOutput;
    try {
      response = await this.#deps.client.fetch(url.href, {
        ctx,
        ...(profile ? { profile } : {}),
        onHead: (head) => checkHead(head, this.#deps.config.fetch.maxBytes),
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
      output = await this.#convert(
        ctx,
        response.body,
        response.headers['content-type'] ?? null,
        response.finalUrl,
        options,
        response.headers,
        response.status,
      );
    } catch (err) {
      // Stealth: a page that turned the plain fetch away as a bot is retried in the browser,
      // which fetches it itself with the same profile.
      if (options.stealth && this.#deps.renderer && this.#deps.config.render.mode !== 'never' && isBotWall(err)) {
        ctx.log.debug(
          { url: url.href, code: (err as AppError).code },
          'blocked: retrying rendered with the stealth profile',
        );
        return this.#renderAndConvert(ctx, url.href, undefined, options);
      }
      throw err;
    }
    if (this.#shouldRender(response, output, options)) {
      const document = {
        finalUrl: response.finalUrl,
        status: response.status,
        headers: response.headers,
        body: response.body,
      };
      return this.#renderAndConvert(ctx, url.href, document, options);
    }
    if (!hasReadableText(output)) throw emptyContent(response.status, false, options);
    return { statusCode: response.status, finalUrl: response.finalUrl, output, rendered: false };
  }

  /**
   * The rendering decision, from the static response alone: format html, wait_for_selector
   * and screenshot render whenever a browser exists; Markdown renders always, or (auto)
   * when the page looks script-built.
   */
  #shouldRender(response: FetchedResponse, output: ConvertOutput, options: ExtractOptions): boolean {
    const mode = this.#deps.config.render.mode;
    if (!this.#deps.renderer || mode === 'never' || classifyContentType(output.content_type) !== 'html') return false;
    if (options.format === 'html' || mode === 'always' || browserOptions(options).length > 0) return true;
    if (!nearEmpty(output.markdown)) return false;
    const { text } = decodeText(response.body, response.headers['content-type'] ?? null, 'html');
    return looksScriptDependent(text, output.markdown);
  }

  async #renderAndConvert(
    ctx: RequestContext,
    url: string,
    document: StaticDocument | undefined,
    options: ExtractOptions,
  ): Promise<ExtractedPage> {
    const renderer = this.#deps.renderer as Renderer;
    const page = await renderer.render(
      {
        url,
        stealth: options.stealth === true,
        ...(document ? { document } : {}),
        ...(options.waitForSelector !== undefined ? { waitForSelector: options.waitForSelector } : {}),
        ...(options.screenshot === true ? { screenshot: true } : {}),
      },
      ctx,
    );
    await this.#checkRendered(url, document, page);
    const bytes = new TextEncoder().encode(page.html);
    const output = await this.#convert(ctx, bytes, 'text/html; charset=utf-8', page.finalUrl, options, {}, page.status);
    if (!hasReadableText(output)) throw emptyContent(page.status, true, options);
    return {
      statusCode: page.status,
      finalUrl: page.finalUrl,
      output,
      rendered: true,
      ...(page.screenshot !== undefined ? { screenshot: Buffer.from(page.screenshot).toString('base64') } : {}),
    };
  }

  /**
   * A rendered page passes the gates of a fetch: a script or a meta refresh may have moved the
   * main frame after the static fetch (or the browser fetched the page itself: the stealth
   * retry). Its final URL passes the address policy (a guard-proxy refusal would otherwise
   * read as the guard's 403 text), a navigation that failed is a network error, and the final
   * status passes the status gate. None of these is charged (a failed URL never is).
   */
  async #checkRendered(url: string, document: StaticDocument | undefined, page: RenderedPage): Promise<void> {
    const policy = addressPolicyFor(this.#deps.config.fetch.allowPrivateAddresses);
    await checkMovedAddress(page.finalUrl, document?.finalUrl ?? url, policy);
    if (page.navigationError !== undefined) {
      throw new AppError(
        'network',
        `The page moved to ${page.finalUrl}, which the browser could not load (${page.navigationError}).`,
        { statusCode: 0, retryable: !/ERR_TUNNEL_CONNECTION_FAILED|ERR_BLOCKED_BY_CLIENT/.test(page.navigationError) },
      );
    }
    checkHead(
      { url, finalUrl: page.finalUrl, status: page.status, statusText: '', headers: {}, redirects: [] },
      Number.MAX_SAFE_INTEGER,
    );
  }

  /** Converts in the converter (a worker pool in servers) under what is left of the request's deadline. */
  async #convert(
    ctx: RequestDeadline,
    bytes: Uint8Array,
    contentType: string | null,
    url: string,
    options: ExtractOptions,
    headers: Record<string, string>,
    status: number,
  ): Promise<ConvertOutput> {
    const controls = options.controls;
    const input: ConvertInput = { bytes, contentType, url, format: options.format, headers };
    if (controls !== undefined && Object.keys(controls).length > 0) input.controls = controls;
    const output = await this.#deps.converter.convert(input, ctx).catch((err: unknown) => {
      const error = toAppError(err);
      // Conversion errors concern the page we got, so they carry its status code.
      throw error.statusCode === undefined
        ? new AppError(error.code, error.message, {
            statusCode: status,
            retryable: error.retryable,
            cause: error.cause,
          })
        : error;
    });
    return this.#countFailures(output, url);
  }

  /** The passes that failed on the page counted (the metrics) and logged, then dropped: no answer or cache entry carries them. */
  #countFailures(output: ConvertOutput, url: string): ConvertOutput {
    const { pass_failures: failures, ...rest } = output;
    if (failures === undefined) return output;
    for (const failure of failures) this.#deps.observer?.passFailed(failure.pass);
    this.#deps.logger.debug({ url, failures }, 'extraction passes failed');
    return rest;
  }
}

/** A bot wall: what a search reports as `blocked` (a challenge page, or 401/403/429/451). */
function isBotWall(err: unknown): boolean {
  return err instanceof AppError && contentErrorOf(err.code, err.statusCode) === 'blocked';
}

function emptyContent(status: number, rendered: boolean, options: ExtractOptions): AppError {
  const named = (selectors: readonly string[]) => selectors.map((s) => JSON.stringify(s)).join(', ');
  const { includeSelectors: include = [], excludeSelectors: exclude = [] } = options.controls ?? {};
  const seen = rendered ? ' (rendered)' : '';
  const why =
    include.length > 0
      ? `No element matching include_selectors ${named(include)} holds readable text on the page${seen}`
      : exclude.length > 0
        ? `The page has no readable text once the elements matching exclude_selectors ${named(exclude)} are removed${seen}`
        : `The page has no readable text (${rendered ? 'even after its scripts ran in the headless browser' : 'empty, or written by scripts this server did not run'})`;
  return new AppError('empty_content', `${why}; nothing was charged.`, { statusCode: status });
}

/** wait_for_selector or screenshot without a browser: what to change for them to work. */
function renderUnavailable(options: string[], renderingOff: boolean): AppError {
  const how = renderingOff
    ? 'rendering is off on this server (WEBSEARCH_RENDER=never; set it to auto)'
    : 'this server has no headless browser (install Chromium, or point CHROMIUM_PATH at one, and restart)';
  const verb = options.length > 1 ? 'need' : 'needs';
  return new AppError('render_unavailable', `${options.join(' and ')} ${verb} the headless browser, but ${how}.`, {
    statusCode: 0,
  });
}

/**
 * The address policy on the URL a rendered page ended on, when its origin is not the one the
 * fetcher checked: a literal or loopback-named host, then every address its name resolves to.
 */
async function checkMovedAddress(
  finalUrl: string,
  checkedUrl: string,
  policy: AddressPolicy | undefined,
): Promise<void> {
  let final: URL;
  try {
    final = new URL(finalUrl);
  } catch {
    return;
  }
  if (!policy || !/^https?:$/.test(final.protocol) || final.origin === new URL(checkedUrl).origin) return;
  const moved = (error: AppError): AppError =>
    new AppError('forbidden_address', `The page moved to ${final.href}: ${error.message}`, { statusCode: 0 });
  try {
    precheckLiteralHost(final, policy);
    const host = stripBrackets(final.hostname);
    if (isIP(host) === 0) await resolveGuarded(systemResolver, policy, host, portOf(final.port, final.protocol));
  } catch (error) {
    if (error instanceof AppError && error.code === 'forbidden_address') throw moved(error);
    // A name that no longer resolves: the browser reached it through the guard, which
    // resolved it under the same policy; the status gate decides.
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
  if (
    contentType !== undefined &&
    parseContentType(contentType) !== null &&
    classifyContentType(contentType) === null
  ) {
    throw new AppError(
      'unsupported_content_type',
      `Content type "${contentType.split(';')[0]?.trim()}" is not supported: only HTML, XHTML, plain text, Markdown, CSV, JSON and XML (RSS, Atom, sitemaps) can be extracted.`,
      { statusCode: head.status },
    );
  }
  const declared = Number(head.headers['content-length']);
  const encoded = head.headers['content-encoding'] !== undefined && head.headers['content-encoding'] !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('too_large', `The page declares ${declared} bytes, over the ${maxBytes}-byte limit.`, {
      statusCode: head.status,
    });
  }
}

/** Why robots.txt could not be fetched, in a few words: a status, a timeout or a network failure. */
function unreachableReason(verdict: { status?: number; error?: AppError }): string {
  if (verdict.status !== undefined) return `HTTP ${verdict.status}`;
  if (verdict.error?.code === 'timeout') return 'it did not answer in time';
  return verdict.error ? `${verdict.error.code}: ${verdict.error.message}` : 'no answer';
}
