// A bench's own server in a child process (the bench file run again with `--serve ...`),
// ready once it prints `listening <url>`; `stop()` ends it with SIGTERM and waits for it.
import { spawn } from 'node:child_process';

export function spawnSelfServer(self, args, label = 'server') {
  const child = spawn(process.execPath, [self, '--serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
