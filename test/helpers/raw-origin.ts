/**
 * An origin server written on raw sockets, for the framings no HTTP library sends: HTTP/1.0
 * bodies delimited by the close, bodies longer or shorter than their Content-Length, a
 * connection cut mid-body, junk after a complete response. Each scenario is named by the
 * request's first path segment (`/close10/…`, `/short/…`); `?size=` and `?pieces=` shape
 * the body, `?gap=` the milliseconds between its pieces. The body is ASCII words ending in
 * a marker (`END-OF-<path>`) so a reader can tell a complete page from a cut one.
 */
import { createServer, type Socket } from 'node:net';

export const RAW_SCENARIOS = [
  'close10', // HTTP/1.0, no Content-Length: the close ends the body
  'close11', // HTTP/1.1 with Connection: close and no Content-Length
  'early-close', // Content-Length promised, connection destroyed a third of the way in
  'short', // fewer bytes than the Content-Length, then FIN
  'long', // more bytes than the Content-Length (the rest is junk on the connection)
  'junk-after', // a complete keep-alive response followed by a second, unasked-for one
  'bad-status', // no status line at all
  'bad-chunk', // chunked with an invalid chunk size
] as const;
export type RawScenario = (typeof RAW_SCENARIOS)[number];

export interface RawOrigin {
  origin: string;
  close(): Promise<void>;
}

/** An HTML page of about `size` bytes whose last words are the marker for `path`. */
export function rawPage(path: string, size: number): Buffer {
  const head = `<!doctype html><html><head><title>${path}</title></head><body><article><h1>Page ${path}</h1>`;
  const tail = `<p>END-OF-${path}</p></article></body></html>`;
  const paragraph = '<p>Plain words fill this paragraph so the page reads as an article of some length.</p>\n';
  const room = Math.max(0, size - head.length - tail.length);
  return Buffer.from(head + paragraph.repeat(Math.ceil(room / paragraph.length)) + tail);
}

export function markerOf(path: string): string {
  return `END-OF-${path}`;
}

export async function startRawOrigin(): Promise<RawOrigin> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const target = received.split(' ')[1] ?? '/';
      received = received.slice(end + 4);
      void answer(socket, new URL(target, 'http://raw.invalid'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writePieces(socket: Socket, body: Buffer, pieces: number, gap: number): Promise<void> {
  const size = Math.ceil(body.length / pieces);
  for (let offset = 0; offset < body.length && !socket.destroyed; offset += size) {
    socket.write(body.subarray(offset, offset + size));
    if (gap > 0) await sleep(gap);
  }
}

async function answer(socket: Socket, url: URL): Promise<void> {
  if (url.pathname === '/robots.txt') {
    socket.end('HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno robots here');
    return;
  }
  const scenario = url.pathname.split('/')[1] as RawScenario;
  const body = rawPage(url.pathname, Number(url.searchParams.get('size') ?? 20_000));
  const pieces = Math.max(1, Number(url.searchParams.get('pieces') ?? 1));
  const gap = Number(url.searchParams.get('gap') ?? 0);
  const html = 'Content-Type: text/html; charset=utf-8\r\n';
  switch (scenario) {
    case 'close10':
      socket.write(`HTTP/1.0 200 OK\r\n${html}\r\n`);
      await writePieces(socket, body, pieces, gap);
      socket.end();
      return;
    case 'close11':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Connection: close\r\n\r\n`);
      await writePieces(socket, body, pieces, gap);
      socket.end();
      return;
    case 'early-close':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Content-Length: ${body.length}\r\n\r\n`);
      await writePieces(socket, body.subarray(0, Math.floor(body.length / 3)), pieces, gap);
      socket.destroy();
      return;
    case 'short':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Content-Length: ${body.length + 5_000}\r\n\r\n`);
      await writePieces(socket, body, pieces, gap);
      socket.end();
      return;
    case 'long':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Content-Length: ${body.length}\r\n\r\n`);
      await writePieces(socket, Buffer.concat([body, Buffer.from('x'.repeat(3_000))]), pieces, gap);
      socket.end();
      return;
    case 'junk-after':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Content-Length: ${body.length}\r\n\r\n`);
      await writePieces(socket, body, pieces, gap);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\njunkHTTP/9 ???\r\n\r\n');
      return;
    case 'bad-status':
      socket.end('HELLO THERE\r\n\r\nnot http at all');
      return;
    case 'bad-chunk':
      socket.write(`HTTP/1.1 200 OK\r\n${html}Transfer-Encoding: chunked\r\n\r\n`);
      socket.end('zz\r\nnot a chunk size\r\n0\r\n\r\n');
      return;
    default:
      socket.end('HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n');
  }
}
