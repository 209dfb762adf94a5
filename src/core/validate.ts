/**
 * Validation shared by both faces: a body, query object or tool arguments against a
 * schema, with every issue reported by path.
 */
import type { z } from 'zod';
import { AppError } from './errors.js';
import { issuesToDetails } from './schemas.js';

/** Validates a parsed body (or query object) against a schema, or throws a 400 listing every issue. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error);
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new AppError('invalid_request', `Invalid request: ${summary}`, { details });
  }
  return parsed.data;
}
