/**
 * The contract of a search engine module: pure functions that build the HTTP request and
 * parse the HTTP response. The search service does all I/O (through the guarded client),
 * so each engine is tested against saved responses with no network.
 */

export const ENGINE_IDS = ['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google'] as const;
export type EngineId = (typeof ENGINE_IDS)[number];

export type SafeSearch = 'off' | 'moderate' | 'strict';
export type TimeRange = 'day' | 'week' | 'month' | 'year';

export interface SearchParams {
  /** Trimmed query, 1-400 characters. */
  query: string;
  /** Results wanted from this engine. */
  maxResults: number;
  /** ISO 3166-1 alpha-2, lower or upper case. */
  country?: string;
  /** BCP 47 tag, e.g. `en`, `de-CH`. */
  language?: string;
  safesearch: SafeSearch;
  timeRange?: TimeRange;
  /** Host names; results must be on one of them (or a subdomain). */
  includeDomains?: string[];
  /** Host names; results on them (or a subdomain) are dropped. */
  excludeDomains?: string[];
}

/** Per-engine settings from config: where it lives and its credentials. */
export interface EngineContext {
  /** Base URL of the engine's endpoint (tests and self-hosted mirrors point it elsewhere). */
  baseUrl: string;
  /** Second base URL where the engine has a fallback endpoint (DuckDuckGo lite). */
  fallbackUrl?: string;
  apiKey?: string;
  /** Google Programmable Search engine id (cx). */
  cseId?: string;
  /** User-Agent the client sends (some engines bind tokens to it). */
  userAgent: string;
}

export interface EngineRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface EngineResponse {
  /** URL that answered (after redirects). */
  url: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
}

export interface EngineResult {
  title: string;
  url: string;
  snippet: string;
  /** ISO 8601 when the engine gives a date. */
  published_at?: string;
}

export interface SearchEngine {
  id: EngineId;
  /** True when the engine works with no API key. */
  keyless: boolean;
  /** Default weight in rank fusion. */
  defaultWeight: number;
  buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest;
  /**
   * Parses one response. Throws AppError: 'rate_limited' (429, with retryAfter seconds
   * when the engine says), 'blocked' (CAPTCHA/anomaly page, 403), 'http' (other non-2xx,
   * statusCode set), 'malformed_response' (unparseable body). Returns [] for no results.
   */
  parseResponse(res: EngineResponse, params: SearchParams): EngineResult[];
}
