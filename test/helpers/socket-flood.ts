/**
 * Sockets a hostile local process opens to a server (the guard proxy's tests): from another
 * process, so that this process's descriptors count only the server's side of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';

/** The file descriptors this process holds. */
export const openFds = (): number => readdirSync('/proc/self/fd').length;

/** Polls `condition` every 10 ms: whether it held within `ms`. */
export async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

export interface Flood {
  /** Resolves once every socket connected or failed. */
  ready: Promise<{ connected: number; failed: number }>;
  stop(): void;
}

/**
 * Another process that opens `count` sockets to 127.0.0.1:`port` as fast as it can and keeps
 * its end of each open (after the server's FIN too): every other one silent, the rest sending
 * `request` (a CONNECT with a wrong password, say).
 */
export function flood(port: number, count: number, request: string): Flood {
  const script = `
    const net = require('node:net');
    let connected = 0, failed = 0;
    const done = () => { if (connected + failed === ${count}) process.stdout.write(JSON.stringify({ connected, failed }) + '\\n'); };
    for (let i = 0; i < ${count}; i++) {
      const s = net.connect({ port: ${port}, host: '127.0.0.1', allowHalfOpen: true });
      s.once('connect', () => { connected++; if (i % 2) s.write(${JSON.stringify(request)}); done(); });
      s.on('error', () => { if (s.connecting) { failed++; done(); } });
    }
    setInterval(() => {}, 60000);`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<{ connected: number; failed: number }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    child.once('exit', (code, signal) => reject(new Error(`the flood exited (${code ?? signal})`)));
  });
  ready.catch(() => undefined);
  return { ready, stop: () => child.kill('SIGKILL') };
}
