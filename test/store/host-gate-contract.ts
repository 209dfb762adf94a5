/**
 * The host gate's contract (core/ports/host-gate.ts), run against every adapter with three
 * gates standing for three instances: the in-process adapter passes one gate three times
 * (one process), the Redis adapter three gates on three clients of one server.
 */
import { expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import type { HostGate, HostPass } from '../../src/core/ports/host-gate.js';
import { sleep } from './contract-helpers.js';

export interface GateFleet {
  /** Three instances' gates. */
  gates: [HostGate, HostGate, HostGate];
  close(): Promise<void>;
}

const open = () => new AbortController().signal;
let hosts = 0;
/** A host of this test only (a fleet may share its store with other tests). */
const freshHost = () => `h${++hosts}-${Date.now()}.example:443`;

/** Whether `promise` is still pending after `ms`. */
export async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([promise, sleep(ms).then(() => marker)])) === marker;
}

export function hostGateContract(name: string, makeFleet: () => Promise<GateFleet>): void {
  const withFleet = (title: string, body: (fleet: GateFleet) => Promise<void>) =>
    it(`${name}: ${title}`, async () => {
      const fleet = await makeFleet();
      try {
        await body(fleet);
      } finally {
        await fleet.close();
      }
    }, 20_000);

  withFleet(
    'never lets more than `limit` hold a host at once, with many acquirers on three instances',
    async ({ gates }) => {
      const host = freshHost();
      const limit = 3;
      let holding = 0;
      let most = 0;
      const work = Array.from({ length: 36 }, async (_, i) => {
        const pass = await (gates[i % 3] as HostGate).acquire(host, { limit, delayMs: 0, signal: open() });
        holding++;
        most = Math.max(most, holding);
        await sleep(5 + (i % 4) * 5);
        holding--;
        await pass.release();
      });
      await Promise.all(work);
      expect(most).toBe(limit);
      expect(holding).toBe(0);
    },
  );

  withFleet('spaces the starts on a host by at least delayMs across three instances', async ({ gates }) => {
    const host = freshHost();
    const delayMs = 250;
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const pass = await (gates[i % 3] as HostGate).acquire(host, { limit: 10, delayMs, signal: open() });
        starts.push(performance.now());
        await pass.release();
      }),
    );
    starts.sort((a, b) => a - b);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    // A start is seen a little after the store granted it (a round trip, a busy event loop):
    // each gap may look shorter by that much, but the whole run cannot.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(delayMs - 25);
    expect((starts.at(-1) as number) - (starts[0] as number)).toBeGreaterThanOrEqual(5 * delayMs - 25);
  });

  withFleet('an acquire with delay 0 neither waits for the spacing nor counts in it', async ({ gates }) => {
    const host = freshHost();
    // Long enough that a loaded machine's delays (hundreds of ms) cannot turn one outcome into the other.
    const delayMs = 1_000;
    // Asked before the first start, seen after it: the lower bound holds exactly.
    const firstAsked = performance.now();
    const first = await gates[0].acquire(host, { limit: 5, delayMs, signal: open() });
    const firstAt = performance.now();
    const paced = gates[1].acquire(host, { limit: 5, delayMs, signal: open() });
    await sleep(delayMs / 2);
    const unpaced = await gates[2].acquire(host, { limit: 5, delayMs: 0, signal: open() });
    // It did not wait for the spacing: the paced caller, asked before it, is still waiting.
    expect(await pendingAfter(paced, 0)).toBe(true);
    const second = await paced;
    const secondAt = performance.now();
    // From the first start: counted, the unpaced start would have put it past 1.5 delays.
    expect(secondAt - firstAsked).toBeGreaterThanOrEqual(delayMs - 2);
    expect(secondAt - firstAt).toBeLessThan(1.25 * delayMs);
    await Promise.all([first.release(), second.release(), unpaced.release()]);
  });

  withFleet('a waiter held back by the spacing holds no slot', async ({ gates }) => {
    const host = freshHost();
    const paced = { limit: 2, delayMs: 10_000 };
    const first = await gates[0].acquire(host, { ...paced, signal: open() });
    const controller = new AbortController();
    const spaced = gates[1].acquire(host, { ...paced, signal: controller.signal });
    expect(await pendingAfter(spaced, 50)).toBe(true);
    // One pass out of two: an unpaced caller takes the second slot at once...
    const unpaced = await gates[2].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    // ...and then the host is full.
    const full = gates[0].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    expect(await pendingAfter(full, 150)).toBe(true);
    controller.abort(new AppError('cancelled', 'done'));
    await expect(spaced).rejects.toMatchObject({ code: 'cancelled' });
    await first.release();
    await Promise.all([unpaced.release(), (await full).release()]);
  });

  withFleet('an abort while waiting for a slot rejects with the reason and takes nothing', async ({ gates }) => {
    const host = freshHost();
    const held = await gates[0].acquire(host, { limit: 1, delayMs: 0, signal: open() });
    const controller = new AbortController();
    const waiting = gates[1].acquire(host, { limit: 1, delayMs: 0, signal: controller.signal });
    expect(await pendingAfter(waiting, 100)).toBe(true);
    const reason = new AppError('timeout', 'the deadline passed');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await held.release();
    // The aborted waiter holds nothing: the only slot goes to the next at once, then is full.
    const next = await gates[2].acquire(host, { limit: 1, delayMs: 0, signal: open() });
    const after = gates[0].acquire(host, { limit: 1, delayMs: 0, signal: open() });
    expect(await pendingAfter(after, 150)).toBe(true);
    await next.release();
    await (await after).release();
    // An already aborted signal fails at once.
    await expect(gates[1].acquire(host, { limit: 1, delayMs: 0, signal: controller.signal })).rejects.toBe(reason);
  });

  withFleet('an abort while waiting for the spacing takes no slot and counts no start', async ({ gates }) => {
    const host = freshHost();
    // Long enough that a loaded machine's delays cannot turn one outcome into the other.
    const delayMs = 1_000;
    const firstAsked = performance.now();
    const first = await gates[0].acquire(host, { limit: 1, delayMs, signal: open() });
    const firstAt = performance.now();
    await first.release();
    const controller = new AbortController();
    const waiting = gates[1].acquire(host, { limit: 1, delayMs, signal: controller.signal });
    expect(await pendingAfter(waiting, 50)).toBe(true);
    controller.abort('gone');
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    const third = await gates[2].acquire(host, { limit: 1, delayMs, signal: open() });
    const thirdAt = performance.now();
    await third.release();
    // Spaced from the first start, not from the aborted one's (which would be 2 delays).
    expect(thirdAt - firstAsked).toBeGreaterThanOrEqual(delayMs - 2);
    expect(thirdAt - firstAt).toBeLessThan(1.5 * delayMs);
  });

  withFleet('release is idempotent: releasing twice frees one slot', async ({ gates }) => {
    const host = freshHost();
    const a = await gates[0].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    const b = await gates[1].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    await Promise.all([a.release(), a.release()]);
    await a.release();
    const c = await gates[2].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    const d = gates[0].acquire(host, { limit: 2, delayMs: 0, signal: open() });
    expect(await pendingAfter(d, 150)).toBe(true);
    await b.release();
    const passD: HostPass = await d;
    await Promise.all([c.release(), passD.release()]);
  });

  withFleet('different hosts do not block each other', async ({ gates }) => {
    const [one, other] = [freshHost(), freshHost()];
    const held = await gates[0].acquire(one, { limit: 1, delayMs: 10_000, signal: open() });
    const started = performance.now();
    const elsewhere = await gates[1].acquire(other, { limit: 1, delayMs: 10_000, signal: open() });
    const onOtherInstance = await gates[2].acquire(`x${other}`, { limit: 1, delayMs: 10_000, signal: open() });
    expect(performance.now() - started).toBeLessThan(1_000);
    await Promise.all([held.release(), elsewhere.release(), onOtherInstance.release()]);
  });

  withFleet('refuses a limit or a delay out of range', async ({ gates }) => {
    const host = freshHost();
    await expect(gates[0].acquire(host, { limit: 0, delayMs: 0, signal: open() })).rejects.toThrow(RangeError);
    await expect(gates[0].acquire(host, { limit: 1.5, delayMs: 0, signal: open() })).rejects.toThrow(RangeError);
    await expect(gates[0].acquire(host, { limit: 1, delayMs: -1, signal: open() })).rejects.toThrow(RangeError);
    await expect(gates[0].acquire(host, { limit: 1, delayMs: NaN, signal: open() })).rejects.toThrow(RangeError);
  });
}
