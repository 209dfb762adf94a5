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
import { maxExtractCredits, maxSearchCredits } from '../core/pricing.js';
import { withRequestContext, type IncomingRequest, type RequestContext } from '../core/request-context.js';
import type { ExtractRequest, ExtractResponse, SearchRequest, SearchResponse } from '../core/schemas.js';
import { extractRequestSchema, searchRequestSchema } from '../core/schemas.js';
import { validate } from '../core/validate.js';
import type { UsageResponse } from '../core/usage-schema.js';
import { usageQuerySchema, usageRecordJson } from '../core/usage-schema.js';
import type { ExtractCallOptions, ExtractService } from './pages/extract-service.js';
import type { Metering, MeteringRunOptions } from './accounts/metering.js';
import type { SearchOptions, SearchService } from './search/search-service.js';

export interface OperationsDeps {
  config: Config;
  metering: Metering;
  extract: Pick<ExtractService, 'extract'>;
  search: Pick<SearchService, 'search'>;
}

/** What a face may ask of a metered call beyond the operation's own options. */
export type MeteredCallOptions = Pick<MeteringRunOptions, 'onCharged'>;

export class Operations {
  readonly #deps: OperationsDeps;
  readonly #extractSchema: ReturnType<typeof extractRequestSchema>;

  constructor(deps: OperationsDeps) {
    this.#deps = deps;
    this.#extractSchema = extractRequestSchema({
      maxUrls: deps.config.crawl.maxUrls,
      maxTimeoutMs: deps.config.fetch.maxTimeoutMs,
    });
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
      ...(query.cursor !== undefined ? { before: Number(query.cursor) } : {}),
    });
    return {
      metered: true,
      key: { id: key.id, name: key.name, prefix: key.prefix },
      balance: account.balance,
      held_credits: account.held,
      records: account.records.map(usageRecordJson),
      ...(account.next !== undefined ? { next_cursor: String(account.next) } : {}),
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
