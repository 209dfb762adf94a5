/**
 * A PNG of the rendered page: the viewport's width (VIEWPORT.width), the page's full height
 * up to a cap (a longer page is cut there), refused `too_large` past a size cap. Taken by
 * CDP in the page's own session (`captureBeyondViewport`: no viewport resize, no reflow).
 */
import { AppError } from '../core/errors.js';
import type { PooledPage } from './page-pool.js';
import { pageHeight } from './page-script.js';

/** The window every page is laid out in (CSS pixels, device scale 1). */
export const VIEWPORT = { width: 1280, height: 720 };

export interface ScreenshotLimits {
  /** WEBSEARCH_SCREENSHOT_MAX_HEIGHT: pixels of page height kept. */
  maxHeight: number;
  /** WEBSEARCH_SCREENSHOT_MAX_BYTES: largest PNG returned. */
  maxBytes: number;
}

export async function takeScreenshot(pooled: PooledPage, limits: ScreenshotLimits): Promise<Uint8Array> {
  const height = Math.min(await pageHeight(pooled), limits.maxHeight);
  const { data } = await pooled.cdp.send('Page.captureScreenshot', {
    format: 'png',
    clip: { x: 0, y: 0, width: VIEWPORT.width, height, scale: 1 },
    captureBeyondViewport: true,
  });
  // Base64 holds 3 bytes in 4 characters: the size is known before decoding.
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (bytes > limits.maxBytes) {
    throw new AppError(
      'too_large',
      `The screenshot (${VIEWPORT.width}x${height} px) is ${bytes} bytes, over the ${limits.maxBytes}-byte limit (WEBSEARCH_SCREENSHOT_MAX_BYTES).`,
      { statusCode: 0 },
    );
  }
  return new Uint8Array(Buffer.from(data, 'base64'));
}
