/**
 * The conversion pool's worker entry as piscina loads it: with require() first. A CommonJS
 * entry keeps that require() off the ES module graph (require(esm), Node.js 20.19+), which
 * can abort the whole process with a V8 fatal error when it races an import() of the same
 * graph; the worker itself (convert-worker.ts) is import()ed once, on the first task.
 */
import type { TaskReply, WorkerTask } from './convert-task.js';

type Run = (task: WorkerTask) => Promise<TaskReply<unknown>>;
let worker: Promise<Run> | undefined;

module.exports = async function workerTask(task: WorkerTask): Promise<TaskReply<unknown>> {
  const run = await (worker ??= import('./convert-worker.js').then((m: { default: Run }) => m.default));
  return run(task);
};
