/**
 * Errors thrown by the caller's own hooks (onHead, onFirstBytes) must reach the caller
 * unchanged — they carry the caller's decision (e.g. 'unsupported_content_type') — while
 * every other error of a fetch is mapped to an AppError. The hooks run inside the
 * pipeline, so their errors are tagged on the way out and recognised in the fetcher.
 */
const HOOK_ERRORS = new WeakSet<object>();

export function isHookError(error: unknown): boolean {
  return isObject(error) && HOOK_ERRORS.has(error);
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

export function callHook(hook: () => void): void {
  try {
    hook();
  } catch (error) {
    if (isObject(error)) HOOK_ERRORS.add(error);
    throw error;
  }
}

export async function callHookAsync(hook: () => void | Promise<void>): Promise<void> {
  try {
    await hook();
  } catch (error) {
    if (isObject(error)) HOOK_ERRORS.add(error);
    throw error;
  }
}
