/**
 * The search operation (docs/interface.md 2.1-2.3, 4.1, 7.2, 8.2): runs the selected
 * engines in parallel, fuses their lists, optionally attaches page content, and prices
 * the answer. One broken engine makes the answer `partial`, never a failure; only when
 * every selected engine failed does the request fail (engines_unavailable, not charged).
 */
import { createHash } from 'node:crypto';
import type { CacheStore } from '../../core/ports/cache-port.js';
import type { SearchObserver } from './search-observer.js';
import type { Config } from '../../core/config.js';
import { isTimeout } from '../../core/deadline-scope.js';
import { AppError } from '../../core/errors.js';
import { newSearchId } from '../../core/ids.js';
import { searchCredits } from '../../core/pricing.js';
import type { RequestContext } from '../../core/request-context.js';
import type { SearchRequest, SearchResponse, SearchResult } from '../../core/schemas.js';
import { DEFAULT_PASSAGE_CHARS, DEFAULT_PASSAGES } from '../../core/schemas.js';
import type { SuspensionStore } from '../../core/ports/suspension-store.js';
import { fuseResults, type EngineResultList } from '../../engines/fusion.js';
import { ENGINE_IDS, type EngineId, type SearchParams } from '../../engines/types.js';
import type { HttpClient } from '../../net/fetch-types.js';
import { EngineCaller, type EngineFailure } from './engine-caller.js';
import { EngineHealth } from './engine-health.js';
import {
  missingEngineSettings,
  notConfiguredMessage,
  resolveEngineSettings,
  type EngineSettings,
} from './engine-settings.js';
import { EngineThrottle } from './engine-throttle.js';
import { pageControls } from '../pages/extract-service.js';
import type { PageExtractor } from '../pages/page-extractor.js';
import { fetchContent, type SearchProgress } from './search-content.js';

export type { SearchProgress } from './search-content.js';

export interface SearchServiceDeps {
  config: Config;
  client: HttpClient;
  pages: Pick<PageExtractor, 'extract'>;
  cache: CacheStore<SearchResponse>;
  observer?: SearchObserver;
  /** Where engine suspensions are shared between instances (the store). */
  suspensions?: SuspensionStore;
  /** Wall clock (epoch ms) for suspensions and timestamps; tests inject a fake one. */
  now?: () => number;
}

export interface SearchOptions {
  /** Called as each result page finishes (include_content only). */
  onProgress?: (progress: SearchProgress) => void;
}

/** Results asked of each engine beyond max_results when domain filters will drop some. */
const FILTER_HEADROOM = 10;
/** Most results any engine returns in one page (Brave, Google: 20 / 10). */
const ENGINE_PAGE_MAX = 20;

/**
 * Cache key of a search: sha256 of a canonical JSON of every parameter that changes the
 * answer. The query is compared NFC-normalised, white space collapsed, case-folded (the
 * engines are case-insensitive); list parameters are sorted; content_results, the passages
 * and the page controls (include_comments, include_structured_data: as in a page's own
 * cache key, pageCacheKey) count only when content is requested.
 */
export function searchCacheKey(request: SearchRequest, engines: readonly EngineId[]): string {
  const sorted = (list: string[] | undefined) => [...new Set((list ?? []).map((d) => d.toLowerCase()))].sort();
  const canonical = JSON.stringify([
    'search/v1',
    request.q.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase(),
    [...engines].sort(),
    request.max_results,
    request.country?.toLowerCase() ?? null,
    request.language?.toLowerCase() ?? null,
    request.safesearch,
    request.time_range ?? null,
    sorted(request.include_domains),
    sorted(request.exclude_domains),
    request.include_content,
    request.include_content ? request.content_results : null,
    // Appended only when asked, so the keys of every other search stay as they were.
    ...(request.include_content && request.content_mode === 'passages'
      ? [['passages', request.max_passages ?? DEFAULT_PASSAGES, request.max_passage_chars ?? DEFAULT_PASSAGE_CHARS]]
      : []),
    ...(request.include_content && request.include_comments === true ? ['comments'] : []),
    ...(request.include_content && request.include_structured_data === true ? ['structured_data'] : []),
  ]);
  return `search:${createHash('sha256').update(canonical).digest('hex')}`;
}

export class SearchService {
  readonly settings: EngineSettings;
  readonly #deps: SearchServiceDeps;
  readonly #now: () => number;
  readonly #caller: EngineCaller;

  constructor(deps: SearchServiceDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    const { config } = deps;
    this.settings = resolveEngineSettings(config);
    this.#caller = new EngineCaller({
      client: deps.client,
      settings: this.settings,
      health: new EngineHealth({
        suspendBlockedMs: config.search.suspendBlockedMs,
        suspendRateLimitedMs: config.search.suspendRateLimitedMs,
        now: this.#now,
        ...(deps.suspensions ? { store: deps.suspensions } : {}),
      }),
      throttle: new EngineThrottle({
        duckduckgoIntervalMs: config.search.duckduckgoIntervalMs,
        braveRatePerSecond: config.search.braveRatePerSecond,
      }),
      timeoutMs: config.search.engineTimeoutMs,
      ...(deps.observer ? { observer: deps.observer } : {}),
    });
  }

  async search(ctx: RequestContext, request: SearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = performance.now();
    const { signal } = ctx;
    const engines = this.#selectEngines(request.engines);
    const ttl = this.#deps.config.search.cacheTtlMs;
    const key = ttl > 0 ? searchCacheKey(request, engines) : undefined;

    if (key !== undefined) {
      const hit = await this.#deps.cache.get(key).catch((err: unknown) => {
        ctx.log.warn({ err }, 'search cache read failed');
        return undefined;
      });
      this.#deps.observer?.cacheLookup('search', hit !== undefined);
      if (hit) return this.#fromCache(hit, request, started);
    }

    const params: SearchParams = {
      query: request.q,
      maxResults:
        request.include_domains?.length || request.exclude_domains?.length
          ? Math.min(ENGINE_PAGE_MAX, request.max_results + FILTER_HEADROOM)
          : request.max_results,
      safesearch: request.safesearch,
      ...(request.country ? { country: request.country } : {}),
      ...(request.language ? { language: request.language } : {}),
      ...(request.time_range ? { timeRange: request.time_range } : {}),
      ...(request.include_domains?.length ? { includeDomains: request.include_domains } : {}),
      ...(request.exclude_domains?.length ? { excludeDomains: request.exclude_domains } : {}),
    };
    const outcomes = await Promise.all(engines.map((id) => this.#caller.call(ctx, id, params)));
    throwIfCancelled(signal);

    const lists: EngineResultList[] = [];
    const failures: EngineFailure[] = [];
    for (const outcome of outcomes) {
      if (outcome.ok)
        lists.push({ engine: outcome.engine, weight: this.settings.weights[outcome.engine], results: outcome.results });
      else failures.push(outcome.failure);
    }
    if (lists.length === 0) throw enginesUnavailable(failures);
    if (failures.length > 0) ctx.log.info({ failures }, 'some search engines failed');

    // The engines were asked to filter too, but not all can: enforce again on the fused list.
    let results: SearchResult[] = fuseResults(lists, {
      maxResults: request.max_results,
      ...(request.include_domains ? { includeDomains: request.include_domains } : {}),
      ...(request.exclude_domains ? { excludeDomains: request.exclude_domains } : {}),
    }).map((r) => ({
      title: r.title,
      url: r.url,
      snippet: r.snippet,
      position: r.position,
      engine: r.engine,
      engines: r.engines,
      ...(r.published_at ? { published_at: r.published_at } : {}),
    }));

    let content: { requested: number; delivered: number } | undefined;
    if (request.include_content) {
      const controls = pageControls(request);
      const fetched = await fetchContent(ctx, this.#deps.pages, results, {
        count: request.content_results,
        timeoutMs: this.#deps.config.search.contentTimeoutMs,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(controls !== undefined ? { controls } : {}),
        ...(request.content_mode === 'passages'
          ? {
              passages: {
                query: request.q,
                max: request.max_passages ?? DEFAULT_PASSAGES,
                maxChars: request.max_passage_chars ?? DEFAULT_PASSAGE_CHARS,
                ...(request.language ? { language: request.language } : {}),
              },
            }
          : {}),
      });
      throwIfCancelled(signal);
      results = fetched.results;
      content = { requested: fetched.requested, delivered: fetched.delivered };
    }

    const status = results.length === 0 ? 'no_results' : failures.length > 0 ? 'partial' : 'success';
    const response: SearchResponse = {
      id: newSearchId(),
      query: request.q,
      engines: [...engines],
      results,
      metadata: {
        number_of_results: results.length,
        credits_used: searchCredits({
          fromCache: false,
          numberOfResults: results.length,
          contentDelivered: content?.delivered,
        }),
        from_cache: false,
        status,
        response_time: seconds(started),
        timestamp: new Date(this.#now()).toISOString(),
        ...(content ? { content_requested: content.requested, content_delivered: content.delivered } : {}),
        ...(failures.length > 0
          ? { failed_engines: failures.map((f) => ({ engine: f.engine, error: f.error, message: f.message })) }
          : {}),
      },
    };

    // Only complete answers are cached: a partial one would hide the missing engine's
    // results for the whole TTL, and "no results" may be an engine hiccup.
    if (key !== undefined && status === 'success') {
      await this.#deps.cache.set(key, copyResponse(response), ttl).catch((err: unknown) => {
        ctx.log.warn({ err }, 'search cache write failed');
      });
    }
    return response;
  }

  /** The engines to query, canonical order, or invalid_request naming each unconfigured one. */
  #selectEngines(requested: readonly EngineId[] | undefined): EngineId[] {
    if (requested === undefined || requested.length === 0) return [...this.settings.defaults];
    const unconfigured: EngineId[] = [];
    const details = requested.flatMap((id, i) => {
      if (this.settings.configured.includes(id)) return [];
      if (!unconfigured.includes(id)) unconfigured.push(id);
      return [
        {
          path: `engines.${i}`,
          message: notConfiguredMessage(id, missingEngineSettings(id, this.settings.contexts[id])),
        },
      ];
    });
    if (details.length > 0) {
      const configured = this.settings.configured.join(', ');
      throw new AppError(
        'invalid_request',
        `Not configured on this server: ${unconfigured.join(', ')} (configured engines: ${configured}).`,
        {
          details,
        },
      );
    }
    return ENGINE_IDS.filter((id) => requested.includes(id));
  }

  #fromCache(hit: SearchResponse, request: SearchRequest, started: number): SearchResponse {
    const copy = copyResponse(hit);
    return {
      ...copy,
      id: newSearchId(),
      query: request.q,
      metadata: {
        ...copy.metadata,
        credits_used: searchCredits({ fromCache: true, numberOfResults: copy.metadata.number_of_results }),
        from_cache: true,
        response_time: seconds(started),
        timestamp: new Date(this.#now()).toISOString(),
      },
    };
  }
}

/** Seconds since `started` (performance.now), millisecond precision. */
function seconds(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}

/**
 * Copies the objects (not the strings) of a response, so a cached entry and the answers
 * built from it never share mutable state. Cheap even with page content: strings are shared.
 */
function copyResponse(response: SearchResponse): SearchResponse {
  return {
    ...response,
    engines: [...response.engines],
    results: response.results.map((r) => ({
      ...r,
      ...(r.engines ? { engines: [...r.engines] } : {}),
      ...(r.passages ? { passages: r.passages.map((p) => ({ ...p, heading_path: [...p.heading_path] })) } : {}),
      // Nested items of any depth: copied whole.
      ...(r.structured_data ? { structured_data: structuredClone(r.structured_data) } : {}),
    })),
    metadata: {
      ...response.metadata,
      ...(response.metadata.failed_engines
        ? { failed_engines: response.metadata.failed_engines.map((f) => ({ ...f })) }
        : {}),
    },
  };
}

/** Cancelled by the caller: no answer (a deadline that fired leaves the answer partial instead). */
function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted && !isTimeout(signal.reason))
    throw new AppError('cancelled', 'The search was cancelled by the caller.');
}

function enginesUnavailable(failures: EngineFailure[]): AppError {
  const summary = failures.map((f) => `${f.engine}: ${f.error} (${f.message})`).join('; ');
  return new AppError('engines_unavailable', `Every selected search engine failed: ${summary}`, {
    retryable: true,
    details: failures.map((f) => ({ path: `engines.${f.engine}`, message: `${f.error}: ${f.message}` })),
  });
}
