/** The lane under per-call rules: what a host gate's callers pass (each their limit and delay). */
import { describe, expect, it } from 'vitest';
import { Lane, type LaneRule } from '../../src/core/lane.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const rule = (maxConcurrent: number, intervalMs: number): LaneRule => ({ maxConcurrent, intervalMs });

/** The promise, and whether it has settled yet. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; started: () => boolean } {
  let settled = false;
  void promise.then(() => (settled = true));
  return { promise, started: () => settled };
}

describe('Lane with per-call rules', () => {
  it("spaces a start from the previous paced one by its caller's interval; an interval of 0 neither waits nor counts", async () => {
    let now = 0;
    const lane = new Lane(rule(Infinity, 0), () => now);
    (await lane.acquire(undefined, rule(Infinity, 1_000)))();
    // The lane's own rule (interval 0): no wait, whatever the previous caller's interval.
    (await lane.acquire())();
    now = 600;
    // Unpaced, at 600: does not move the last paced start (0).
    (await lane.acquire(undefined, rule(Infinity, 0)))();
    const paced = watch(lane.acquire(undefined, rule(Infinity, 1_000)));
    await tick();
    expect(paced.started()).toBe(false);
    now = 1_000;
    await new Promise((r) => setTimeout(r, 450));
    expect(paced.started()).toBe(true);
    (await paced.promise)();
  });

  it('lets a later waiter pass one that its own rule holds back, in arrival order otherwise', async () => {
    let now = 0;
    const lane = new Lane(rule(1, 0), () => now);
    const held = await lane.acquire(undefined, rule(2, 500));
    const spaced = watch(lane.acquire(undefined, rule(2, 500)));
    const capped = watch(lane.acquire(undefined, rule(1, 0)));
    const unpaced = watch(lane.acquire(undefined, rule(2, 0)));
    await tick();
    // The spaced waiter holds no slot while it waits: the unpaced one takes the second.
    expect([spaced.started(), capped.started(), unpaced.started()]).toEqual([false, false, true]);
    expect(lane.active).toBe(2);
    expect(lane.waiting).toBe(2);
    held();
    (await unpaced.promise)();
    await tick();
    // A slot is free, but the spaced waiter's gap has not passed: the capped one (cap 1) goes.
    expect([spaced.started(), capped.started()]).toEqual([false, true]);
    (await capped.promise)();
    now = 500;
    await new Promise((r) => setTimeout(r, 520));
    expect(spaced.started()).toBe(true);
    (await spaced.promise)();
    expect(lane.active).toBe(0);
  });
});
