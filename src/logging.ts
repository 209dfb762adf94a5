/**
 * The real logger: pino writing JSON lines to stderr (fd 2), because stdout belongs to
 * the stdio MCP transport.
 */
import { pino } from 'pino';
import type { Config } from './core/config.js';
import type { Logger } from './core/logger.js';

/** Wherever request headers end up in a log line, API keys do not (defence in depth: nothing logs them on purpose). */
const SECRET_PATHS = [
  'authorization',
  'x-api-key',
  '*.authorization',
  '*["x-api-key"]',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
];

export function createLogger(config: Config): Logger {
  return pino(
    { level: config.log.level, base: { name: 'websearch-mcp' }, redact: { paths: SECRET_PATHS, censor: '[redacted]' } },
    pino.destination({ fd: 2, sync: true }),
  );
}
