/**
 * The built binary (dist/cli.js) as a child process: one-shot commands, and `serve`
 * resolved once it says where it listens.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  url: string;
  /** Everything the server wrote to stderr so far (its logs). */
  log: { text: string };
  /** SIGTERM, and the exit code once it has stopped. */
  stop(): Promise<number | null>;
  /** SIGKILL, resolved once it is gone. */
  kill(): Promise<void>;
}

export async function spawnServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log = { text: '' };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      log.text += d;
      const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(log.text);
      if (found?.[1]) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${log.text}`)));
  });
  return {
    url,
    log,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
