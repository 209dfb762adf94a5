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

/** What `search` takes: the body of `POST /api/search` (defaults may be left out). */
export type SearchRequest = z.input<typeof searchRequestSchema>;
/** What `extract` takes: the body of `POST /api/crawl` (defaults may be left out). */
export type ExtractRequest = z.input<ReturnType<typeof extractRequestSchema>>;

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
    async close() {
      closed = true;
      if (core) await (await core).close();
    },
  };
}
