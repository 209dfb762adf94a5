/**
 * The logging port: the subset of pino's API the project uses. The composition root
 * creates the real pino logger (writing to stderr: stdout belongs to the stdio transport).
 */
export interface Logger {
  fatal(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  trace(obj: unknown, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything (unit tests, library use). */
export const silentLogger: Logger = {
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  child() {
    return silentLogger;
  },
};
