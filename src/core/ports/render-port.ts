/**
 * The port of headless rendering. The services depend on this interface only; the
 * composition root plugs in the Chromium adapter (render/chromium-renderer.ts) when a
 * browser exists and WEBSEARCH_RENDER is not `never`.
 */
import type { RequestDeadline } from '../request-context.js';

/** The main document as the guarded fetcher already got it (cap, policy and robots applied). */
export interface StaticDocument {
  /** URL of the final hop, after redirects: the browser navigates there. */
  finalUrl: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Decoded body bytes (transfer and content codings removed). */
  body: Uint8Array;
}

export interface RenderRequest {
  url: string;
  /**
   * The main document, served to the browser from memory so it is not fetched twice.
   * Absent: the browser fetches it itself (the stealth retry of a blocked page).
   */
  document?: StaticDocument;
  /** Render with the realistic browser profile (and through the stealth proxy, if any). */
  stealth: boolean;
  /**
   * A CSS selector the page must show before its DOM is taken (`wait_for_selector`): the
   * render waits for it inside the deadline and fails `timeout`, naming it, when it never matches.
   */
  waitForSelector?: string;
  /** Also take a PNG of the rendered page (viewport 1280 wide, full page up to a height cap). */
  screenshot?: boolean;
}

export interface RenderedPage {
  finalUrl: string;
  /** HTTP status of the main document (that of `document` when it was given). */
  status: number;
  /** The serialised DOM after scripts ran. */
  html: string;
  /**
   * Set when the main frame's last navigation (a script's, a meta refresh's) failed and the
   * browser shows its own error page: the network error ("net::ERR_TUNNEL_CONNECTION_FAILED");
   * `finalUrl` is then the URL that failed to load, and `status` that of the page before it.
   */
  navigationError?: string;
  /** The PNG of the page, when `screenshot` was asked for. */
  screenshot?: Uint8Array;
}

/**
 * The browser as `/healthz` reports it. A local browser starts on the first page that needs
 * it, so one not running is no fault; a remote one is reported reachable when connected, or
 * when its endpoint accepts a connection.
 */
export interface BrowserStatus {
  kind: 'local' | 'remote';
  /** Remote: the protocol its endpoint speaks. */
  protocol?: 'playwright' | 'cdp';
  /** A browser is running (local) or connected (remote) now. */
  connected: boolean;
  /** Remote: connected, or its endpoint accepted a TCP connection just now. */
  reachable?: boolean;
  /** Browser contexts and pages this server has open on it now. */
  contexts: number;
  pages: number;
}

export interface Renderer {
  /**
   * Renders one page before the request's deadline, which covers queueing, launch and the
   * whole render. Fails with an AppError: `timeout` (deadline), `cancelled`,
   * `render_failed` (the browser crashed or hung; it is restarted on the next call),
   * `network` (the browser could not load the page), `too_large` (a memory bound of the
   * browser stopped the page, or the screenshot passed its size cap).
   */
  render(request: RenderRequest, ctx: RequestDeadline): Promise<RenderedPage>;
  /** The major version of the browser once one ran (the stealth profile of static fetches follows it). */
  browserMajor?(): number | undefined;
  /** The browser's state for `/healthz`; answers within `timeoutMs` (an unreachable endpoint is not waited for longer). */
  status?(timeoutMs: number): Promise<BrowserStatus>;
  /** Contexts and pages open on the browser now (the remote-browser gauge of /metrics). */
  sessions?(): { contexts: number; pages: number };
  close(): Promise<void>;
}
