import { describe, expect, it } from 'vitest';
import { ENGINE_IDS } from '../../src/engines/types.js';
import {
  DEFAULT_ENDPOINTS,
  DEFAULT_KEYLESS_ENGINES,
  ENGINES,
  getEngine,
  getFallbackEngine,
  isEngineConfigured,
  isEngineId,
  missingSettings,
} from '../../src/engines/registry.js';
import { duckduckgoLite } from '../../src/engines/duckduckgo.js';

describe('registry', () => {
  it('has one engine per id, each with its own id', () => {
    for (const id of ENGINE_IDS) {
      expect(ENGINES[id].id).toBe(id);
      expect(getEngine(id)).toBe(ENGINES[id]);
      expect(ENGINES[id].defaultWeight).toBeGreaterThan(0);
    }
  });

  it('knows which engines need a key', () => {
    expect(ENGINE_IDS.filter((id) => !ENGINES[id].keyless).sort()).toEqual(['brave', 'google']);
    for (const id of DEFAULT_KEYLESS_ENGINES) expect(ENGINES[id].keyless).toBe(true);
  });

  it('offers DuckDuckGo lite as the fallback', () => {
    expect(getFallbackEngine('duckduckgo')).toBe(duckduckgoLite);
    expect(getFallbackEngine('brave')).toBeUndefined();
  });

  it('isEngineId', () => {
    expect(isEngineId('brave')).toBe(true);
    expect(isEngineId('bing')).toBe(false);
  });

  it('reports missing settings', () => {
    expect(missingSettings('duckduckgo', { baseUrl: DEFAULT_ENDPOINTS.duckduckgo.baseUrl })).toEqual([]);
    expect(missingSettings('searxng', {})).toEqual(['baseUrl']);
    expect(missingSettings('brave', { baseUrl: 'https://api.search.brave.com' })).toEqual(['apiKey']);
    expect(missingSettings('google', { baseUrl: 'https://www.googleapis.com', apiKey: 'k' })).toEqual(['cseId']);
    expect(isEngineConfigured('google', { baseUrl: 'https://www.googleapis.com', apiKey: 'k', cseId: 'cx' })).toBe(
      true,
    );
  });

  it('default endpoints are https (SearXNG has none)', () => {
    for (const id of ENGINE_IDS) {
      const base = DEFAULT_ENDPOINTS[id].baseUrl;
      if (id === 'searxng') expect(base).toBeUndefined();
      else expect(base?.startsWith('https://')).toBe(true);
    }
  });
});
