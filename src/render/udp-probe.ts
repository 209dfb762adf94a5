/**
 * Whether pages of a browser can send UDP around its proxy. WebRTC's STUN and TURN go
 * straight to any address unless the browser was launched with
 * `--force-webrtc-ip-handling-policy=disable_non_proxied_udp` (its pages then gather no UDP
 * candidate at all), and neither a route nor a proxy sees them; a remote browser's command
 * line cannot be read (DevTools returns it only under --enable-automation). So it is asked as
 * a page would: an offer with no ICE server gathers the host's own UDP candidates, if any,
 * and sends no STUN or TURN packet anywhere.
 */
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { withTimeout } from '../core/with-timeout.js';

/** Gathering host candidates takes ~0.2 s; a browser that cannot answer in this time is no use anyway. */
const PROBE_TIMEOUT_MS = 10_000;

const GATHER_UDP_CANDIDATES = `new Promise((resolve) => {
  if (typeof RTCPeerConnection !== 'function') return resolve(false);
  const pc = new RTCPeerConnection({ iceServers: [] });
  const done = (udp) => { pc.close(); resolve(udp); };
  pc.onicecandidate = (event) => {
    if (event.candidate === null) done(false);
    else if (/ udp /i.test(event.candidate.candidate)) done(true);
  };
  pc.createDataChannel('probe');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
})`;

/** True when a page in a context made with `options` can gather a UDP candidate. */
export async function pagesSendUdp(browser: Browser, options: BrowserContextOptions): Promise<boolean> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    return await withTimeout(page.evaluate<boolean>(GATHER_UDP_CANDIDATES), PROBE_TIMEOUT_MS);
  } finally {
    await context.close().catch(() => undefined);
  }
}
