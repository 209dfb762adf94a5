/**
 * The request's context: its deadline fixed once, its signal firing at the deadline
 * (`timeout`) or on the client's disconnect (`cancelled`), its logger stamped with its id,
 * and the scopes under it (a port's, a shorter budget's) never outliving it.
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_CALLER } from '../../src/core/caller.js';
import { DeadlineScope, now } from '../../src/core/deadline-scope.js';
import { AppError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import { incomingRequest, timeLeft, withRequestContext } from '../../src/core/request-context.js';

const aborted = (signal: AbortSignal) =>
  new Promise<AppError>((resolve) =>
    signal.addEventListener('abort', () => resolve(signal.reason as AppError), { once: true }),
  );

describe('withRequestContext', () => {
  it('fixes the deadline once and fires the signal at it with timeout', async () => {
    const started = now();
    await withRequestContext(incomingRequest({ caller: LOCAL_CALLER, logger: silentLogger }), 80, async (ctx) => {
      expect(ctx.deadline - started).toBeGreaterThanOrEqual(80);
      expect(ctx.deadline - started).toBeLessThan(100);
      expect(Object.isFrozen(ctx)).toBe(true);
      expect(await aborted(ctx.signal)).toMatchObject({ code: 'timeout', retryable: true });
      expect(timeLeft(ctx)).toBeLessThanOrEqual(0);
    });
  });

  it('fires the signal with cancelled when the client goes away', async () => {
    const client = new AbortController();
    await withRequestContext(
      incomingRequest({ caller: LOCAL_CALLER, logger: silentLogger, cancel: client.signal }),
      60_000,
      async (ctx) => {
        client.abort();
        expect(ctx.signal.reason).toMatchObject({ code: 'cancelled' });
      },
    );
  });

  it('carries the id the face minted, and a logger that stamps it', async () => {
    const bound: Record<string, unknown>[] = [];
    const logger: Logger = { ...silentLogger, child: (bindings) => (bound.push(bindings), silentLogger) };
    const incoming = incomingRequest({ caller: LOCAL_CALLER, logger, id: 'req_01JTEST00000000000000000000' });
    await withRequestContext(incoming, 1_000, async (ctx) => {
      expect(ctx.id).toBe('req_01JTEST00000000000000000000');
      expect(ctx.caller).toBe(LOCAL_CALLER);
    });
    expect(bound).toEqual([{ request_id: 'req_01JTEST00000000000000000000' }]);
    expect(incomingRequest({ caller: LOCAL_CALLER, logger: silentLogger }).id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe('DeadlineScope', () => {
  it('ends a shorter budget at its own time, a longer one at the parent deadline', async () => {
    const parent = { deadline: now() + 100, signal: new AbortController().signal };
    const shorter = new DeadlineScope(parent, { budgetMs: 30 });
    const longer = new DeadlineScope(parent, { budgetMs: 10_000 });
    try {
      expect(shorter.deadline).toBeLessThan(parent.deadline);
      expect(longer.deadline).toBe(parent.deadline);
      expect(await aborted(shorter.signal)).toMatchObject({ code: 'timeout' });
      expect(longer.signal.aborted).toBe(false);
      expect(await aborted(longer.signal)).toMatchObject({ code: 'timeout' });
    } finally {
      shorter.dispose();
      longer.dispose();
    }
  });

  it("keeps a parent's timeout a timeout and its cancellation a cancellation, in its own words", () => {
    const timedOut = new AbortController();
    const cancelled = new AbortController();
    const a = new DeadlineScope(
      { deadline: Infinity, signal: timedOut.signal },
      { timeout: (ms) => new AppError('timeout', `own budget of ${ms} ms`) },
    );
    const b = new DeadlineScope({ deadline: Infinity, signal: cancelled.signal });
    timedOut.abort(new AppError('timeout', "the request's deadline passed"));
    cancelled.abort(new Error('client went away'));
    expect(a.failure).toMatchObject({ code: 'timeout', message: expect.stringMatching(/^own budget/) });
    expect(b.failure).toMatchObject({ code: 'cancelled' });
    expect(a.signal.reason).toBe(a.failure);
    a.dispose();
    b.dispose();
  });

  it("fires a scope that ends with its parent scope only after the parent, so the parent's budget is what a caller reports", async () => {
    const root = { deadline: now() + 60_000, signal: new AbortController().signal };
    for (let round = 0; round < 5; round++) {
      const budget = new DeadlineScope(root, {
        budgetMs: 15,
        timeout: (ms) => new AppError('timeout', `the engine did not answer within ${ms} ms`),
      });
      // Opened a moment later in the same turn, as a fetch under an engine's budget is: it
      // has fewer ms left, counted from the same cached loop time, so its own timer would fire first.
      const later = now() + 1 + round / 2;
      while (now() < later);
      const fetch = new DeadlineScope(budget);
      const reason = await aborted(fetch.signal);
      expect(budget.failure).toBeDefined();
      expect(reason).toMatchObject({ code: 'timeout' });
      fetch.dispose();
      budget.dispose();
    }
  });

  it('takes a request fan-out of scopes side by side without a leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const parent = new DeadlineScope({ deadline: now() + 60_000, signal: new AbortController().signal });
      const children = Array.from({ length: 46 }, () => new DeadlineScope(parent));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      for (const child of children) child.dispose();
      parent.dispose();
    } finally {
      process.off('warning', onWarning);
    }
  });
});
