/**
 * The host gate on Redis, shared by every instance: a host's holders are a sorted set of
 * tokens scored by their lease's end (`<prefix>host-slots:<host>`), its last paced start a
 * string (`<prefix>host-start:<host>`). Each step is one Lua script timed by Redis's own
 * TIME, so the instances' clocks never meet. A holder renews its lease every third of it
 * until released; one whose instance died (kill -9) frees its slot when the lease ends.
 * Both keys expire on their own, so an idle host leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { abortReason } from '../../core/abort-reason.js';
import {
  checkHostGateRequest,
  HOST_START_MEMORY_MS,
  type HostGate,
  type HostGateRequest,
  type HostPass,
} from '../../core/ports/host-gate.js';
import { redisKey } from './redis-connection.js';

/** Milliseconds since the epoch by the Redis server's clock. */
const NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * KEYS: slots, start. ARGV: token, limit, delay ms (0: unpaced), lease ms, start memory ms.
 * Takes a slot, or returns {0, ms until the spacing allows a start, ms until the earliest
 * lease ends (0 when a slot is free)}.
 */
const TAKE = `${NOW}
local limit, delay, lease = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local gap = 0
if delay > 0 then
  local last = redis.call('GET', KEYS[2])
  if last then gap = math.max(tonumber(last) + delay - now, 0) end
end
local full = 0
if redis.call('ZCARD', KEYS[1]) >= limit then
  full = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) - now
end
if gap > 0 or full > 0 then return {0, gap, full} end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
-- Every score is at most now + lease: the set outlives none of its leases.
redis.call('PEXPIRE', KEYS[1], lease)
if delay > 0 then redis.call('SET', KEYS[2], now, 'PX', math.max(delay, tonumber(ARGV[5]))) end
return {1, 0, 0}
`;

/** KEYS: slots. ARGV: token, lease ms. 1 when renewed; 0 when the lease had ended (the slot may be another's). */
const RENEW = `${NOW}
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if tonumber(score) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

interface Scripts {
  wsmHostTake(...args: (string | number)[]): Promise<[number, number, number]>;
  wsmHostRenew(...args: (string | number)[]): Promise<number>;
}

/** A waiter's first poll of a full host, doubled up to the last: a release is seen within it. */
const FIRST_POLL_MS = 10;
const LAST_POLL_MS = 100;

export interface RedisHostGateOptions {
  /** How long a slot outlives its holder's instance (15 s); renewed every third of it. */
  leaseMs?: number;
}

export class RedisHostGate implements HostGate {
  readonly #redis: Redis & Scripts;
  readonly #p: string;
  readonly #leaseMs: number;

  constructor(redis: Redis, prefix: string, options: RedisHostGateOptions = {}) {
    redis.defineCommand('wsmHostTake', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('wsmHostRenew', { numberOfKeys: 1, lua: RENEW });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
    this.#leaseMs = options.leaseMs ?? 15_000;
  }

  async acquire(host: string, request: HostGateRequest): Promise<HostPass> {
    checkHostGateRequest(request);
    const slots = redisKey(this.#p, 'host-slots', host);
    const token = randomUUID();
    await this.#take(slots, redisKey(this.#p, 'host-start', host), token, request);
    return this.#hold(slots, token);
  }

  async #take(slots: string, start: string, token: string, { limit, delayMs, signal }: HostGateRequest): Promise<void> {
    // PX and the scores take whole milliseconds; rounding up keeps the spacing.
    const delay = Math.ceil(delayMs);
    for (let poll = FIRST_POLL_MS; ; poll = Math.min(poll * 2, LAST_POLL_MS)) {
      if (signal.aborted) throw abortReason(signal);
      const [taken, gapMs, leaseEndsInMs] = await this.#redis.wsmHostTake(
        slots,
        start,
        token,
        limit,
        delay,
        this.#leaseMs,
        HOST_START_MEMORY_MS,
      );
      if (taken === 1) {
        if (!signal.aborted) return;
        // Aborted while the script ran: the slot goes back (the start stays counted: harmless).
        await this.#redis.zrem(slots, token).catch(() => undefined);
        throw abortReason(signal);
      }
      // The spacing's wait is exact; a slot may free before its lease ends (a release): poll.
      const waitMs = Math.max(gapMs, leaseEndsInMs > 0 ? Math.min(leaseEndsInMs, poll) : 0);
      await sleep(waitMs, undefined, { signal }).catch((err: unknown) => {
        throw signal.aborted ? abortReason(signal) : err;
      });
    }
  }

  /** The pass: its lease renewed every third of it until released, or until it surely ended. */
  #hold(slots: string, token: string): HostPass {
    const leaseMs = this.#leaseMs;
    let released: Promise<void> | undefined;
    let renewedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const renew = async (): Promise<void> => {
      try {
        // 0: the lease ended (this instance stalled past it), and the slot may be another's.
        if ((await this.#redis.wsmHostRenew(slots, token, leaseMs)) !== 1) return;
        renewedAt = performance.now();
      } catch {
        // Redis away: try again while the lease may still stand.
        if (performance.now() - renewedAt >= leaseMs) return;
      }
      if (released === undefined) schedule();
    };
    const schedule = (): void => {
      timer = setTimeout(() => void renew(), leaseMs / 3);
      timer.unref();
    };
    schedule();
    return {
      release: () =>
        (released ??= (async () => {
          clearTimeout(timer);
          // After any renewal in flight, on the one connection; if it fails, the lease ends by itself.
          await this.#redis.zrem(slots, token).catch(() => undefined);
        })()),
    };
  }
}
