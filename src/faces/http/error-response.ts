/**
 * Request-level errors as HTTP responses
 * (docs/decisions.md, "Gaps in part 7 (request-level errors)"): one body shape,
 * `{"error": {"code", "message", "details"?}}`, and a status from the code table.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppError, ErrorDetail, RequestErrorCode } from '../../core/errors.js';
import { HTTP_STATUS, REQUEST_ERROR_CODES } from '../../core/errors.js';
import type { ErrorBody } from '../../core/schemas.js';

/** The response header naming the request (its context's id: core/request-context.ts), on every answer. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

export function errorBody(code: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return { error: { code, message, ...(details && details.length > 0 ? { details } : {}) } };
}

export function isRequestErrorCode(code: string): code is RequestErrorCode {
  return (REQUEST_ERROR_CODES as readonly string[]).includes(code);
}

export function errorResponse(
  c: Context,
  code: RequestErrorCode,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): Response {
  for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
  return c.json(errorBody(code, message, details), HTTP_STATUS[code] as ContentfulStatusCode);
}

/** Maps a thrown AppError with a request-level code to its response; anything else is a 500. */
export function appErrorResponse(c: Context, error: AppError): Response {
  if (!isRequestErrorCode(error.code) || error.code === 'internal_error') {
    return errorResponse(c, 'internal_error', 'An internal error occurred; it has been logged.');
  }
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(error.retryAfter));
  if (error.code === 'unauthorized') headers['WWW-Authenticate'] = 'Bearer';
  return errorResponse(c, error.code, error.message, error.details, headers);
}
