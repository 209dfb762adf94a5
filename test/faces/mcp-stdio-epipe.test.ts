/**
 * A client that stops reading the stdio server's output (closes its end of the pipe) makes
 * the next write fail with EPIPE: the server stops quietly, without a stack trace.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/spawn-cli.js';

const message = (id: number | undefined, method: string, params: object = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params })}\n`;

describe('the stdio server when its client stops reading', () => {
  it('exits 0 without an unhandled error', async () => {
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? '', WEBSEARCH_STORE_PATH: ':memory:', WEBSEARCH_LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write(
      message(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      }),
    );
    // The answer to initialize arrives; then the client closes its end and asks for more.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    child.stdin.write(message(undefined, 'notifications/initialized'));
    for (let id = 2; id < 6; id++) child.stdin.write(message(id, 'tools/list'));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    expect(stderr).not.toMatch(/Unhandled 'error'|EPIPE|at .*\.js:\d+/);
    expect(code).toBe(0);
  });
});
