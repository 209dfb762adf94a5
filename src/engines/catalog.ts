/**
 * What is known about each engine without loading its parsing code: whether it needs a
 * key, its default fusion weight, its public endpoints and the settings it needs. Kept
 * apart from the engine modules (which load an HTML parser) so that start-up, the tool
 * list and the configuration check stay light.
 */
import { ENGINE_IDS } from './types.js';
import type { EngineContext, EngineId } from './types.js';

export interface EngineFacts {
  /** True when the engine works with no API key. */
  keyless: boolean;
  /** Default weight in rank fusion. */
  defaultWeight: number;
}

export const ENGINE_CATALOG: Readonly<Record<EngineId, EngineFacts>> = {
  duckduckgo: { keyless: true, defaultWeight: 1 },
  // Only finds Wikipedia articles: useful, but it must not crowd out the web.
  wikipedia: { keyless: true, defaultWeight: 0.5 },
  mojeek: { keyless: true, defaultWeight: 0.8 },
  brave: { keyless: false, defaultWeight: 1 },
  // Keyless but needs an instance URL.
  searxng: { keyless: true, defaultWeight: 1 },
  google: { keyless: false, defaultWeight: 1 },
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
