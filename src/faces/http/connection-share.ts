/**
 * Keeps one client from taking every connection (issue 34, item 2): each client address
 * (an IPv6 client by its /64, the block one host is usually given, RFC 4291 2.5.4) may
 * hold a share of the server's connection cap, and as the cap comes near, the connections
 * that wait for nothing (keep-alive with no request in flight, or no request yet) are
 * closed first, the longest idle of the address holding the most, so a new client still
 * gets in. Event streams and requests being answered are never closed here.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from '../../core/logger.js';
import { rawErrorResponse } from './client-error.js';

export interface ConnectionShareOptions {
  /** The server's cap (node's `maxConnections`). */
  maxConnections: number;
  /** Connections one address may hold. */
  perAddress: number;
  logger: Logger;
  now?: () => number;
}

interface Tracked {
  address: string;
  /** Requests in flight on the connection (pipelining aside, 0 or 1). */
  busy: number;
  /** When the connection last had nothing in flight. */
  idleSince: number;
}

/** The client a remote address stands for: an IPv4 address, or an IPv6 /64. */
export function clientOf(remote: string | undefined): string {
  if (remote === undefined) return 'unknown';
  try {
    const ip = ipaddr.process(remote.split('%')[0] as string);
    if (ip.kind() === 'ipv4') return ip.toString();
    return `${ip.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
  } catch {
    return remote;
  }
}

/** Applies the share to `server`; returns the number of connections each client holds (tests, metrics). */
export function shareConnections(server: Server, options: ConnectionShareOptions): () => Map<string, number> {
  const now = options.now ?? Date.now;
  const tracked = new Map<Socket, Tracked>();
  const perClient = new Map<string, number>();
  // Room kept free under the cap for a newcomer: one in fifty, at least one.
  const roomy = options.maxConnections - Math.max(1, Math.ceil(options.maxConnections / 50));

  const forget = (socket: Socket) => {
    const t = tracked.get(socket);
    if (!t) return;
    tracked.delete(socket);
    const left = (perClient.get(t.address) ?? 1) - 1;
    if (left > 0) perClient.set(t.address, left);
    else perClient.delete(t.address);
  };

  /** The idle connection to close first: of the client holding the most, the longest idle. */
  const firstToClose = (among: Iterable<Socket>, except: Socket): Socket | undefined => {
    let best: Socket | undefined;
    let bestHeld = -1;
    let bestSince = Infinity;
    for (const socket of among) {
      const t = tracked.get(socket);
      if (!t || t.busy > 0 || socket === except) continue;
      const held = perClient.get(t.address) ?? 0;
      if (held > bestHeld || (held === bestHeld && t.idleSince < bestSince)) {
        best = socket;
        bestHeld = held;
        bestSince = t.idleSince;
      }
    }
    return best;
  };

  server.on('connection', (socket: Socket) => {
    const address = clientOf(socket.remoteAddress);
    if ((perClient.get(address) ?? 0) >= options.perAddress) {
      // Over its share: its own idle connections make room, else the newcomer is refused.
      const own = [...tracked].filter(([, t]) => t.address === address).map(([s]) => s);
      const idle = firstToClose(own, socket);
      if (idle === undefined) {
        options.logger.debug({ address }, 'connection refused: the address holds its share');
        socket.end(
          rawErrorResponse(
            'rate_limited',
            `This client holds its share of the server's connections (${options.perAddress}); reuse one, or close one and retry.`,
            { 'retry-after': '1' },
          ),
          () => socket.destroy(),
        );
        return;
      }
      forget(idle);
      idle.destroy();
    }
    tracked.set(socket, { address, busy: 0, idleSince: now() });
    perClient.set(address, (perClient.get(address) ?? 0) + 1);
    socket.once('close', () => forget(socket));
    // Near the cap: close idle connections until a newcomer has room again.
    while (tracked.size > roomy) {
      const idle = firstToClose(tracked.keys(), socket);
      if (idle === undefined) break;
      forget(idle);
      idle.destroy();
    }
  });

  server.on('request', (req, res) => {
    const t = tracked.get(req.socket);
    if (!t) return;
    t.busy += 1;
    res.once('close', () => {
      t.busy -= 1;
      if (t.busy === 0) t.idleSince = now();
    });
  });

  return () => new Map(perClient);
}
