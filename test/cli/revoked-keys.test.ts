/**
 * A local server whose keys were all revoked stays closed (open mode needs a store where no
 * key ever existed): the 401 says so and how to get back in (issue 34, item 16).
 */
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/faces/http/auth.js';
import { ApiKeys } from '../../src/services/accounts/api-keys.js';
import { MemoryStore } from '../../src/store/memory-store.js';

const noKey = { get: () => undefined };

describe('a local server after its keys were revoked', () => {
  it('answers 401 saying why open mode is over and how to get a fresh store', async () => {
    const keys = new ApiKeys(new MemoryStore());
    const local = createAuthenticator(keys, true);
    expect(await local.callerOf(noKey)).toMatchObject({});
    const { record } = await keys.create({ name: 'gone' });
    await keys.revoke(record.id);
    const refused = local.callerOf(noKey);
    await expect(refused).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(refused).rejects.toThrow(/no key ever existed, revoked keys included/);
    await expect(refused).rejects.toThrow(/websearch-mcp keys create.*fresh store \(--store-path/);
  });

  it('keeps the short answer on a server that never had open mode', async () => {
    const keys = new ApiKeys(new MemoryStore());
    await keys.create({ name: 'live' });
    const remote = createAuthenticator(keys, false);
    await expect(remote.callerOf(noKey)).rejects.toThrow(
      /^An API key is required: send "Authorization: Bearer <key>" or "x-api-key: <key>"\.$/,
    );
  });
});
