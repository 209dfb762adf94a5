/**
 * Prometheus metrics of one process (prom-client, its own registry): HTTP requests by
 * route pattern and status, latencies, MCP tool calls, credits charged and refusals,
 * cache lookups, engine outcomes and suspensions, pages by outcome, extraction passes that
 * failed (by pass), open MCP sessions, sessions on a remote browser.
 * Label values are bounded sets (route patterns, codes, engine ids): a raw path or URL
 * as a label would grow the series without end.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Operation } from '../core/ports/ledger-store.js';
import type { PassFailure } from '../extract/index.js';
import type { MeteringObserver } from './accounts/metering.js';
import type { PageObserver } from './pages/page-ports.js';
import type { PageFailureStep } from './pages/page-step-names.js';
import type { SearchObserver } from './search/search-observer.js';
import type { SiteCrawlObserver, SitePageOutcome } from './site/site-observer.js';

/** Seconds, from a cache hit (about 1 ms) to a slow page (the 30 s class). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type CacheKind = 'page' | 'search' | 'robots';

/** The operator's metrics: each capability's observer port (optional: the CLI reports nothing). */
export class Metrics implements MeteringObserver, PageObserver, SearchObserver, SiteCrawlObserver {
  readonly registry = new Registry();
  readonly #httpRequests = new Counter({
    name: 'websearch_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  readonly #httpDuration = new Histogram({
    name: 'websearch_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #toolCalls = new Counter({
    name: 'websearch_mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome',
    labelNames: ['tool', 'outcome'],
    registers: [this.registry],
  });
  readonly #toolDuration = new Histogram({
    name: 'websearch_mcp_tool_call_duration_seconds',
    help: 'MCP tool call latency',
    labelNames: ['tool'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #credits = new Counter({
    name: 'websearch_credits_charged_total',
    help: 'Credits debited from API keys',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  readonly #refusals = new Counter({
    name: 'websearch_requests_refused_total',
    help: 'Requests refused before any work (unauthorized, insufficient_credits, rate_limited)',
    labelNames: ['code'],
    registers: [this.registry],
  });
  readonly #cache = new Counter({
    name: 'websearch_cache_lookups_total',
    help: 'Cache lookups by kind and result',
    labelNames: ['kind', 'result'],
    registers: [this.registry],
  });
  readonly #engineCalls = new Counter({
    name: 'websearch_engine_calls_total',
    help: 'Search engine calls by engine and outcome (ok or an error code)',
    labelNames: ['engine', 'outcome'],
    registers: [this.registry],
  });
  readonly #suspensions = new Counter({
    name: 'websearch_engine_suspensions_total',
    help: 'Engine suspensions placed (blocked, rate_limited)',
    labelNames: ['engine', 'reason'],
    registers: [this.registry],
  });
  readonly #pages = new Counter({
    name: 'websearch_pages_total',
    help: 'Pages by outcome: success, cached, or the extraction error_type',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly #passFailures = new Counter({
    name: 'websearch_extract_pass_failures_total',
    help: "Failures of the HTML pipeline's passes on pages converted, by pass",
    labelNames: ['pass'],
    registers: [this.registry],
  });
  readonly #sitePages = new Counter({
    name: 'websearch_site_pages_total',
    help: 'Site crawl pages this instance worked on, by how they ended (delivered, duplicate, past_limit, given_back)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly #stepFailures = new Counter({
    name: 'websearch_page_step_failures_total',
    help: 'URLs that failed, by the step of the page journey that failed them and the error type',
    labelNames: ['step', 'error_type'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'websearch_' });
  }

  /** @param route a served route pattern, or `other`: never the raw path. */
  observeHttp(route: string, method: string, status: number, seconds: number): void {
    this.#httpRequests.inc({ route, method, status: String(status) });
    this.#httpDuration.observe({ route, method }, seconds);
  }

  toolCall(tool: string, outcome: 'ok' | 'error', seconds: number): void {
    this.#toolCalls.inc({ tool, outcome });
    this.#toolDuration.observe({ tool }, seconds);
  }

  creditsCharged(operation: Operation, credits: number): void {
    this.#credits.inc({ operation }, credits);
  }

  requestRefused(code: string): void {
    this.#refusals.inc({ code });
  }

  cacheLookup(kind: CacheKind, hit: boolean): void {
    this.#cache.inc({ kind, result: hit ? 'hit' : 'miss' });
  }

  engineCall(engine: string, outcome: string): void {
    this.#engineCalls.inc({ engine, outcome });
  }

  engineSuspended(engine: string, reason: string): void {
    this.#suspensions.inc({ engine, reason });
  }

  pageFetched(outcome: string): void {
    this.#pages.inc({ outcome });
  }

  passFailed(pass: PassFailure['pass']): void {
    this.#passFailures.inc({ pass });
  }

  pageStepFailed(step: PageFailureStep, errorType: string): void {
    this.#stepFailures.inc({ step, error_type: errorType });
  }

  /** Open MCP sessions, read when scraped. */
  setSessionGauge(read: () => { streamable: number; sse: number }): void {
    new Gauge({
      name: 'websearch_mcp_sessions',
      help: 'Open MCP sessions by transport',
      labelNames: ['transport'],
      registers: [this.registry],
      collect() {
        const open = read();
        this.set({ transport: 'streamable_http' }, open.streamable);
        this.set({ transport: 'sse' }, open.sse);
      },
    });
  }

  /** Contexts and pages this server has open on its remote browser, read when scraped. */
  setRemoteBrowserGauge(read: () => { contexts: number; pages: number }): void {
    new Gauge({
      name: 'websearch_remote_browser_sessions',
      help: 'Browser contexts and pages this server has open on its remote browser (WEBSEARCH_BROWSER_ENDPOINT)',
      labelNames: ['type'],
      registers: [this.registry],
      collect() {
        const open = read();
        this.set({ type: 'context' }, open.contexts);
        this.set({ type: 'page' }, open.pages);
      },
    });
  }

  sitePageDone(outcome: SitePageOutcome): void {
    this.#sitePages.inc({ outcome });
  }

  /** The site crawls' pages: those this instance holds, and the queue's over every instance, read when scraped. */
  setSiteCrawlGauges(read: { inHand: () => number; queue: () => Promise<{ waiting: number; active: number }> }): void {
    new Gauge({
      name: 'websearch_site_pages_in_hand',
      help: 'Site crawl pages this instance works on now',
      registers: [this.registry],
      collect() {
        this.set(read.inHand());
      },
    });
    new Gauge({
      name: 'websearch_site_queue_pages',
      help: 'Pages of the running site crawls this instance works on, by state: waiting in the crawl queue, or held by an instance (any)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const depth = await read.queue().catch(() => undefined);
        if (depth === undefined) return;
        this.set({ state: 'waiting' }, depth.waiting);
        this.set({ state: 'active' }, depth.active);
      },
    });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
