/**
 * Scripts the renderer runs in a page: read the document, wait for a selector, measure the
 * page. Each runs in a fresh isolated world through the page's own DevTools session (the
 * page's scripts cannot redefine what it calls), and again in the next document when a
 * navigation (a script's redirect) replaces the one it ran in. Playwright's
 * `waitForFunction`, `waitForSelector` and `content()` first load its injected script
 * (hundreds of KB) into every new document, which cost more renderer time than the wait
 * and the read themselves.
 */
import { AppError } from '../core/errors.js';
import type { PooledPage } from './page-pool.js';

/** How often a condition is looked at again while a script waits. */
const POLL_MS = 50;
/** Navigations that may replace the document while a script runs in it. */
const RUN_ATTEMPTS = 3;

/** Runs `expression` (a value or a promise of one) in an isolated world of the main frame's current document. */
export async function evaluateIsolated<T>(pooled: PooledPage, expression: () => string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { executionContextId } = await pooled.cdp.send('Page.createIsolatedWorld', {
      frameId: pooled.frameId,
      worldName: 'websearch-read',
    });
    const evaluation = await pooled.cdp
      .send('Runtime.evaluate', {
        expression: expression(),
        contextId: executionContextId,
        returnByValue: true,
        awaitPromise: true,
      })
      .catch((error: unknown) => error as Error);
    // The document went away under the script (a navigation): it runs in the next one.
    if (evaluation instanceof Error) {
      if (
        attempt < RUN_ATTEMPTS &&
        /context was destroyed|Cannot find context|Inspected target navigated/i.test(evaluation.message)
      )
        continue;
      throw evaluation;
    }
    const { result, exceptionDetails } = evaluation;
    if (exceptionDetails) throw new Error(`a script in the page failed: ${exceptionDetails.text}`);
    return result.value as T;
  }
}

/**
 * The page's doctype and markup, as `page.content()` gives them, once its body has a letter
 * or digit a reader would see, or after `waitMs()`.
 */
export async function documentHtml(pooled: PooledPage, waitMs: () => number): Promise<string> {
  const html = await evaluateIsolated<unknown>(
    pooled,
    () => `new Promise((resolve) => {
  const readable = () => /[\\p{L}\\p{N}]/u.test((document.body && document.body.innerText) || "");
  const read = () => resolve((document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "") + (document.documentElement ? document.documentElement.outerHTML : ""));
  const until = Date.now() + ${waitMs()};
  const check = () => (readable() || Date.now() >= until ? read() : setTimeout(check, ${POLL_MS}));
  check();
})`,
  );
  if (typeof html !== 'string') throw new Error(`the document could not be read: ${typeof html}`);
  return html;
}

/**
 * Resolves once `selector` matches an element of the page; fails `timeout`, naming the
 * selector, when it still matches nothing after `waitMs()` (checked every POLL_MS).
 */
export async function waitForSelector(pooled: PooledPage, selector: string, waitMs: () => number): Promise<void> {
  const started = performance.now();
  const outcome = await evaluateIsolated<unknown>(
    pooled,
    () => `new Promise((resolve) => {
  const selector = ${JSON.stringify(selector)};
  try { document.querySelector(selector); } catch (error) { resolve("invalid"); return; }
  const until = Date.now() + ${waitMs()};
  const check = () => (document.querySelector(selector) ? resolve("found") : Date.now() >= until ? resolve("missing") : setTimeout(check, ${POLL_MS}));
  check();
})`,
  );
  if (outcome === 'found') return;
  if (outcome === 'invalid') {
    throw new AppError('render_failed', `The selector ${JSON.stringify(selector)} is not a valid CSS selector.`, {
      statusCode: 0,
    });
  }
  throw new AppError(
    'timeout',
    `The selector ${JSON.stringify(selector)} matched nothing on the page within ${Math.round(performance.now() - started)} ms (what was left of the URL's deadline).`,
    { statusCode: 0, retryable: true },
  );
}

/** The height of the page's content in CSS pixels (at least 1). */
export async function pageHeight(pooled: PooledPage): Promise<number> {
  const height = await evaluateIsolated<unknown>(
    pooled,
    () =>
      'Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0)',
  );
  return typeof height === 'number' && Number.isFinite(height) ? Math.max(1, Math.ceil(height)) : 1;
}
