/**
 * What the configuration says about search engines: each engine's EngineContext, which
 * engines are usable (configured), which run when a request names none (the default set)
 * and their fusion weights. Checked once at start-up so that a typo in WEBSEARCH_ENGINES
 * or WEBSEARCH_ENGINE_WEIGHTS stops the server instead of silently searching differently.
 */
import { ConfigError, type Config } from '../../core/config.js';
import { ENGINE_IDS, type EngineContext, type EngineId } from '../../engines/types.js';
import { ENGINE_CATALOG, isEngineId, missingSettings } from '../../engines/catalog.js';

export interface EngineSettings {
  /** Context of every engine, configured or not (unconfigured ones are never called). */
  contexts: Readonly<Record<EngineId, EngineContext>>;
  /** Usable engines, in the canonical ENGINE_IDS order. */
  configured: readonly EngineId[];
  /** Engines queried when a request names none, in the canonical order. */
  defaults: readonly EngineId[];
  /** Fusion weight of each engine (its defaultWeight unless WEBSEARCH_ENGINE_WEIGHTS says otherwise). */
  weights: Readonly<Record<EngineId, number>>;
}

/** The setting (env var) that supplies each EngineContext field, for messages. */
const SETTING_NAMES: Record<EngineId, Partial<Record<'baseUrl' | 'apiKey' | 'cseId', string>>> = {
  duckduckgo: { baseUrl: 'DUCKDUCKGO_URL' },
  wikipedia: { baseUrl: 'WIKIPEDIA_URL' },
  mojeek: { baseUrl: 'MOJEEK_URL' },
  brave: { baseUrl: 'BRAVE_URL', apiKey: 'BRAVE_API_KEY' },
  searxng: { baseUrl: 'SEARXNG_URL' },
  google: { baseUrl: 'GOOGLE_URL', apiKey: 'GOOGLE_API_KEY', cseId: 'GOOGLE_CSE_ID' },
};

/** Largest accepted weight: far above any sensible value, low enough to catch typos like 12 for 1.2. */
const MAX_WEIGHT = 100;

export function engineContexts(config: Config): Record<EngineId, EngineContext> {
  const e = config.engines;
  const userAgent = config.fetch.userAgent;
  const ctx = (fields: Omit<EngineContext, 'userAgent'>): EngineContext => {
    // Leave unset fields out entirely, so `missingSettings` and the engines see absence.
    const out: EngineContext = { baseUrl: fields.baseUrl, userAgent };
    if (fields.fallbackUrl) out.fallbackUrl = fields.fallbackUrl;
    if (fields.apiKey) out.apiKey = fields.apiKey;
    if (fields.cseId) out.cseId = fields.cseId;
    return out;
  };
  return {
    duckduckgo: ctx({ baseUrl: e.duckduckgoUrl, fallbackUrl: e.duckduckgoLiteUrl }),
    wikipedia: ctx({ baseUrl: e.wikipediaUrl }),
    mojeek: ctx({ baseUrl: e.mojeekUrl }),
    brave: ctx({ baseUrl: e.braveUrl, apiKey: e.braveApiKey }),
    searxng: ctx({ baseUrl: e.searxngUrl ?? '' }),
    google: ctx({ baseUrl: e.googleUrl, apiKey: e.googleApiKey, cseId: e.googleCseId }),
  };
}

/** The settings an engine still lacks, by env var name (empty when configured). */
export function missingEngineSettings(id: EngineId, ctx: EngineContext): string[] {
  return missingSettings(id, ctx).map((field) => SETTING_NAMES[id][field as 'baseUrl' | 'apiKey' | 'cseId'] ?? field);
}

/** `"brave" is not configured: set BRAVE_API_KEY` — the wording of every "unconfigured" message. */
export function notConfiguredMessage(id: EngineId, missing: string[]): string {
  return `"${id}" is not configured: set ${missing.join(' and ')}`;
}

/** Parses `brave=1.2,wikipedia=0.5` into weights, collecting every problem. */
export function parseWeights(text: string | undefined): {
  weights: Partial<Record<EngineId, number>>;
  problems: string[];
} {
  const weights: Partial<Record<EngineId, number>> = {};
  const problems: string[] = [];
  if (text === undefined) return { weights, problems };
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([A-Za-z]+)\s*=\s*([0-9]*\.?[0-9]+)$/.exec(entry);
    if (!match) {
      problems.push(`WEBSEARCH_ENGINE_WEIGHTS: "${entry}" is not "engine=number" (e.g. "brave=1.2,wikipedia=0.5")`);
      continue;
    }
    const id = (match[1] as string).toLowerCase();
    const weight = Number(match[2]);
    if (!isEngineId(id)) {
      problems.push(`WEBSEARCH_ENGINE_WEIGHTS: unknown engine "${id}" (known: ${ENGINE_IDS.join(', ')})`);
    } else if (weights[id] !== undefined) {
      problems.push(`WEBSEARCH_ENGINE_WEIGHTS: "${id}" is given twice`);
    } else if (!(weight > 0 && weight <= MAX_WEIGHT)) {
      problems.push(
        `WEBSEARCH_ENGINE_WEIGHTS: the weight of "${id}" must be above 0 and at most ${MAX_WEIGHT} (got ${match[2]})`,
      );
    } else {
      weights[id] = weight;
    }
  }
  return { weights, problems };
}

function buildSettings(config: Config): { settings: EngineSettings; problems: string[] } {
  const problems: string[] = [];
  const contexts = engineContexts(config);
  const configured = ENGINE_IDS.filter((id) => missingEngineSettings(id, contexts[id]).length === 0);

  // Default set: the operator's list, or every configured engine (the keyless three plus
  // each keyed engine whose key is set, and a SearXNG instance when one is named).
  let defaults: EngineId[] = [...configured];
  if (config.search.engines !== undefined) {
    const named = new Set<EngineId>();
    for (const raw of config.search.engines.split(',')) {
      const name = raw.trim().toLowerCase();
      if (name === '') continue;
      if (!isEngineId(name)) {
        problems.push(`WEBSEARCH_ENGINES: unknown engine "${name}" (known: ${ENGINE_IDS.join(', ')})`);
        continue;
      }
      const missing = missingEngineSettings(name, contexts[name]);
      if (missing.length > 0) problems.push(`WEBSEARCH_ENGINES: ${notConfiguredMessage(name, missing)}`);
      else named.add(name);
    }
    if (named.size === 0 && problems.length === 0) problems.push('WEBSEARCH_ENGINES: names no engine');
    defaults = ENGINE_IDS.filter((id) => named.has(id));
  }

  const parsed = parseWeights(config.search.weights);
  problems.push(...parsed.problems);
  const weights = Object.fromEntries(
    ENGINE_IDS.map((id) => [id, parsed.weights[id] ?? ENGINE_CATALOG[id].defaultWeight]),
  ) as Record<EngineId, number>;

  return { settings: { contexts, configured, defaults, weights }, problems };
}

/**
 * Every problem with the engine settings (empty when fine), worded like the config
 * loader's, so the composition root can report them together with its own.
 */
export function engineSettingsProblems(config: Config): string[] {
  return buildSettings(config).problems;
}

/** The engine settings of a configuration; throws one ConfigError listing every problem. */
export function resolveEngineSettings(config: Config): EngineSettings {
  const { settings, problems } = buildSettings(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
