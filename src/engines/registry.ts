/**
 * The engine table: one SearchEngine per id, their public endpoints, and helpers for the
 * search service and the configuration.
 */
import { ENGINE_IDS } from './types.js';
import type { EngineContext, EngineId, SearchEngine } from './types.js';
import { duckduckgo, duckduckgoLite } from './duckduckgo.js';
import { wikipedia } from './wikipedia.js';
import { mojeek } from './mojeek.js';
import { brave } from './brave.js';
import { searxng } from './searxng.js';
import { google } from './google.js';

export const ENGINES: Record<EngineId, SearchEngine> = {
  duckduckgo,
  wikipedia,
  mojeek,
  brave,
  searxng,
  google,
};

/**
 * Second request format tried when the primary one is blocked or malformed (DuckDuckGo
 * lite, posted to `EngineContext.fallbackUrl`).
 */
export const FALLBACK_ENGINES: Partial<Record<EngineId, SearchEngine>> = {
  duckduckgo: duckduckgoLite,
};

/** Public endpoints (config defaults). SearXNG has none: it is an instance you run. */
export const DEFAULT_ENDPOINTS: Record<EngineId, { baseUrl?: string; fallbackUrl?: string }> = {
  duckduckgo: { baseUrl: 'https://html.duckduckgo.com', fallbackUrl: 'https://lite.duckduckgo.com' },
  wikipedia: { baseUrl: 'https://{lang}.wikipedia.org' },
  mojeek: { baseUrl: 'https://www.mojeek.com' },
  brave: { baseUrl: 'https://api.search.brave.com' },
  searxng: {},
  google: { baseUrl: 'https://www.googleapis.com' },
};

/** Engines used when the configuration names none: the keyless ones with a public endpoint. */
export const DEFAULT_KEYLESS_ENGINES: readonly EngineId[] = ['duckduckgo', 'wikipedia', 'mojeek'];

export function isEngineId(value: string): value is EngineId {
  return (ENGINE_IDS as readonly string[]).includes(value);
}

export function getEngine(id: EngineId): SearchEngine {
  return ENGINES[id];
}

export function getFallbackEngine(id: EngineId): SearchEngine | undefined {
  return FALLBACK_ENGINES[id];
}

/**
 * What an engine still lacks in `ctx` to be usable (empty when ready): a base URL, Brave's
 * API key, Google's API key and engine id.
 */
export function missingSettings(id: EngineId, ctx: Partial<EngineContext>): string[] {
  const missing: string[] = [];
  if (!ctx.baseUrl?.trim()) missing.push('baseUrl');
  if (id === 'brave' && !ctx.apiKey) missing.push('apiKey');
  if (id === 'google') {
    if (!ctx.apiKey) missing.push('apiKey');
    if (!ctx.cseId) missing.push('cseId');
  }
  return missing;
}

export function isEngineConfigured(id: EngineId, ctx: Partial<EngineContext>): boolean {
  return missingSettings(id, ctx).length === 0;
}
