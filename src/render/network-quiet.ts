/**
 * "The page stopped fetching": requests in flight counted from the start of a render, and a
 * wait for a short quiet window after `load`. Playwright's `networkidle` insists on 500 ms
 * of silence on every page, which is most of a render's time when the app's data arrived
 * long before; a shorter window bounded by the deadline costs static-ish pages little and
 * still lets an XHR-mounted app finish.
 */
import type { Page } from 'playwright-core';

export interface NetworkTracker {
  /** Resolves after `quietMs` with nothing in flight, or after `maxMs` at the latest. */
  quiet(quietMs: number, maxMs: number): Promise<void>;
  dispose(): void;
}

export function trackNetwork(page: Page): NetworkTracker {
  let inflight = 0;
  // The quiet window counts from the last request's end, which may precede the wait.
  let lastActivity = performance.now();
  let changed: (() => void) | undefined;
  const started = (): void => {
    inflight++;
    lastActivity = performance.now();
    changed?.();
  };
  const ended = (): void => {
    inflight = Math.max(0, inflight - 1);
    lastActivity = performance.now();
    changed?.();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    quiet: (quietMs, maxMs) =>
      new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const done = (): void => {
          clearTimeout(timer);
          clearTimeout(cap);
          changed = undefined;
          resolve();
        };
        const cap = setTimeout(done, maxMs);
        changed = () => {
          clearTimeout(timer);
          if (inflight === 0) timer = setTimeout(done, Math.max(0, quietMs - (performance.now() - lastActivity)));
        };
        changed();
      }),
    dispose: () => {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
      changed = undefined;
    },
  };
}
