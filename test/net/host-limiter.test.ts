import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { HostLimiter } from '../../src/net/host-limiter.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HostLimiter', () => {
  it('grants up to the limit at once, then queues in FIFO order', async () => {
    const limiter = new HostLimiter(2);
    const order: number[] = [];
    const a = await limiter.acquire('h:80');
    const b = await limiter.acquire('h:80');
    const waiting = [3, 4, 5].map((n) => limiter.acquire('h:80').then((release) => (order.push(n), release)));
    await tick();
    expect(limiter.active('h:80')).toBe(2);
    expect(limiter.waiting('h:80')).toBe(3);
    a();
    const third = await waiting[0];
    b();
    const fourth = await waiting[1];
    expect(order).toEqual([3, 4]);
    third?.();
    const fifth = await waiting[2];
    fourth?.();
    fifth?.();
    expect(order).toEqual([3, 4, 5]);
    expect(limiter.active('h:80')).toBe(0);
  });

  it('keys are independent', async () => {
    const limiter = new HostLimiter(1);
    const a = await limiter.acquire('a:80');
    const b = await limiter.acquire('b:80');
    expect(limiter.active('a:80')).toBe(1);
    expect(limiter.active('b:80')).toBe(1);
    a();
    b();
  });

  it('releasing twice frees one slot only', async () => {
    const limiter = new HostLimiter(1);
    const first = await limiter.acquire('h');
    const second = limiter.acquire('h');
    const third = limiter.acquire('h');
    first();
    first();
    await second;
    await tick();
    expect(limiter.active('h')).toBe(1);
    expect(limiter.waiting('h')).toBe(1);
    (await second)();
    (await third)();
    expect(limiter.active('h')).toBe(0);
  });

  it('an aborted waiter leaves the queue and never takes a slot', async () => {
    const limiter = new HostLimiter(1);
    const held = await limiter.acquire('h');
    const controller = new AbortController();
    const waiting = limiter.acquire('h', controller.signal);
    controller.abort(new AppError('timeout', 'deadline'));
    await expect(waiting).rejects.toMatchObject({ code: 'timeout' });
    expect(limiter.waiting('h')).toBe(0);
    held();
    expect(limiter.active('h')).toBe(0);
    await expect(limiter.acquire('h', controller.signal)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('an abort without an Error reason becomes AppError "cancelled"', async () => {
    const limiter = new HostLimiter(1);
    const held = await limiter.acquire('h');
    const controller = new AbortController();
    const waiting = limiter.acquire('h', controller.signal);
    controller.abort('bye');
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    held();
  });

  it('rejects a limit below 1', () => {
    expect(() => new HostLimiter(0)).toThrow(RangeError);
  });
});
