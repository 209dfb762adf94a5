/**
 * The turns at the conversion workers (src/workers/fair-queue.ts), without threads: a key
 * that floods the queue holds no more than its share of the slots while another waits, a
 * key's own tasks keep their order, a waiting task that is cancelled leaves its lane, a
 * full queue refuses at once, and one key cannot fill it for all the others.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { FairQueue, type Refusal, type ReleaseSlot } from '../../src/workers/fair-queue.js';

const refused = (why: Refusal) => new AppError('busy', why);
const never = () => new AbortController().signal;

/** A queue whose tasks record the order they start in, and are released by the test. */
function harness(slots: number, maxWaiting = 100) {
  const queue = new FairQueue({ slots, maxWaiting });
  const started: string[] = [];
  const releases = new Map<string, ReleaseSlot>();
  const submit = (lane: string, task: string, signal: AbortSignal = never()) =>
    queue.acquire(lane, signal, refused).then((release) => {
      started.push(task);
      releases.set(task, release);
    });
  const finish = async (task: string) => {
    releases.get(task)?.();
    // Let the next task's start (a resolved promise) run.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, submit, finish };
}

describe('FairQueue', () => {
  it("gives a freed slot to the waiting key with the fewest running, not to the flooding key's next task", async () => {
    const { started, submit, finish } = harness(2);
    for (const n of [1, 2, 3, 4, 5, 6]) void submit('A', `A${n}`);
    await finish('none');
    expect(started).toEqual(['A1', 'A2']);
    void submit('B', 'B1');
    await finish('A1');
    // A still runs A2; B runs nothing: B's task goes first, then A's in their order.
    expect(started).toEqual(['A1', 'A2', 'B1']);
    await finish('A2');
    await finish('B1');
    await finish('A3');
    expect(started).toEqual(['A1', 'A2', 'B1', 'A3', 'A4', 'A5']);
  });

  it('takes keys in turn, round-robin, each key in its own order', async () => {
    const { started, submit, finish } = harness(1);
    void submit('A', 'A1');
    for (const n of [2, 3, 4]) void submit('A', `A${n}`);
    for (const n of [1, 2]) void submit('B', `B${n}`);
    void submit('C', 'C1');
    await finish('none');
    for (const task of ['A1', 'B1', 'C1', 'A2', 'B2', 'A3']) await finish(task);
    expect(started).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'A4']);
  });

  it('a waiting task whose signal fires leaves its lane with that reason, and the next takes its turn', async () => {
    const { queue, started, submit, finish } = harness(1);
    void submit('A', 'A1');
    const controller = new AbortController();
    const cancelled = submit('B', 'B1', controller.signal).catch((e: unknown) => e);
    void submit('B', 'B2');
    await finish('none');
    expect(queue.waitingIn('B')).toBe(2);
    const reason = new AppError('cancelled', 'gone');
    controller.abort(reason);
    expect(await cancelled).toBe(reason);
    expect(queue.waitingIn('B')).toBe(1);
    expect(queue.waiting).toBe(1);
    await finish('A1');
    expect(started).toEqual(['A1', 'B2']);
  });

  it('refuses a task whose signal already fired, taking no slot', async () => {
    const { queue } = harness(1);
    const reason = new AppError('timeout', 'late');
    expect(await queue.acquire('A', AbortSignal.abort(reason), refused).catch((e: unknown) => e)).toBe(reason);
    expect(queue.active).toBe(0);
  });

  it('a full queue refuses at once; a key with fewer waiting takes the place of the longest lane’s newest task', async () => {
    const { queue, started, submit, finish } = harness(1, 3);
    void submit('A', 'A1');
    const outcomes = ['A2', 'A3', 'A4'].map((task) =>
      submit('A', task).then(
        () => 'started',
        (e: AppError) => e.message,
      ),
    );
    await finish('none');
    // Full, and A holds every place: A's fifth is refused...
    expect(await submit('A', 'A5').catch((e: AppError) => e.message)).toBe('full');
    // ...but B's first takes the place of A's newest.
    void submit('B', 'B1');
    expect(await outcomes[2]).toBe('displaced');
    expect([queue.waitingIn('A'), queue.waitingIn('B')]).toEqual([2, 1]);
    // B now waits 1 and A 2: no more places move (a tie would only swap them back and forth).
    expect(await submit('B', 'B2').catch((e: AppError) => e.message)).toBe('full');
    await finish('A1');
    expect(started).toEqual(['A1', 'B1']);
  });

  it('a slot given back twice frees one slot', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 4 });
    const release = await queue.acquire('A', never(), refused);
    const started: string[] = [];
    void queue.acquire('A', never(), refused).then(() => started.push('A2'));
    void queue.acquire('B', never(), refused).then(() => started.push('B1'));
    release();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    // B was never served: its turn comes first; A's second still waits.
    expect(started).toEqual(['B1']);
    expect([queue.active, queue.waiting]).toEqual([1, 1]);
  });

  it('refuses every waiting task when closed', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 4 });
    await queue.acquire('A', never(), refused);
    const waiting = [queue.acquire('A', never(), refused), queue.acquire('B', never(), refused)].map((p) =>
      p.catch((e: AppError) => e.message),
    );
    queue.refuseAll(() => new AppError('busy', 'closed'));
    expect(await Promise.all(waiting)).toEqual(['closed', 'closed']);
    expect(queue.waiting).toBe(0);
  });
});
