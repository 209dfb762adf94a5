/**
 * A real `redis-server` (Debian's package) on a free loopback port, without persistence,
 * for the tests of the Redis store. Without the binary the suite skips with a printed
 * reason, except under CI, where it fails: CI installs it (.ci/run).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';

export interface RunningRedis {
  url: string;
  port: number;
  /** The server's process (SIGSTOP freezes it with its connections open). */
  pid: number;
  stop(): Promise<void>;
}

export function findRedisServer(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat('/usr/bin', '/usr/local/bin', '/usr/sbin')) {
    const candidate = `${dir}/redis-server`;
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function startRedis(binary = findRedisServer()): Promise<RunningRedis> {
  if (!binary) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}: ${stderr}`);
    if (await answersPing(port)) {
      return {
        url: `redis://127.0.0.1:${port}/0`,
        port,
        pid: child.pid as number,
        stop: () =>
          new Promise<void>((resolve) => {
            process.off('exit', kill);
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  kill();
  throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
}

/**
 * A describe block with a private Redis running for its tests. `redis()` gives the running
 * server inside tests and hooks.
 */
export function redisSuite(name: string, body: (redis: () => RunningRedis) => void): void {
  const binary = findRedisServer();
  if (!binary) {
    if (process.env.CI === 'true' || process.env.CI === '1') {
      describe(name, () => {
        it('needs redis-server', () => {
          throw new Error('redis-server is not installed; CI must install it (apt-get install redis-server)');
        });
      });
      return;
    }
    console.log(`skipping "${name}": redis-server is not installed (apt-get install redis-server to run it)`);
    describe.skip(name, () => body(() => ({ url: '', port: 0, pid: 0, stop: async () => undefined })));
    return;
  }
  describe(name, () => {
    let running: RunningRedis | undefined;
    beforeAll(async () => {
      running = await startRedis(binary);
    });
    afterAll(async () => {
      await running?.stop();
    });
    body(() => {
      if (!running) throw new Error('redis-server is not running');
      return running;
    });
  });
}
