/**
 * The engine table: one SearchEngine per id (the parsing code). What can be known without
 * loading it (keys, weights, endpoints) is in catalog.ts.
 */
import type { EngineId, SearchEngine } from './types.js';
import { brave } from './brave.js';
import { duckduckgo, duckduckgoLite } from './duckduckgo.js';
import { google } from './google.js';
import { mojeek } from './mojeek.js';
import { searxng } from './searxng.js';
import { wikipedia } from './wikipedia.js';

export {
  DEFAULT_ENDPOINTS,
  DEFAULT_KEYLESS_ENGINES,
  isEngineConfigured,
  isEngineId,
  missingSettings,
} from './catalog.js';

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

export function getEngine(id: EngineId): SearchEngine {
  return ENGINES[id];
}

export function getFallbackEngine(id: EngineId): SearchEngine | undefined {
  return FALLBACK_ENGINES[id];
}
