// A bench's own server in a child process (the bench file run again with `--serve ...`),
// ready once it prints `listening <url>`; `stop()` ends it with SIGTERM and waits for it.
// `serveSelf` is that child's side: the built server, stopped by SIGTERM. With
// BENCH_CPU_PROF=DIR in the environment each child writes a CPU profile into DIR as it ends.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** In the child: the built HTTP server (of `dist`, by default this checkout's) over a core of `overrides` (and `coreOptions`), announced on stdout. */
export async function serveSelf(overrides, coreOptions = {}, dist = DIST) {
  const built = (file) => pathToFileURL(path.join(dist, file)).href;
  const [{ buildCore }, { startHttpServer }, { loadConfig }, { silentLogger }] = await Promise.all([
    import(built('compose.js')),
    import(built('http-server.js')),
    import(built('core/config.js')),
    import(built('core/logger.js')),
  ]);
  const core = await buildCore(loadConfig({ env: {}, overrides }), silentLogger, coreOptions);
  const server = await startHttpServer(core);
  process.stdout.write(`listening ${server.url}\n`);
  process.once('SIGTERM', async () => {
    await server.close(0);
    await core.close();
    process.exit(0);
  });
}

export function spawnSelfServer(self, args, label = 'server') {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, self, '--serve', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const found = /listening (\S+)/.exec(out);
      if (found)
        resolve({
          url: found[1],
          pid: child.pid,
          stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))),
        });
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
  });
}
