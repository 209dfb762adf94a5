/**
 * Whether a remote browser's endpoint accepts a TCP connection: what `/healthz` reports of a
 * remote browser this server is not connected to. A connection is not opened for it: each
 * one may cost the farm a browser. The operator configured the endpoint, so it is dialled
 * without the address policy (a farm on the LAN is the usual case). No playwright-core here:
 * a server that has not rendered yet has not loaded it.
 */
import net from 'node:net';

export function endpointAnswers(endpoint: string, timeoutMs: number): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return Promise.resolve(false);
  }
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answers: boolean): void => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
