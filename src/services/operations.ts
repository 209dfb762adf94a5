/**
 * The two operations as every face calls them — the HTTP API, the MCP tools, the command
 * line and the library — and the one place a request is validated: the input against the
 * schema (400 / `invalid_request` with paths), then the request's context with its
 * deadline, fixed here once (core/request-context.ts), then metering for the caller (rate
 * limit, credit hold, debit of exactly `credits_used`, filed under the context's id) around
 * the extract and search services. Both amounts come from core/pricing.ts: the hold from the
 * request, the debit from the services' priced answer.
 */
import type { Config } from '../core/config.js';
import type { Operation } from '../core/ports/ledger-store.js';
import { mapCredits, maxExtractCredits, maxSearchCredits } from '../core/pricing.js';
import { withRequestContext, type IncomingRequest, type RequestContext } from '../core/request-context.js';
import type { ExtractRequest, ExtractResponse, SearchRequest, SearchResponse } from '../core/schemas.js';
import { extractRequestSchema, searchRequestSchema } from '../core/schemas.js';
import { validate } from '../core/validate.js';
import type { MapResponse, SiteCrawlStatus } from '../core/site-schemas.js';
import {
  mapRequestSchema,
  siteCrawlRequestSchema,
  siteCrawlStatusQuerySchema,
  STATUS_DEFAULT_PAGES,
} from '../core/site-schemas.js';
import type { MapService } from './site/map-service.js';
import type { SiteCrawlService } from './site/site-crawl-service.js';
import type { UsageResponse } from '../core/usage-schema.js';
import { usageQuerySchema, usageRecordJson } from '../core/usage-schema.js';
import type { ExtractCallOptions, ExtractService } from './pages/extract-service.js';
import type { Metering, MeteringRunOptions } from './accounts/metering.js';
import { decodeUsageCursor, encodeUsageCursor } from './accounts/usage-cursor.js';
import type { SearchOptions, SearchService } from './search/search-service.js';

export interface OperationsDeps {
  config: Config;
  metering: Metering;
  extract: Pick<ExtractService, 'extract'>;
  search: Pick<SearchService, 'search'>;
  map: Pick<MapService, 'map'>;
  siteCrawls: Pick<SiteCrawlService, 'start' | 'status' | 'cancel' | 'wait'>;
}

/** What a face may ask of a site crawl's wait beyond the request (the MCP tool's progress notifications). */
export interface SiteCrawlWaitOptions {
  /** Called as results arrive while the call waits. */
  onProgress?: (status: Pick<SiteCrawlStatus, 'progress' | 'status'>) => void;
  /** Results per answer (the MCP tool fits them to its output budget). */
  pages?: number;
}

/** What a face may ask of a metered call beyond the operation's own options. */
export type MeteredCallOptions = Pick<MeteringRunOptions, 'onCharged'>;

export class Operations {
  readonly #deps: OperationsDeps;
  readonly #extractSchema: ReturnType<typeof extractRequestSchema>;
  readonly #siteCrawlSchema: ReturnType<typeof siteCrawlRequestSchema>;

  constructor(deps: OperationsDeps) {
    this.#deps = deps;
    this.#extractSchema = extractRequestSchema({
      maxUrls: deps.config.crawl.maxUrls,
      maxTimeoutMs: deps.config.fetch.maxTimeoutMs,
    });
    this.#siteCrawlSchema = siteCrawlRequestSchema({
      maxTimeoutMs: deps.config.fetch.maxTimeoutMs,
      maxJobTimeoutMs: deps.config.site.maxJobTimeoutMs,
    });
  }

  /** `POST /api/map`, `map_site`, `websearch-mcp map`, the library's `map`: a site's URLs in one call, metered as one credit. */
  map(incoming: IncomingRequest, input: unknown, options: MeteredCallOptions = {}): Promise<MapResponse> {
    const request = validate(mapRequestSchema, input);
    return this.#run(
      incoming,
      'map',
      this.#deps.config.site.mapTimeoutMs,
      mapCredits(),
      (ctx) => this.#deps.map.map(ctx, request),
      {
        subject: { urls: [request.url], ...(request.search !== undefined ? { query: request.search } : {}) },
        ...options,
      },
    );
  }

  /**
   * `POST /api/site-crawls`, `crawl_site`, `websearch-mcp crawl-site`, the library's
   * `crawlSite`: starts a durable crawl job for the caller and, with `wait_ms`, waits for
   * it; answers its status with the first results. Pages are charged as they are delivered
   * (services/accounts/page-holds.ts), under the job's id (= this request's id).
   */
  async startSiteCrawl(
    incoming: IncomingRequest,
    input: unknown,
    options: SiteCrawlWaitOptions = {},
  ): Promise<SiteCrawlStatus> {
    const request = validate(this.#siteCrawlSchema, input);
    const job = await this.#deps.siteCrawls.start(incoming, request);
    if (request.wait_ms > 0) await this.#wait(incoming, job.id, request.wait_ms, options);
    return this.#deps.siteCrawls.status(incoming, job.id, { limit: options.pages ?? STATUS_DEFAULT_PAGES });
  }

  /** `GET /api/site-crawls/{id}`, `crawl_status`: the caller's job, its progress and the results after `cursor`; `wait_ms` waits for more first. */
  async siteCrawlStatus(
    incoming: IncomingRequest,
    id: string,
    input: unknown,
    options: SiteCrawlWaitOptions = {},
  ): Promise<SiteCrawlStatus> {
    const { wait_ms: waitMs, ...query } = validate(siteCrawlStatusQuerySchema, input);
    if (waitMs !== undefined && waitMs > 0) {
      const first = await this.#deps.siteCrawls.status(incoming, id, { ...query, limit: 1 });
      if (first.status === 'running' && first.pages.length === 0)
        await this.#wait(incoming, id, waitMs, options, query.cursor ?? '0');
    }
    return this.#deps.siteCrawls.status(incoming, id, query);
  }

  /** `DELETE /api/site-crawls/{id}`: cancels the caller's job; answers its status. */
  async cancelSiteCrawl(incoming: IncomingRequest, id: string): Promise<SiteCrawlStatus> {
    await this.#deps.siteCrawls.cancel(incoming, id);
    return this.#deps.siteCrawls.status(incoming, id, { limit: 0 });
  }

  /** Waits for the job to end (or, with `after`, for a result past that cursor), reporting progress as it goes. */
  async #wait(
    incoming: IncomingRequest,
    id: string,
    ms: number,
    options: SiteCrawlWaitOptions,
    after?: string,
  ): Promise<void> {
    const report = options.onProgress;
    await this.#deps.siteCrawls.wait(
      id,
      ms,
      after === undefined ? undefined : Number(after),
      incoming.cancel,
      report
        ? () =>
            void this.#deps.siteCrawls
              .status(incoming, id, { limit: 1 })
              .then((s) => report({ status: s.status, progress: s.progress }))
              .catch(() => undefined)
        : undefined,
    );
  }

  /** `POST /api/crawl`, `extract_urls`, `websearch-mcp extract`, the library's `extract`: `input` as the client sent it. */
  extract(
    incoming: IncomingRequest,
    input: unknown,
    options: ExtractCallOptions & MeteredCallOptions = {},
  ): Promise<ExtractResponse> {
    const request = validate(this.#extractSchema, input);
    const { onCharged, ...extractOptions } = options;
    return this.#run(
      incoming,
      'crawl',
      this.#extractTimeoutMs(request),
      maxExtractCredits(request),
      (ctx) => this.#deps.extract.extract(ctx, request, extractOptions),
      { subject: { urls: request.urls }, ...(onCharged ? { onCharged } : {}) },
    );
  }

  /** `GET|POST /api/search`, `web_search`, `websearch-mcp search`, the library's `search`: `input` as the client sent it. */
  search(
    incoming: IncomingRequest,
    input: unknown,
    options: SearchOptions & MeteredCallOptions = {},
  ): Promise<SearchResponse> {
    const request = validate(searchRequestSchema, input);
    const { onCharged, ...searchOptions } = options;
    return this.#run(
      incoming,
      'search',
      this.#searchTimeoutMs(request),
      maxSearchCredits(request),
      (ctx) => this.#deps.search.search(ctx, request, searchOptions),
      { subject: { query: request.q }, ...(onCharged ? { onCharged } : {}) },
    );
  }

  /**
   * `GET /api/usage`: the calling key's balance, held credits and usage records, a page
   * at a time (`input`: the query string's values). Open mode has no key and no records:
   * `metered: false` (docs/decisions.md, "A key holder's own usage").
   */
  async usage(incoming: IncomingRequest, input: unknown): Promise<UsageResponse> {
    const query = validate(usageQuerySchema, input);
    const key = incoming.caller.key;
    if (key === undefined) return { metered: false, balance: null, held_credits: 0, records: [] };
    const account = await this.#deps.metering.account(key, {
      limit: query.limit,
      ...(query.cursor !== undefined ? { before: decodeUsageCursor(key, query.cursor) } : {}),
    });
    return {
      metered: true,
      key: { id: key.id, name: key.name, prefix: key.prefix },
      balance: account.balance,
      held_credits: account.held,
      records: account.records.map(usageRecordJson),
      ...(account.next !== undefined ? { next_cursor: encodeUsageCursor(key, account.next) } : {}),
    };
  }

  /** The validated request under its context, metered; one debug line when it is done (every face's, stamped with its id). */
  #run<T extends { metadata: { credits_used: number } }>(
    incoming: IncomingRequest,
    operation: Operation,
    timeoutMs: number,
    maxCredits: number,
    work: (ctx: RequestContext) => Promise<T>,
    metered: MeteringRunOptions,
  ): Promise<T> {
    return withRequestContext(incoming, timeoutMs, async (ctx) => {
      const result = await this.#deps.metering.run(
        ctx,
        operation,
        maxCredits,
        () => work(ctx),
        (r) => r.metadata.credits_used,
        metered,
      );
      ctx.log.debug({ operation, credits_used: result.metadata.credits_used }, 'operation done');
      return result;
    });
  }

  /**
   * An extraction's deadline: its `timeout_ms` (each URL runs side by side, so the URLs'
   * deadline is the request's), or the configured default, never past the configured
   * maximum (the schema refuses more; this is the one clamp, for callers of the services).
   */
  #extractTimeoutMs(request: Pick<ExtractRequest, 'timeout_ms'>): number {
    const { timeoutMs, maxTimeoutMs } = this.#deps.config.fetch;
    return Math.min(request.timeout_ms ?? timeoutMs, maxTimeoutMs);
  }

  /** A search's deadline: the engines' budget, then the page contents' (include_content). */
  #searchTimeoutMs(request: Pick<SearchRequest, 'include_content'>): number {
    const { engineTimeoutMs, contentTimeoutMs } = this.#deps.config.search;
    return engineTimeoutMs + (request.include_content ? contentTimeoutMs : 0);
  }
}
