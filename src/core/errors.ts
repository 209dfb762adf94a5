/**
 * The one error type of the project. Every failure carries a stable `code`; the tables
 * below map codes to HTTP statuses (request-level errors), to the per-URL `error_type`
 * of an extraction result and to the per-result `content_error` of a search. Code never
 * branches on message text.
 */

/** Codes of failures that concern a single URL (a fetch or an extraction). */
export const URL_ERROR_CODES = [
  'invalid_url',
  'forbidden_address',
  'unsupported_content_type',
  'robots_disallowed',
  'too_large',
  'timeout',
  'network',
  'http',
  'blocked',
  'too_many_redirects',
  'empty_content',
  'render_failed',
  'render_unavailable',
  'busy',
] as const;
export type UrlErrorCode = (typeof URL_ERROR_CODES)[number];

/** Codes of failures that concern a whole request. */
export const REQUEST_ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'insufficient_credits',
  'forbidden_host',
  'forbidden_origin',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'too_many_sessions',
  'rate_limited',
  'headers_too_large',
  'engines_unavailable',
  'cancelled',
  'internal_error',
  'server_busy',
  'store_unavailable',
] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

/** Codes of failures of a search engine call (never surfaced alone to a client). */
export const ENGINE_ERROR_CODES = ['malformed_response', 'engine_unconfigured'] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export type ErrorCode = UrlErrorCode | RequestErrorCode | EngineErrorCode;

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  /** Whether trying again later may succeed (timeouts, 5xx, rate limits). */
  retryable?: boolean;
  /** HTTP status obtained from the target page, when a response came. */
  statusCode?: number;
  /** Per-issue details (request validation). */
  details?: ErrorDetail[];
  /** Seconds to wait before retrying (rate limits). */
  retryAfter?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly statusCode: number | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.statusCode = options.statusCode;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Wraps anything thrown into an AppError; unknown errors become `internal_error`. */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new AppError('internal_error', message, { cause: value });
}

/**
 * HTTP status of each request-level code
 * (docs/decisions.md, "Gaps in part 7 (request-level errors)").
 */
export const HTTP_STATUS: Record<RequestErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  // DNS-rebinding protection of a loopback-bound server (faces/http/host-guard.ts).
  forbidden_host: 403,
  forbidden_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  // Malformed or slow HTTP, answered by the node server itself (faces/http/client-error.ts).
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  // MCP session caps (faces/mcp/session-limits.ts): one key's share, then the whole server's.
  too_many_sessions: 429,
  rate_limited: 429,
  headers_too_large: 431,
  engines_unavailable: 502,
  // 499 is the de-facto "client closed request" status; a cancelled call has no reader.
  cancelled: 499,
  internal_error: 500,
  server_busy: 503,
  // The store (Redis, the SQLite file) cannot be reached or is locked: retryable, not a bug.
  store_unavailable: 503,
};

export function httpStatusOf(code: ErrorCode): number {
  return (HTTP_STATUS as Record<string, number>)[code] ?? 500;
}

/** The Retry-After of `store_unavailable`, in seconds: about as long as a Redis reconnect or a lock takes. */
export const STORE_RETRY_AFTER_S = 5;

/**
 * Extraction result `error_type` values (docs/interface.md 7.1 plus the extensions of
 * docs/decisions.md, "Gaps in part 2 (fields)").
 */
export type ExtractionErrorType =
  | 'http'
  | 'unsupported_content_type'
  | 'too_large'
  | 'robots_disallowed'
  | 'invalid_url'
  | 'forbidden_address'
  | 'timeout'
  | 'network'
  | 'blocked'
  | 'empty_content'
  | 'render_failed'
  | 'render_unavailable'
  | 'busy';

const EXTRACTION_ERROR_TYPE: Record<UrlErrorCode, ExtractionErrorType> = {
  invalid_url: 'invalid_url',
  forbidden_address: 'forbidden_address',
  unsupported_content_type: 'unsupported_content_type',
  robots_disallowed: 'robots_disallowed',
  too_large: 'too_large',
  timeout: 'timeout',
  network: 'network',
  http: 'http',
  blocked: 'blocked',
  // A redirect chain that never ends is the target's HTTP misbehaviour.
  too_many_redirects: 'http',
  empty_content: 'empty_content',
  // The browser crashed or hung while rendering this URL (it is restarted for the next).
  render_failed: 'render_failed',
  // wait_for_selector or screenshot asked of a server without a browser (or WEBSEARCH_RENDER=never).
  render_unavailable: 'render_unavailable',
  // No room to convert the page now (queue full, or its worker stopped): retry later.
  busy: 'busy',
};

export function extractionErrorTypeOf(code: ErrorCode): ExtractionErrorType {
  return (EXTRACTION_ERROR_TYPE as Record<string, ExtractionErrorType>)[code] ?? 'network';
}

/** Search result `content_error` values (docs/decisions.md, "Gaps in part 2 (fields)"). */
export type ContentErrorValue =
  | 'blocked'
  | 'robots_disallowed'
  | 'http_error'
  | 'timeout'
  | 'network_error'
  | 'unsupported_content_type'
  | 'too_large'
  | 'forbidden_address'
  | 'empty_content'
  | 'busy';

const CONTENT_ERROR: Record<UrlErrorCode, ContentErrorValue> = {
  invalid_url: 'network_error',
  forbidden_address: 'forbidden_address',
  unsupported_content_type: 'unsupported_content_type',
  robots_disallowed: 'robots_disallowed',
  too_large: 'too_large',
  timeout: 'timeout',
  network: 'network_error',
  http: 'http_error',
  blocked: 'blocked',
  too_many_redirects: 'http_error',
  empty_content: 'empty_content',
  render_failed: 'network_error',
  // Search never asks for a render by name; listed for the table's completeness.
  render_unavailable: 'network_error',
  busy: 'busy',
};

export function contentErrorOf(code: ErrorCode, statusCode?: number): ContentErrorValue {
  // docs/decisions.md, "Gaps in part 2 (fields)": 401/403/429/451 from the page count as
  // `blocked`, not a plain HTTP error.
  if (code === 'http' && statusCode !== undefined && BLOCKING_STATUSES.has(statusCode)) return 'blocked';
  return (CONTENT_ERROR as Record<string, ContentErrorValue>)[code] ?? 'network_error';
}

/** Statuses by which a site refuses an automated client. */
export const BLOCKING_STATUSES: ReadonlySet<number> = new Set([401, 403, 429, 451]);
