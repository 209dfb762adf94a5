/**
 * robots.txt per RFC 9309: fetched through the guarded client (so the SSRF rules apply
 * to it too), interpreted by status, parsed with robots-parser, cached per origin.
 *
 *   2xx            → parse the first `maxBytes` (>= 500 KiB, 2.5) and match (2.2)
 *   4xx            → "unavailable": everything allowed (2.3.1.3), 401/403 included
 *   429, 5xx       → "unreachable": everything disallowed (2.3.1.4); 429 is treated like
 *                    a server error, as major crawlers do: it means "slow down", not "no file"
 *   timeout, network error, forbidden address → unreachable (2.3.1.4)
 *   > 5 redirects  → unavailable (2.3.1.2 "MAY assume ... unavailable")
 */
import robotsParserModule from 'robots-parser';
import type { Config } from '../core/config.js';
import { DeadlineScope } from '../core/deadline-scope.js';
import { AppError, toAppError } from '../core/errors.js';
import type { CacheStore } from '../core/ports/cache-port.js';
import { deadlineIn, type RequestDeadline } from '../core/request-context.js';
import type { HttpClient } from './fetch-types.js';
import { LruCache } from '../core/lru-cache.js';
import { parseTargetUrl } from './request-url.js';

export interface RobotsVerdict {
  allowed: boolean;
  /**
   * parsed: a robots.txt was read and matched; missing: none (4xx) → allowed;
   * unreachable: 5xx/timeout/network → disallowed; disabled: robots off in config;
   * self: the URL is /robots.txt itself (2.2.2: always allowed).
   */
  source: 'parsed' | 'missing' | 'unreachable' | 'disabled' | 'self';
  /** HTTP status of the robots.txt response, when one came. */
  status?: number;
  /** Why robots.txt was unreachable (e.g. 'forbidden_address', 'timeout'). */
  error?: AppError;
}

/** A robots.txt's other records (RobotsChecker.directives). */
export interface RobotsDirectives {
  sitemaps: string[];
  crawlDelaySeconds?: number;
  source: RobotsVerdict['source'];
  status?: number;
}

export type RobotsConfig = Config['robots'];

/**
 * How long an "unreachable" outcome is remembered. Short on purpose: 2.4 lets a cached
 * copy live up to 24 h, but a transient 503 or timeout must not lock a site out for a day;
 * a short memory still stops a burst of checks from hammering a failing host.
 */
export const UNREACHABLE_TTL_MS = 60_000;

/** A robots.txt that timed out is asked again sooner still: a slow moment is no verdict. */
export const TIMEOUT_TTL_MS = 10_000;

/**
 * How long an outcome is remembered. A refusal of our own (the address policy said no
 * before any connection) is no answer of the site: it is never kept, so that an operator
 * who allows the address sees the site's own robots.txt at once, in every process sharing
 * the store.
 */
function ttlOf(rules: Rules): number {
  if (rules.kind !== 'unreachable') return Infinity;
  switch (rules.error?.code) {
    case 'forbidden_address':
      return 0;
    case 'timeout':
      return TIMEOUT_TTL_MS;
    default:
      return UNREACHABLE_TTL_MS;
  }
}

// robots-parser is CommonJS (`module.exports = fn`) but its typings say `export default`:
// under NodeNext the default import IS the function at runtime, while TypeScript types it
// as the module object. Re-type it once here.
type ParseRobots = typeof robotsParserModule.default;
const robotsParser = robotsParserModule as unknown as ParseRobots;
type Robot = ReturnType<ParseRobots>;

type Rules =
  | { kind: 'parsed'; robot: Robot; status: number }
  | { kind: 'missing'; status?: number }
  | { kind: 'unreachable'; status?: number; error?: AppError };

/** An outcome as the shared cache keeps it: plain JSON, the file's text rather than its parse. */
export type StoredRobots = { expiresAt: number } & (
  | { kind: 'parsed'; status: number; text: string }
  | { kind: 'missing'; status?: number }
  | { kind: 'unreachable'; status?: number; error?: { code: AppError['code']; message: string; statusCode?: number } }
);

export interface RobotsCheckerDeps {
  /** Clock for cache expiry (tests). */
  now?: () => number;
  /**
   * The cache shared with other processes and instances (the store): one fetch of an
   * origin's robots.txt serves them all. The in-process cache stays in front of it.
   */
  shared?: CacheStore<StoredRobots>;
  /** Told whether each robots.txt lookup was answered from a cache (metrics). */
  onLookup?: (cached: boolean) => void;
}

export class RobotsChecker {
  readonly #client: HttpClient;
  readonly #config: RobotsConfig;
  readonly #productToken: string;
  readonly #cache: LruCache<string, Rules>;
  readonly #shared: CacheStore<StoredRobots> | undefined;
  readonly #now: () => number;
  readonly #onLookup: ((cached: boolean) => void) | undefined;
  /** One fetch per origin at a time; concurrent checks await the same promise. */
  readonly #inflight = new Map<string, Promise<Rules>>();

  /**
   * @param productToken matched against User-agent lines (2.2.1): the bare token such as
   *   "websearch-mcp", not the full User-Agent header.
   */
  constructor(client: HttpClient, config: RobotsConfig, productToken: string, deps: RobotsCheckerDeps = {}) {
    this.#client = client;
    this.#config = config;
    this.#productToken = productToken;
    this.#cache = new LruCache<string, Rules>({
      maxEntries: config.cacheEntries,
      ttlMs: config.cacheTtlMs,
      now: deps.now,
    });
    this.#shared = deps.shared;
    this.#now = deps.now ?? Date.now;
    this.#onLookup = deps.onLookup;
  }

  /** Number of origins currently cached (tests, metrics). */
  get cachedOrigins(): number {
    return this.#cache.size;
  }

  /**
   * The verdict for `url`. With the caller's context, the caller stops waiting at its
   * deadline (`timeout`) or cancellation (`cancelled`); the fetch itself, shared by every
   * caller of the origin, runs under robots.txt's own budget (WEBSEARCH_ROBOTS_TIMEOUT_MS).
   */
  async check(url: string | URL, ctx?: RequestDeadline): Promise<RobotsVerdict> {
    if (!this.#config.enabled) return { allowed: true, source: 'disabled' };
    // The fetcher's URL rules: one parser for every URL we request (net/request-url.ts).
    const target = parseTargetUrl(url);
    // 2.2.2: "The /robots.txt URI is implicitly allowed."
    if (target.pathname === '/robots.txt') return { allowed: true, source: 'self' };
    const rules = await this.#rulesFor(target.origin, ctx);
    switch (rules.kind) {
      case 'parsed': {
        // robots-parser answers undefined only for another origin, impossible here.
        const allowed = rules.robot.isAllowed(target.href, this.#productToken) ?? true;
        return { allowed, source: 'parsed', status: rules.status };
      }
      case 'missing':
        return withStatus<RobotsVerdict>({ allowed: true, source: 'missing' }, rules.status);
      case 'unreachable': {
        const verdict = withStatus<RobotsVerdict>({ allowed: false, source: 'unreachable' }, rules.status);
        return rules.error ? { ...verdict, error: rules.error } : verdict;
      }
    }
  }

  /**
   * What the origin's robots.txt says beyond allow and disallow: its `Sitemap:` lines
   * (RFC 9309 2.2.4, other records) and its `Crawl-delay` for our agent (not in RFC 9309:
   * the de-facto seconds between requests), from the same cached copy `check` reads.
   */
  async directives(url: string | URL, ctx?: RequestDeadline): Promise<RobotsDirectives> {
    if (!this.#config.enabled) return { sitemaps: [], source: 'disabled' };
    const rules = await this.#rulesFor(parseTargetUrl(url).origin, ctx);
    if (rules.kind !== 'parsed')
      return withStatus<RobotsDirectives>({ sitemaps: [], source: rules.kind }, rules.status);
    const delay = rules.robot.getCrawlDelay(this.#productToken);
    return {
      sitemaps: rules.robot.getSitemaps(),
      source: 'parsed',
      status: rules.status,
      ...(typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? { crawlDelaySeconds: delay } : {}),
    };
  }

  async #rulesFor(origin: string, ctx: RequestDeadline | undefined): Promise<Rules> {
    const cached = this.#cache.get(origin);
    if (cached) {
      this.#onLookup?.(true);
      return cached;
    }
    let pending = this.#inflight.get(origin);
    if (!pending) {
      // The shared fetch gets no caller's context: one caller giving up must not fail the
      // others. Each caller still stops waiting at its own deadline (below).
      pending = this.#load(origin).finally(() => this.#inflight.delete(origin));
      this.#inflight.set(origin, pending);
    }
    return ctx ? untilDeadline(pending, ctx) : pending;
  }

  /** The outcome for one origin from the shared cache, else fetched and interpreted; never rejects. */
  async #load(origin: string): Promise<Rules> {
    const robotsUrl = `${origin}/robots.txt`;
    const now = this.#now();
    const found = this.#config.cacheTtlMs > 0 ? await this.#shared?.get(origin).catch(() => undefined) : undefined;
    // A refusal kept by an earlier version is no verdict either (see ttlOf).
    const stored = found?.kind === 'unreachable' && found.error?.code === 'forbidden_address' ? undefined : found;
    this.#onLookup?.(stored !== undefined && stored.expiresAt > now);
    if (stored !== undefined && stored.expiresAt > now) {
      const rules = fromStored(robotsUrl, stored);
      // Never past the stored expiry: RFC 9309 2.4 caps the life of a cached copy.
      this.#cache.set(origin, rules, stored.expiresAt - now);
      return rules;
    }
    const { rules, text } = await this.#fetchRules(robotsUrl);
    const ttl = Math.min(this.#config.cacheTtlMs, ttlOf(rules));
    this.#cache.set(origin, rules, ttl);
    if (ttl > 0) await this.#shared?.set(origin, toStored(rules, text, now + ttl), ttl).catch(() => undefined);
    return rules;
  }

  async #fetchRules(robotsUrl: string): Promise<{ rules: Rules; text?: string }> {
    try {
      return await this.#fetchRulesOnce(robotsUrl);
    } catch (error) {
      const failure = toAppError(error);
      // 2.3.1.2: after too many redirects a crawler MAY treat robots.txt as unavailable; a
      // redirect to a non-http(s) URL is the same kind of dead end.
      if (failure.code === 'too_many_redirects' || failure.code === 'invalid_url') {
        return { rules: { kind: 'missing', status: failure.statusCode || undefined } };
      }
      return { rules: { kind: 'unreachable', status: failure.statusCode || undefined, error: failure } };
    }
  }

  async #fetchRulesOnce(robotsUrl: string): Promise<{ rules: Rules; text?: string }> {
    const response = await this.#client.fetch(robotsUrl, {
      headers: { accept: 'text/plain, */*;q=0.5' },
      maxRedirects: 5, // 2.3.1.2: follow at least five consecutive redirects
      ctx: deadlineIn(this.#config.timeoutMs),
      truncateAt: this.#config.maxBytes, // 2.5: parse at least 500 KiB, do not fail
      maxBytes: this.#config.maxBytes, // so the fetcher's page cap never turns the cut into a failure
      // Robots is fetched once per origin per TTL, often right before the page itself:
      // it must not queue behind (or deadlock with) that page's own host slot.
      bypassHostLimit: true,
    });
    const { status } = response;
    if (status >= 200 && status < 300) {
      const text = robotsText(response.body, this.#config.maxBytes);
      // Parse against the ORIGINAL robots URL: after a redirect the rules still apply to
      // the authority that was asked (2.3.1.2), and robots-parser checks the origin.
      return { rules: { kind: 'parsed', robot: robotsParser(robotsUrl, text), status }, text };
    }
    if (status === 429 || status >= 500) return { rules: { kind: 'unreachable', status } };
    // 4xx, and 1xx/3xx left over (a redirect without usable Location): unavailable.
    return { rules: { kind: 'missing', status } };
  }
}

function toStored(rules: Rules, text: string | undefined, expiresAt: number): StoredRobots {
  switch (rules.kind) {
    case 'parsed':
      return { kind: 'parsed', status: rules.status, text: text ?? '', expiresAt };
    case 'missing':
      return withStatus({ kind: 'missing' as const, expiresAt }, rules.status);
    case 'unreachable': {
      const base = withStatus({ kind: 'unreachable' as const, expiresAt }, rules.status);
      if (!rules.error) return base;
      const { code, message, statusCode } = rules.error;
      return { ...base, error: { code, message, ...(statusCode !== undefined ? { statusCode } : {}) } };
    }
  }
}

function fromStored(robotsUrl: string, stored: StoredRobots): Rules {
  switch (stored.kind) {
    case 'parsed':
      return { kind: 'parsed', robot: robotsParser(robotsUrl, stored.text), status: stored.status };
    case 'missing':
      return withStatus({ kind: 'missing' as const }, stored.status);
    case 'unreachable': {
      const base = withStatus({ kind: 'unreachable' as const }, stored.status);
      const e = stored.error;
      return e
        ? {
            ...base,
            error: new AppError(e.code, e.message, e.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
          }
        : base;
    }
  }
}

/** Decodes robots.txt as UTF-8 (2.2: the file is UTF-8), dropping a cut-off last line. */
export function robotsText(body: Uint8Array, maxBytes: number): string {
  let bytes = body;
  if (bytes.length >= maxBytes) {
    // Truncated mid-file: a half line like "Disallow: /fo" would be a rule nobody wrote.
    const lastNewline = bytes.lastIndexOf(0x0a);
    bytes = lastNewline >= 0 ? bytes.subarray(0, lastNewline + 1) : bytes;
  }
  // TextDecoder drops a UTF-8 BOM and replaces invalid sequences instead of throwing.
  return new TextDecoder('utf-8').decode(bytes);
}

function withStatus<T extends object>(value: T, status: number | undefined): T & { status?: number } {
  return status === undefined ? value : { ...value, status };
}

/** Settles with `promise`, or rejects with `timeout` at the caller's deadline or `cancelled` when it gives up. */
function untilDeadline<T>(promise: Promise<T>, ctx: RequestDeadline): Promise<T> {
  const scope = new DeadlineScope(ctx, {
    timeout: (ms) =>
      new AppError('timeout', `robots.txt did not answer within the ${ms} ms left of the caller's deadline`, {
        retryable: true,
      }),
    cancelled: (cause) => new AppError('cancelled', 'robots.txt check cancelled by the caller', { cause }),
  });
  if (scope.failure) {
    scope.dispose();
    return Promise.reject(scope.failure);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(scope.failure);
    scope.signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      scope.signal.removeEventListener('abort', onAbort);
      scope.dispose();
    });
  });
}
