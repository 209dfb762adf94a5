/**
 * The real logger: pino writing JSON lines to stderr (fd 2), because stdout belongs to
 * the stdio MCP transport.
 */
import { pino } from 'pino';
import type { Config } from './core/config.js';
import type { Logger } from './core/logger.js';

export function createLogger(config: Config): Logger {
  return pino({ level: config.log.level, base: { name: 'websearch-mcp' } }, pino.destination({ fd: 2, sync: true }));
}
