import { Redis, ReplyError } from 'ioredis';

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key, so deployments can share one Redis. */
  prefix?: string;
  /** How long connecting may take before the store is called unreachable. */
  connectTimeoutMs?: number;
  /**
   * How long one command may go unanswered (WEBSEARCH_STORE_TIMEOUT_MS): a server stopped
   * (SIGSTOP) or swapping keeps its connection open, so nothing else would end the wait.
   */
  commandTimeoutMs?: number;
}

/** ioredis's error for a command past `commandTimeout` (Command.js): the server did not answer. */
const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * Connects, or throws a clear error naming the server; with the client, which of its
 * errors say the server cannot be used now (store-outage.ts).
 */
export async function connectRedis(
  options: RedisStoreOptions,
): Promise<{ redis: Redis; isOutage: (err: unknown) => boolean }> {
  // Fail fast rather than queue: a request while Redis is away gets an error at once
  // (and /healthz a 503) instead of hanging until the connection returns.
  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    ...(options.commandTimeoutMs !== undefined ? { commandTimeout: options.commandTimeoutMs } : {}),
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => undefined); // reported by the commands that fail; the client reconnects by itself
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactUrl(options.url)}: ${(err as Error).message}`, { cause: err });
  }
  // A command failing while the client is not connected (refused, reset, timed out), or
  // left unanswered on a connection that looks up, is an outage; Redis's own answers to a
  // command (ReplyError) are not.
  const isOutage = (err: unknown) =>
    !(err instanceof ReplyError) &&
    (redis.status !== 'ready' || (err instanceof Error && err.message === COMMAND_TIMED_OUT));
  return { redis, isOutage };
}

/** A record's key: `<prefix><kind>:<id>`, the one naming the keys and the ledger share. */
export function redisKey(prefix: string, kind: string, id: string): string {
  return `${prefix}${kind}:${id}`;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
