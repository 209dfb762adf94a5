/**
 * The one HTTP client of the project (contract: fetch-types.ts). Every outbound page,
 * robots.txt and engine request goes through here so that the SSRF, size, time and
 * politeness rules of docs/decisions.md, "Limits and politeness", hold everywhere.
 *
 * Design notes for integrators:
 *  - Two undici Agents: "guarded" (address policy in the connector) and "open" (no policy,
 *    used for `allowPrivate` requests or when config.fetch.allowPrivateAddresses is on).
 *    Keeping them apart means a keep-alive socket opened for an allowed LAN engine can
 *    never be reused by a page fetch, and the decision stays per request.
 *  - Redirects are followed by hand (undici.request never follows them), so each hop gets
 *    the URL checks, the literal-IP pre-check and the connect-time address check again.
 *  - Non-2xx responses are RETURNED, not thrown: callers decide what a 404 means.
 */
import { STATUS_CODES } from 'node:http';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { Config } from '../core/config.js';
import { DeadlineScope } from '../core/deadline-scope.js';
import { AppError } from '../core/errors.js';
import { deadlineIn } from '../core/request-context.js';
import { addressPolicyFor, isForbiddenAddress, stripBrackets, type AddressPolicy } from './address-policy.js';
import { readBody } from './body-reader.js';
import { createConnector, portOf, resolveGuarded, systemResolver, type Resolver } from './connector.js';
import { decodingPlan } from './content-decoding.js';
import { mapFetchError } from './fetch-errors.js';
import type { FetchedResponse, FetchOptions, HttpClient, RedirectHop, ResponseHead } from './fetch-types.js';
import { HostLimiter, type Release } from './host-limiter.js';
import { isHookError, callHook, callHookAsync } from './hook-errors.js';
import {
  REDIRECT_STATUSES,
  redirectHeaders,
  redirectMethod,
  redirectTarget,
  tooManyRedirects,
  type Method,
} from './redirects.js';
import { closeAgent, destroyBody, drainBody } from './response-cleanup.js';
import { hostKey, parseTargetUrl, precheckLiteralHost, requestTarget } from './request-url.js';
import { sendRequest, type SentResponse } from './send-request.js';

export type FetchConfig = Config['fetch'];

export const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

/** Optional collaborators; production code passes none. */
export interface GuardedFetcherDeps {
  /** Replaces the default address policy (`isForbiddenAddress`), e.g. to permit only 127.0.0.1 in tests. */
  addressPolicy?: AddressPolicy;
  /** Replaces the OS resolver (tests: fake names, DNS-rebinding scenarios). */
  resolver?: Resolver;
}

export class GuardedFetcher implements HttpClient {
  readonly #config: FetchConfig;
  /** Undefined when private addresses are allowed globally; with the operator's allowlist otherwise. */
  readonly #policy: AddressPolicy | undefined;
  readonly #guarded: Agent;
  readonly #open: Agent;
  /** Requests with a stealth profile when WEBSEARCH_STEALTH_PROXY is set. */
  readonly #stealth: ProxyAgent | undefined;
  readonly #resolver: Resolver;
  readonly #limiter: HostLimiter;
  #closed = false;

  constructor(config: FetchConfig, deps: GuardedFetcherDeps = {}) {
    this.#config = config;
    this.#policy = addressPolicyFor(config.allowPrivateAddresses, deps.addressPolicy ?? isForbiddenAddress);
    const resolver = deps.resolver ?? systemResolver;
    this.#resolver = resolver;
    const agentFor = (policy: AddressPolicy | undefined): Agent =>
      new Agent({
        connect: createConnector({ timeoutMs: config.connectTimeoutMs, policy, resolver }),
        // Idle limits: silence before the headers, and between two body chunks.
        headersTimeout: config.idleTimeoutMs,
        bodyTimeout: config.idleTimeoutMs,
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 30_000,
      });
    this.#open = agentFor(undefined);
    this.#guarded = this.#policy ? agentFor(this.#policy) : this.#open;
    this.#limiter = new HostLimiter(config.perHostConcurrency);
    this.#stealth = config.stealthProxy
      ? new ProxyAgent({
          uri: config.stealthProxy,
          headersTimeout: config.idleTimeoutMs,
          bodyTimeout: config.idleTimeoutMs,
          proxyTls: { timeout: config.connectTimeoutMs },
        })
      : undefined;
  }

  async fetch(url: string | URL, options: FetchOptions = {}): Promise<FetchedResponse> {
    if (this.#closed) throw new AppError('cancelled', 'the HTTP client is closed');
    const requested = parseTargetUrl(url);
    const policy = options.allowPrivate ? undefined : this.#policy;
    // The deadline covers the whole exchange — queueing for a host slot, every redirect
    // hop, a body that drips one byte at a time — which the idle timeouts alone cannot catch.
    // A deadline that is not a number (a caller's mistake) falls back to the configured one.
    const ctx =
      options.ctx === undefined || Number.isNaN(options.ctx.deadline)
        ? deadlineIn(this.#config.timeoutMs, options.ctx?.signal)
        : options.ctx;
    const scope = new DeadlineScope(ctx);
    let current = requested;
    let status: number | undefined;
    try {
      scope.throwIfAborted();
      return await this.#exchange(requested, options, policy, scope, (hop, hopStatus) => {
        current = hop;
        status = hopStatus;
      });
    } catch (error) {
      // A fired deadline or cancellation explains any error it caused (aborted sockets,
      // premature close), so it wins over the raw error. Errors thrown by the caller's own
      // hooks propagate unchanged.
      if (!scope.failure && isHookError(error)) throw error;
      throw (
        scope.failure ??
        mapFetchError(error, {
          host: current.host,
          status,
          idleTimeoutMs: this.#config.idleTimeoutMs,
          connectTimeoutMs: this.#config.connectTimeoutMs,
        })
      );
    } finally {
      scope.dispose();
    }
  }

  async #exchange(
    requested: URL,
    options: FetchOptions,
    policy: AddressPolicy | undefined,
    scope: DeadlineScope,
    progress: (hop: URL, status: number | undefined) => void,
  ): Promise<FetchedResponse> {
    const maxRedirects = options.maxRedirects ?? this.#config.maxRedirects;
    const proxied = options.profile !== undefined && this.#stealth !== undefined;
    const agent = proxied ? (this.#stealth as ProxyAgent) : policy ? this.#guarded : this.#open;
    let current = requested;
    let method: Method = options.method ?? 'GET';
    let body = options.body;
    let headers = this.#requestHeaders(options.headers, options.profile?.headers);
    const redirects: string[] = [];
    const seen = new Set<string>();
    /** The redirect that led to `current` (none on the first request). */
    let hop: RedirectHop | undefined;

    for (;;) {
      progress(current, undefined);
      precheckLiteralHost(current, policy);
      // The caller's check of a redirect target (robots.txt), before it is requested and
      // without holding a host slot: it may fetch another origin's robots.txt.
      const { onRedirect } = options;
      if (hop !== undefined && onRedirect) {
        const [target, redirect] = [current, hop];
        await callHookAsync(() => onRedirect(target, redirect));
      }
      // The proxy resolves the name itself; the policy is applied to our own resolution first.
      if (proxied && policy)
        await resolveGuarded(
          this.#resolver,
          policy,
          stripBrackets(current.hostname),
          portOf(current.port, current.protocol),
        );
      seen.add(`${method} ${requestTarget(current).href}`);
      const release = await this.#acquire(current, options, scope);
      try {
        const response = await sendRequest(agent, requestTarget(current), {
          method,
          headers,
          body,
          signal: scope.signal,
          maxBufferedBytes: positive(options.maxBytes, this.#config.maxBytes),
        });
        const status = response.statusCode;
        progress(current, status);
        let next: URL | undefined;
        try {
          next =
            REDIRECT_STATUSES.has(status) && options.redirect !== 'manual'
              ? redirectTarget(single(response.headers.location), current, status)
              : undefined;
        } catch (error) {
          destroyBody(response.body);
          throw error;
        }
        if (next === undefined) {
          const head = this.#head(requested, current, response, redirects);
          return { ...head, body: await this.#readFinal(response, head, method, options, scope) };
        }
        await drainBody(response.body);
        if (redirects.length >= maxRedirects) {
          throw tooManyRedirects(`more than ${maxRedirects} redirects (last: ${status} from ${current.href})`, status);
        }
        const nextMethod = redirectMethod(status, method);
        // Only POST carries a body; it survives only a 307/308 (method kept).
        const bodyDropped = nextMethod !== 'POST';
        if (seen.has(`${nextMethod} ${requestTarget(next).href}`)) {
          throw tooManyRedirects(`redirect loop: ${current.href} redirects (${status}) back to ${next.href}`, status);
        }
        headers = redirectHeaders(headers, current, next, bodyDropped);
        if (bodyDropped) body = undefined;
        method = nextMethod;
        redirects.push(current.href);
        hop = { from: current, status, ctx: scope };
        current = next;
      } finally {
        release();
      }
    }
  }

  async #acquire(url: URL, options: FetchOptions, scope: DeadlineScope): Promise<Release> {
    if (options.bypassHostLimit) return () => {};
    return this.#limiter.acquire(hostKey(url), scope.signal);
  }

  #requestHeaders(
    custom: Record<string, string> | undefined,
    profile: Record<string, string> | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      ...(profile ?? {
        'user-agent': this.#config.userAgent,
        accept: DEFAULT_ACCEPT,
        'accept-language': 'en;q=0.9, *;q=0.5',
      }),
      'accept-encoding': 'gzip, deflate, br',
    };
    // Header names are case-insensitive (RFC 9110 5.1): the caller's spelling wins.
    for (const [name, value] of Object.entries(custom ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  #head(requested: URL, current: URL, response: SentResponse, redirects: string[]): ResponseHead {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      const lower = name.toLowerCase();
      headers[lower] = Array.isArray(value) ? value.join(lower === 'set-cookie' ? '\n' : ', ') : value;
    }
    return {
      url: requested.href,
      finalUrl: current.href,
      status: response.statusCode,
      statusText: response.statusText || STATUS_CODES[response.statusCode] || '',
      headers,
      redirects: [...redirects],
    };
  }

  async #readFinal(
    response: SentResponse,
    head: ResponseHead,
    method: Method,
    options: FetchOptions,
    scope: DeadlineScope,
  ): Promise<Uint8Array> {
    const maxBytes = positive(options.maxBytes, this.#config.maxBytes);
    const truncates = options.truncateAt !== undefined && options.truncateAt <= maxBytes;
    try {
      if (options.onHead) callHook(() => options.onHead?.(head));
      const encodings = decodingPlan(head.headers['content-encoding'], head.status);
      const hasBody = method !== 'HEAD' && head.status !== 204 && head.status !== 304;
      // Early refusal on the announced size: only meaningful for identity bodies (a
      // Content-Length of a compressed body says nothing of its decoded size).
      const declared = Number(head.headers['content-length']);
      if (hasBody && !truncates && encodings.length === 0 && Number.isFinite(declared) && declared > maxBytes) {
        throw new AppError('too_large', `Content-Length ${declared} exceeds ${maxBytes} bytes`, {
          statusCode: head.status,
        });
      }
      const onFirstBytes = options.onFirstBytes;
      return await readBody(response.body, {
        encodings,
        maxBytes,
        truncateAt: truncates ? options.truncateAt : undefined,
        status: head.status,
        onFirstBytes: onFirstBytes ? (bytes) => callHookAsync(() => onFirstBytes(bytes, head)) : undefined,
        signal: scope.signal,
      });
    } catch (error) {
      // Whatever failed (hook, pre-check, decoder), the socket must not linger half-read.
      destroyBody(response.body);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const agents: Dispatcher[] = this.#open === this.#guarded ? [this.#open] : [this.#open, this.#guarded];
    if (this.#stealth) agents.push(this.#stealth);
    await Promise.all(agents.map((agent) => closeAgent(agent)));
  }
}

/** A caller-supplied limit if it is a positive number, else the configured one. */
function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
