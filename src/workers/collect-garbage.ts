/**
 * A full garbage collection on demand, for the two places that know a huge page has just
 * become garbage: a conversion worker, which waits for work blocked in Atomics.wait
 * (piscina) and so never gives V8 the idle time to shrink its heap, and the main thread,
 * where nothing triggers a major collection until allocation resumes, however long the
 * server stays idle (BENCHMARKS.md, "Conversion under load"). `gc` is reached the way
 * jest's leak detector reaches it; undefined where that fails.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

function reachGc(): (() => void) | undefined {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    // Contexts made later (the code's, a library's) see no `gc` unless the process gave one.
    if (!exposed) v8.setFlagsFromString('--no-expose-gc');
  }
}

export const collectGarbage: (() => void) | undefined = reachGc();
