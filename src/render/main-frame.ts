/**
 * What happened to the page's main frame during a render, as a fetch would report it: the
 * status of the last document it loaded (a script's or a meta refresh's navigation
 * included), the URL it ended on, and whether its last navigation failed into the
 * browser's error page (Chromium then shows `chrome-error://chromewebdata/`, not the URL
 * that failed) or its renderer crashed.
 */
import type { Page, Request, Response } from 'playwright-core';

export interface MainFrameTracker {
  status(): number;
  /** The URL the main frame ended on; the failed URL and its network error when it ended on the error page. */
  final(): { url: string; navigationError?: string };
  crashed(): boolean;
  /**
   * `step`, or a rejection as soon as the page's renderer crashes: a DevTools call to a
   * crashed renderer (the watchdog killed it) gets no answer and would hold the render until
   * its deadline.
   */
  untilCrash<T>(step: Promise<T>): Promise<T>;
  dispose(): void;
}

export function trackMainFrame(page: Page, initialStatus: number): MainFrameTracker {
  let status = initialStatus;
  let failed: { url: string; error: string } | undefined;
  let crashed = false;
  let onCrashed: (() => void) | undefined;
  const crash = new Promise<never>((_, reject) => {
    onCrashed = () => reject(new Error('Target crashed'));
  });
  // Observed only by the renders that race against it.
  crash.catch(() => undefined);
  const main = (request: Request): boolean => request.isNavigationRequest() && request.frame() === page.mainFrame();
  // Documents that were answered: one whose body is cut short when a script moves the frame
  // on fails (net::ERR_ABORTED) after it committed, at times after the next navigation failed.
  const answered = new WeakSet<Request>();
  const onResponse = (response: Response): void => {
    if (!main(response.request())) return;
    answered.add(response.request());
    status = response.status();
    failed = undefined;
  };
  const onFailed = (request: Request): void => {
    if (main(request) && !answered.has(request)) {
      failed = { url: request.url(), error: request.failure()?.errorText ?? 'failed' };
    }
  };
  const onCrash = (): void => {
    crashed = true;
    onCrashed?.();
  };
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  page.on('crash', onCrash);
  return {
    status: () => status,
    final: () => {
      const url = page.url();
      // A navigation that failed without replacing the document (a download, one cut short by
      // another) leaves the page where it was.
      return failed && url.startsWith('chrome-error:') ? { url: failed.url, navigationError: failed.error } : { url };
    },
    crashed: () => crashed,
    untilCrash: (step) => Promise.race([step, crash]),
    dispose: () => {
      page.off('response', onResponse);
      page.off('requestfailed', onFailed);
      page.off('crash', onCrash);
    },
  };
}
