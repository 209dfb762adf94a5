/**
 * A remote Chromium (a browser farm), connected to instead of launched: a Playwright browser
 * server (`chromium.connect`) or a DevTools endpoint (`chromium.connectOverCDP`),
 * core/browser-endpoint.ts says which. The remote browser cannot use this server's guard
 * proxy, so nothing it fetches on its own may count: every page request is answered from
 * this server's guarded fetcher (fetched-route.ts), and every context it opens for us points
 * its proxy at SINK_PROXY, an address no TCP connection can reach, so that what the route
 * never sees (preconnects, speculative prefetches, a worker's WebSocket, a redirect's next
 * hop) fails instead of leaving from the farm's network. UDP is no proxy's: a browser whose
 * pages can send it (WebRTC) is refused at connection (udp-probe.ts).
 */
import { chromium, type Browser } from 'playwright-core';
import { endpointKind, shownEndpoint, type DeclaredEndpointKind } from '../core/browser-endpoint.js';
import { settlesWithin } from '../core/with-timeout.js';
import type { BrowserSource } from './browser-host.js';
import { WEBRTC_SWITCHES } from './local-browser.js';
import { pagesSendUdp } from './udp-probe.js';

/**
 * The proxy of every context on a remote browser: the limited broadcast address, which no TCP
 * connection can reach and nothing can listen on (a port of the farm's own loopback could be
 * in use), so whatever would go out there fails at once (ERR_PROXY_CONNECTION_FAILED).
 * Playwright adds `<-loopback>` to the bypass list, so loopback goes there too.
 */
export const SINK_PROXY = 'http://255.255.255.255:9';

/** Connecting (and the Playwright handshake) slower than this has failed. */
const CONNECT_TIMEOUT_MS = 30_000;
/** How long a disconnect may take (it only closes this server's contexts) before it is left. */
const CLOSE_GRACE_MS = 3_000;

export interface RemoteBrowserOptions {
  /** WEBSEARCH_BROWSER_ENDPOINT, as configured. */
  endpoint: string;
  /** WEBSEARCH_BROWSER_ENDPOINT_KIND. */
  kind: DeclaredEndpointKind;
}

export interface Connection {
  browser: Browser;
}

export function remoteBrowser(options: RemoteBrowserOptions): BrowserSource<Connection> {
  const kind = endpointKind(options.endpoint, options.kind);
  const shown = shownEndpoint(options.endpoint);
  return {
    name: `the remote browser (${shown})`,
    async open() {
      const browser =
        kind === 'cdp'
          ? await chromium.connectOverCDP(options.endpoint, { timeout: CONNECT_TIMEOUT_MS })
          : await chromium.connect(options.endpoint, { timeout: CONNECT_TIMEOUT_MS });
      try {
        if (await pagesSendUdp(browser, { proxy: { server: SINK_PROXY } }))
          throw new Error(
            `its pages can send UDP (WebRTC) around every proxy, to any address of the farm's network; launch its Chromium with ${WEBRTC_SWITCHES.join(' ')}`,
          );
      } catch (error) {
        await settlesWithin(browser.close(), CLOSE_GRACE_MS);
        throw error;
      }
      return { browser };
    },
    // Closes this server's contexts and disconnects: the remote browser is the farm's.
    async close({ browser }) {
      await settlesWithin(browser.close(), CLOSE_GRACE_MS);
    },
  };
}
