/**
 * A request's context for tests that call the services directly, as Operations would
 * hand it to them: a fresh id, the local caller unless told, a deadline well away unless
 * told, and a signal that a test may abort.
 */
import type { Caller } from '../../src/core/caller.js';
import { LOCAL_CALLER } from '../../src/core/caller.js';
import { now } from '../../src/core/deadline-scope.js';
import { newRequestId } from '../../src/core/ids.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import type { RequestContext } from '../../src/core/request-context.js';

export function testContext(
  init: { caller?: Caller; timeoutMs?: number; signal?: AbortSignal; log?: Logger } = {},
): RequestContext {
  return {
    id: newRequestId(),
    caller: init.caller ?? LOCAL_CALLER,
    deadline: now() + (init.timeoutMs ?? 60_000),
    signal: init.signal ?? new AbortController().signal,
    log: init.log ?? silentLogger,
  };
}
