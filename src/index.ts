/**
 * The library face: the same core as the MCP tools and the HTTP API, for agent frameworks
 * and scripts, through the same Operations (one validation, one deadline, the local
 * caller). Requests and responses are the API's JSON (typed from the zod schemas that
 * validate them); errors are `AppError`s with a stable `code`.
 *
 *   import { createWebSearch } from 'websearch-mcp';
 *   const web = createWebSearch();
 *   const found = await web.search({ q: 'model context protocol' });
 *   const pages = await web.extract({ urls: [found.results[0].url] });
 *   const site = await web.map({ url: 'https://example.com', search: 'pricing' });
 *   const crawl = await web.crawlSite({ url: 'https://example.com/docs/', limit: 20 });
 *   for await (const page of crawl.pages) console.log(page.url, page.depth);
 *   await web.close();
 */
import type { z } from 'zod';
import type { Core } from './compose.js';
import { LOCAL_CALLER } from './core/caller.js';
import type { Config, DeepPartial } from './core/config.js';
import { ConfigError, loadConfig } from './core/config.js';
import { AppError } from './core/errors.js';
import type { Logger } from './core/logger.js';
import { silentLogger } from './core/logger.js';
import { incomingRequest } from './core/request-context.js';
import type { extractRequestSchema, searchRequestSchema } from './core/schemas.js';
import type { ExtractResponse, SearchResponse } from './core/schemas.js';
import type { mapRequestSchema, siteCrawlRequestSchema } from './core/site-schemas.js';
import type { MapResponse, SiteCrawlPage, SiteCrawlStatus } from './core/site-schemas.js';
import { STATUS_MAX_PAGES } from './core/site-schemas.js';
import { engineSettingsProblems } from './services/search/engine-settings.js';

export { htmlToMarkdown } from './extract/html/html-to-markdown.js';
export type { HtmlExtraction } from './extract/html/html-to-markdown.js';
export { AppError, isAppError, REQUEST_ERROR_CODES, URL_ERROR_CODES } from './core/errors.js';
export type {
  ErrorCode,
  ExtractionErrorType,
  ContentErrorValue,
  RequestErrorCode,
  UrlErrorCode,
} from './core/errors.js';
export { ConfigError, VERSION } from './core/config.js';
export type { Config, DeepPartial } from './core/config.js';
export type { Logger } from './core/logger.js';
// Published names, kept: they name the /api/crawl payloads, as CrawlResponse does.
export {
  extractRequestSchema as crawlRequestSchema,
  extractResponseSchema as crawlResponseSchema,
  searchRequestSchema,
  searchResponseSchema,
} from './core/schemas.js';
export type {
  ExtractResponse as CrawlResponse,
  ExtractResult as CrawlResult,
  SearchResponse,
  SearchResult,
} from './core/schemas.js';
export type { PageType } from './core/page-types.js';
export { mapRequestSchema, mapResponseSchema, siteCrawlStatusSchema } from './core/site-schemas.js';
export type { MapLink, MapResponse, SiteCrawlPage, SiteCrawlStatus } from './core/site-schemas.js';

/** What `search` takes: the body of `POST /api/search` (defaults may be left out). */
export type SearchRequest = z.input<typeof searchRequestSchema>;
/** What `extract` takes: the body of `POST /api/crawl` (defaults may be left out). */
export type ExtractRequest = z.input<ReturnType<typeof extractRequestSchema>>;
/** What `map` takes: the body of `POST /api/map` (defaults may be left out). */
export type MapRequest = z.input<typeof mapRequestSchema>;
/** What `crawlSite` takes: the body of `POST /api/site-crawls` (defaults may be left out). */
export type SiteCrawlRequest = z.input<ReturnType<typeof siteCrawlRequestSchema>>;

/** A site crawl under way: a job in the store, read on by cursor as `GET /api/site-crawls/{id}` reads it. */
export interface SiteCrawl {
  /** The job's id (`GET /api/site-crawls/{id}` on a server sharing the store reads it too). */
  readonly id: string;
  /** The job now, as `GET /api/site-crawls/{id}` without a cursor answers it (its first pages). */
  status(): Promise<SiteCrawlStatus>;
  /** Cancels the job (stop_reason "cancelled"); the pages delivered so far stay readable. */
  cancel(): Promise<void>;
  /** Every page of the crawl once, in the order they completed, waiting for new ones until the job is done; each loop reads from the first. */
  readonly pages: AsyncIterable<SiteCrawlPage>;
  /** The job's final status (its progress and stop_reason; its pages are read through `pages`). */
  readonly done: Promise<SiteCrawlStatus>;
}

/** How long each read of a running crawl waits for its next pages (an abort ends the wait at once). */
const READ_WAIT_MS = 10_000;

export interface CallOptions {
  /** Aborts the call: page fetches and engine calls stop. */
  signal?: AbortSignal;
}

export interface WebSearchOptions {
  /** Settings, as in the configuration table (`{ fetch: { timeoutMs: 5000 } }`); they win over the environment. */
  config?: DeepPartial<Config>;
  /** Where settings are read from (default: the environment variables); `{}` for none. */
  env?: Record<string, string | undefined>;
  /** A pino-compatible logger (default: silent). */
  logger?: Logger;
}

export interface WebSearch {
  /** The validated configuration in force. */
  readonly config: Config;
  /** Web search; the answer is the `/api/search` JSON. Throws `AppError` (`invalid_request`, `engines_unavailable`). */
  search(request: SearchRequest, options?: CallOptions): Promise<SearchResponse>;
  /** Extraction of 1 to 10 URLs; each URL succeeds or fails on its own, as in `/api/crawl`. */
  extract(request: ExtractRequest, options?: CallOptions): Promise<ExtractResponse>;
  /** A site's URLs from its sitemaps, feeds and links, as `/api/map` answers them. */
  map(request: MapRequest, options?: CallOptions): Promise<MapResponse>;
  /**
   * Starts a site crawl (a job, as `POST /api/site-crawls` starts one) and answers its
   * handle once it runs; `options.signal` cancels the job. `wait_ms` in the request waits
   * that long before answering, as the API does.
   */
  crawlSite(request: SiteCrawlRequest, options?: CallOptions): Promise<SiteCrawl>;
  /** Closes connections and the store. */
  close(): Promise<void>;
}

/** A call's options as plain JavaScript may pass them: anything but `{ signal? }` is invalid_request, not a TypeError. */
function callSignal(options: unknown): AbortSignal | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null)
    throw new AppError('invalid_request', 'The call options must be an object, e.g. { signal }.', {
      details: [{ path: '(options)', message: 'not an object' }],
    });
  const { signal } = options as { signal?: unknown };
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  throw new AppError('invalid_request', 'options.signal must be an AbortSignal (e.g. AbortSignal.timeout(5000)).', {
    details: [{ path: 'signal', message: 'not an AbortSignal' }],
  });
}

/**
 * Creates a client over the in-process core. Settings, the engines' too, are checked at once
 * (a `ConfigError` lists every problem); the core (fetcher, parsers, store) is built on the
 * first call.
 */
export function createWebSearch(options: WebSearchOptions = {}): WebSearch {
  const config = loadConfig({
    ...(options.env ? { env: options.env } : {}),
    ...(options.config ? { overrides: options.config } : {}),
  });
  const engineProblems = engineSettingsProblems(config);
  if (engineProblems.length > 0) throw new ConfigError(engineProblems);
  const logger = options.logger ?? silentLogger;
  let core: Promise<Core> | undefined;
  let closed = false;
  const built = (): Promise<Core> => {
    if (closed)
      throw new AppError('invalid_request', 'This WebSearch was closed: create another with createWebSearch().');
    return (core ??= import('./compose.js').then((m) => m.buildCore(config, logger)));
  };
  return {
    config,
    async search(request, callOptions) {
      const cancel = callSignal(callOptions);
      return (await built()).operations.search(incomingRequest({ caller: LOCAL_CALLER, logger, cancel }), request);
    },
    async extract(request, callOptions) {
      const cancel = callSignal(callOptions);
      return (await built()).operations.extract(incomingRequest({ caller: LOCAL_CALLER, logger, cancel }), request);
    },
    async map(request, callOptions) {
      const cancel = callSignal(callOptions);
      return (await built()).operations.map(incomingRequest({ caller: LOCAL_CALLER, logger, cancel }), request);
    },
    async crawlSite(request, callOptions) {
      const cancel = callSignal(callOptions);
      const { operations } = await built();
      const call = () => incomingRequest({ caller: LOCAL_CALLER, logger, cancel });
      const first = await operations.startSiteCrawl(call(), request, { pages: STATUS_MAX_PAGES });
      const { id } = first;
      // Reads by cursor from the first answer on, waiting for new pages while the job runs.
      async function* readPages(): AsyncGenerator<SiteCrawlPage> {
        let status = first;
        let cursor = first.next_cursor;
        for (;;) {
          yield* status.pages;
          if (status.status === 'done' && status.next_cursor === undefined) return;
          // From "0" before the first page: a read without a cursor waits for the crawl's end, not its first page.
          status = await operations.siteCrawlStatus(call(), id, {
            cursor: cursor ?? '0',
            limit: STATUS_MAX_PAGES,
            wait_ms: READ_WAIT_MS,
          });
          if (status.next_cursor !== undefined) cursor = status.next_cursor;
        }
      }
      // Waits for the job's end past its last result, a result at a time.
      const finish = async (): Promise<SiteCrawlStatus> => {
        let status = first;
        do {
          status = await operations.siteCrawlStatus(incomingRequest({ caller: LOCAL_CALLER, logger }), id, {
            cursor: String(status.progress.pages),
            limit: 1,
            wait_ms: READ_WAIT_MS,
          });
        } while (status.status === 'running');
        return status;
      };
      let done: Promise<SiteCrawlStatus> | undefined;
      const cancelJob = async () => {
        await operations.cancelSiteCrawl(incomingRequest({ caller: LOCAL_CALLER, logger }), id);
      };
      cancel?.addEventListener('abort', () => void cancelJob().catch(() => undefined), { once: true });
      if (cancel?.aborted) await cancelJob();
      return {
        id,
        status: () => operations.siteCrawlStatus(incomingRequest({ caller: LOCAL_CALLER, logger }), id, {}),
        cancel: cancelJob,
        pages: { [Symbol.asyncIterator]: readPages },
        // Started when first asked for: a handle nobody awaits polls nothing.
        get done() {
          return (done ??= finish());
        },
      };
    },
    async close() {
      closed = true;
      // A core that failed to build (a bad setting its first call rejected with) has nothing to close.
      if (core) await (await core.catch(() => undefined))?.close();
    },
  };
}
