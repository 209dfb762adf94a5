/**
 * The one validated configuration. Every limit of the service is a setting here with the
 * contract's default (docs/interface.md 8.1; docs/decisions.md, "Limits and politeness");
 * each setting can come from an environment variable or a CLI flag (the flag wins). All
 * problems are reported at once; the result is frozen and passed down as an argument.
 * This is the only module that reads `process.env`.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, homedir, hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { parseAllowedOrigins, type AllowedOrigin } from './allowed-origins.js';
import { endpointKindProblem, endpointUrlProblem, shownEndpoint } from './browser-endpoint.js';
import { closest } from './closest.js';

const MiB = 1024 * 1024;

export const VERSION = '0.1.0';
export const PROJECT_URL = 'https://github.com/websearch-mcp/websearch-mcp';

const bool = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  return v;
}, z.boolean());

/** Schemas of on/off settings: their CLI flags may go without a value (`--robots`, `--no-robots`, `--robots false`). */
const BOOLEAN_SCHEMAS = new WeakSet<z.ZodType>();
/** On/off settings that take a list too (`--allow-private-addresses 127.0.0.1:8080`). */
const LIST_SCHEMAS = new WeakSet<z.ZodType>();
function flag(defaultValue: boolean) {
  const schema = bool.default(defaultValue);
  BOOLEAN_SCHEMAS.add(schema);
  return schema;
}

/**
 * WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: on/off for every private address, or a list of the
 * origins allowed (allowed-origins.ts). Still an on/off flag on the command line.
 */
function privateAddresses() {
  const schema = z
    .unknown()
    // The return type is the setting's type in Config: true, false or the origins allowed.
    .transform((v, ctx): boolean | readonly AllowedOrigin[] => {
      if (v === undefined) return false;
      if (typeof v === 'boolean' || Array.isArray(v)) return v as boolean | readonly AllowedOrigin[];
      const parsed = bool.safeParse(v);
      if (parsed.success) return parsed.data;
      try {
        return parseAllowedOrigins(String(v));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `true, false or a comma-separated list of allowed origins: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    });
  BOOLEAN_SCHEMAS.add(schema);
  LIST_SCHEMAS.add(schema);
  return schema;
}

// One message for every way a number can be wrong: "expected number, received NaN" tells a user nothing.
const int = (min: number, max: number) => {
  const error = `a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const optionalString = z.string().trim().min(1).optional();
// `{lang}` may stand in the host of a base URL (Wikipedia), so it is checked as a URL
// with the placeholder filled in.
const httpUrl = z
  .string()
  .trim()
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u.replace('{lang}', 'en')).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

/**
 * One row per setting: its path in the config object, env var and CLI flag. The row's
 * schema output is the setting's type in `Config` (see ParsedSettings below).
 */
interface SettingDef {
  path: string;
  env: string;
  flag: string;
  schema: z.ZodType;
  help: string;
  /**
   * A credential: an error shows its length only ('value'), the URL without its user info
   * ('userinfo'), or only the URL's scheme, host and port ('url': tokens ride in paths and queries).
   */
  secret?: 'value' | 'userinfo' | 'url';
}

/** A setting's value as an error may print it: a credential never appears in a log or terminal. */
function shownValue(def: SettingDef, raw: unknown): string {
  if (def.secret === undefined || typeof raw !== 'string') return JSON.stringify(raw);
  if (def.secret === 'value') return `a value of ${raw.length} characters, not shown`;
  if (def.secret === 'url') return JSON.stringify(shownEndpoint(raw));
  // RFC 3986 3.2.1: the user information of an authority ends at its last '@'.
  return JSON.stringify(raw.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@'));
}

/** Where Debian and Ubuntu install Chromium; the first that exists is used by default. */
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const SETTINGS = [
  {
    path: 'server.host',
    env: 'WEBSEARCH_HOST',
    flag: '--host',
    schema: z.string().trim().min(1).default('127.0.0.1'),
    help: 'address the HTTP server binds',
  },
  {
    path: 'server.port',
    env: 'WEBSEARCH_PORT',
    flag: '--port',
    schema: int(0, 65535).default(8787),
    help: 'port of the HTTP server (0 = any free port)',
  },
  {
    path: 'server.bodyLimitBytes',
    env: 'WEBSEARCH_BODY_LIMIT_BYTES',
    flag: '--body-limit-bytes',
    schema: int(1024, 16 * MiB).default(64 * 1024),
    help: 'largest accepted request body',
  },
  {
    path: 'log.level',
    env: 'WEBSEARCH_LOG_LEVEL',
    flag: '--log-level',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    help: 'log level (logs go to stderr)',
  },

  {
    path: 'fetch.timeoutMs',
    env: 'WEBSEARCH_FETCH_TIMEOUT_MS',
    flag: '--fetch-timeout-ms',
    schema: int(100, 120_000).default(15_000),
    help: 'overall deadline per URL',
  },
  {
    path: 'fetch.maxTimeoutMs',
    env: 'WEBSEARCH_FETCH_MAX_TIMEOUT_MS',
    flag: '--fetch-max-timeout-ms',
    schema: int(100, 300_000).default(60_000),
    help: 'largest timeout_ms a request may ask for',
  },
  {
    path: 'fetch.idleTimeoutMs',
    env: 'WEBSEARCH_FETCH_IDLE_TIMEOUT_MS',
    flag: '--fetch-idle-timeout-ms',
    schema: int(100, 120_000).default(10_000),
    help: 'longest silence while waiting for headers or body bytes',
  },
  {
    path: 'fetch.connectTimeoutMs',
    env: 'WEBSEARCH_FETCH_CONNECT_TIMEOUT_MS',
    flag: '--fetch-connect-timeout-ms',
    schema: int(100, 60_000).default(10_000),
    help: 'TCP + TLS connect timeout',
  },
  {
    path: 'fetch.maxBytes',
    env: 'WEBSEARCH_FETCH_MAX_BYTES',
    flag: '--fetch-max-bytes',
    schema: int(1024, 1024 * MiB).default(10 * MiB),
    help: 'largest decoded page body (10 MiB)',
  },
  {
    path: 'fetch.maxRedirects',
    env: 'WEBSEARCH_FETCH_MAX_REDIRECTS',
    flag: '--fetch-max-redirects',
    schema: int(0, 20).default(5),
    help: 'redirect hops followed per URL',
  },
  {
    path: 'fetch.perHostConcurrency',
    env: 'WEBSEARCH_FETCH_PER_HOST',
    flag: '--fetch-per-host',
    schema: int(1, 64).default(4),
    help: 'simultaneous requests to one host',
  },
  {
    path: 'fetch.allowPrivateAddresses',
    env: 'WEBSEARCH_ALLOW_PRIVATE_ADDRESSES',
    flag: '--allow-private-addresses',
    schema: privateAddresses(),
    help: 'allow loopback/private addresses: true (the flag alone) every one, or only the listed origins, e.g. "wiki.corp:443,10.2.0.0/16,127.0.0.1:8080" (intranet, tests); the flag takes the next argument as its list unless that is a URL (://), an option or the command',
  },
  {
    path: 'fetch.stealthProxy',
    env: 'WEBSEARCH_STEALTH_PROXY',
    flag: '--stealth-proxy',
    schema: httpUrl.optional(),
    help: 'http(s) proxy for stealth requests (static fetch and browser), e.g. http://user:pass@proxy:3128; targets still pass the address policy',
    secret: 'userinfo',
  },
  {
    path: 'render.mode',
    env: 'WEBSEARCH_RENDER',
    flag: '--render',
    schema: z.enum(['auto', 'always', 'never']).default('auto'),
    help: 'headless rendering: auto (format html, and pages that need scripts), always, never',
  },
  {
    path: 'render.chromiumPath',
    env: 'CHROMIUM_PATH',
    flag: '--chromium-path',
    schema: optionalString,
    help: `Chromium executable for rendering (default: the first existing of ${CHROMIUM_CANDIDATES.join(', ')}; none = no rendering)`,
  },
  {
    path: 'render.browserEndpoint',
    env: 'WEBSEARCH_BROWSER_ENDPOINT',
    flag: '--browser-endpoint',
    schema: z
      .string()
      .trim()
      .superRefine((url, ctx) => {
        const problem = endpointUrlProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    help: 'a remote Chromium (a browser farm) to render on instead of launching one: a Playwright browser server (ws:// or wss://) or a DevTools endpoint (http(s)://, or ws(s)://.../devtools/browser/...); every request it makes for a page is fetched by this server under its rules',
    secret: 'url',
  },
  {
    path: 'render.browserEndpointKind',
    env: 'WEBSEARCH_BROWSER_ENDPOINT_KIND',
    flag: '--browser-endpoint-kind',
    schema: z.enum(['auto', 'playwright', 'cdp']).default('auto'),
    help: 'what WEBSEARCH_BROWSER_ENDPOINT speaks: playwright (chromium.connect), cdp (connectOverCDP), or auto: http(s):// and .../devtools/browser/... are cdp, any other ws(s):// playwright',
  },
  {
    path: 'render.pages',
    env: 'WEBSEARCH_RENDER_PAGES',
    flag: '--render-pages',
    schema: int(1, 64).default(4),
    help: 'pages rendered at once (more wait their turn)',
  },
  {
    path: 'render.heapMb',
    env: 'WEBSEARCH_RENDER_HEAP_MB',
    flag: '--render-heap-mb',
    schema: int(16, 16_384).default(256),
    help: "JavaScript heap of one page's scripts in the browser (MB); a page that needs more fails with too_large",
  },
  {
    path: 'render.pageMemoryMb',
    env: 'WEBSEARCH_RENDER_PAGE_MEMORY_MB',
    flag: '--render-page-memory-mb',
    schema: int(64, 262_144).default(512),
    help: 'memory of one rendered page (MB, its renderer process); past it the page is stopped and fails with too_large',
  },
  {
    path: 'render.memoryMb',
    env: 'WEBSEARCH_RENDER_MEMORY_MB',
    flag: '--render-memory-mb',
    schema: int(128, 1_048_576).default(3_072),
    help: "memory of the browser's whole process tree (MB); past it the browser is stopped (its pages fail with too_large) and restarted",
  },
  {
    path: 'render.screenshotMaxHeight',
    env: 'WEBSEARCH_SCREENSHOT_MAX_HEIGHT',
    flag: '--screenshot-max-height',
    schema: int(100, 32_000).default(8_000),
    help: 'height of a full-page screenshot (px, 1280 wide); a longer page is cut there',
  },
  {
    path: 'render.screenshotMaxBytes',
    env: 'WEBSEARCH_SCREENSHOT_MAX_BYTES',
    flag: '--screenshot-max-bytes',
    schema: int(10 * 1024, 64 * MiB).default(5 * MiB),
    help: 'largest screenshot PNG; a larger one fails with too_large',
  },
  {
    path: 'fetch.productToken',
    env: 'WEBSEARCH_PRODUCT_TOKEN',
    flag: '--product-token',
    schema: z
      .string()
      .regex(/^[A-Za-z_-]+$/, 'letters, "_" and "-" only (RFC 9309 product token)')
      .default('websearch-mcp'),
    help: 'product token matched against robots.txt groups',
  },
  {
    path: 'fetch.userAgent',
    env: 'WEBSEARCH_USER_AGENT',
    flag: '--user-agent',
    schema: optionalString,
    help: `User-Agent header (default: "Mozilla/5.0 (compatible; <token>/${VERSION}; +${PROJECT_URL})")`,
  },

  {
    path: 'robots.enabled',
    env: 'WEBSEARCH_ROBOTS',
    flag: '--robots',
    schema: flag(true),
    help: 'honour robots.txt (RFC 9309)',
  },
  {
    path: 'robots.cacheTtlMs',
    env: 'WEBSEARCH_ROBOTS_CACHE_TTL_MS',
    flag: '--robots-cache-ttl-ms',
    schema: int(0, 24 * 3600_000).default(24 * 3600_000),
    help: 'robots.txt cache lifetime (RFC 9309 2.4: at most 24 h)',
  },
  {
    path: 'robots.cacheEntries',
    env: 'WEBSEARCH_ROBOTS_CACHE_ENTRIES',
    flag: '--robots-cache-entries',
    schema: int(1, 1_000_000).default(5000),
    help: 'origins kept in the robots.txt cache',
  },
  {
    path: 'robots.maxBytes',
    env: 'WEBSEARCH_ROBOTS_MAX_BYTES',
    flag: '--robots-max-bytes',
    schema: int(500 * 1024, 16 * MiB).default(500 * 1024),
    help: 'robots.txt bytes parsed (RFC 9309 2.5: at least 500 KiB)',
  },
  {
    path: 'robots.timeoutMs',
    env: 'WEBSEARCH_ROBOTS_TIMEOUT_MS',
    flag: '--robots-timeout-ms',
    schema: int(100, 60_000).default(5_000),
    help: 'deadline for fetching robots.txt',
  },

  {
    path: 'search.engines',
    env: 'WEBSEARCH_ENGINES',
    flag: '--engines',
    schema: optionalString,
    help: 'comma-separated default engine set (default: the keyless engines plus every keyed engine whose key is set)',
  },
  {
    path: 'search.engineTimeoutMs',
    env: 'WEBSEARCH_ENGINE_TIMEOUT_MS',
    flag: '--engine-timeout-ms',
    schema: int(100, 60_000).default(6_000),
    help: 'time budget of one engine call',
  },
  {
    path: 'search.contentTimeoutMs',
    env: 'WEBSEARCH_CONTENT_TIMEOUT_MS',
    flag: '--content-timeout-ms',
    schema: int(100, 120_000).default(12_000),
    help: 'one deadline for all page content of a search',
  },
  {
    path: 'search.suspendBlockedMs',
    env: 'WEBSEARCH_SUSPEND_BLOCKED_MS',
    flag: '--suspend-blocked-ms',
    schema: int(0, 24 * 3600_000).default(30 * 60_000),
    help: 'how long an engine rests after a CAPTCHA / 403',
  },
  {
    path: 'search.suspendRateLimitedMs',
    env: 'WEBSEARCH_SUSPEND_RATE_LIMITED_MS',
    flag: '--suspend-rate-limited-ms',
    schema: int(0, 24 * 3600_000).default(5 * 60_000),
    help: 'how long an engine rests after a 429 without Retry-After',
  },
  {
    path: 'search.duckduckgoIntervalMs',
    env: 'WEBSEARCH_DUCKDUCKGO_INTERVAL_MS',
    flag: '--duckduckgo-interval-ms',
    schema: int(0, 60_000).default(1_000),
    help: 'minimum gap between DuckDuckGo requests (one at a time)',
  },
  {
    path: 'search.braveRatePerSecond',
    env: 'BRAVE_RATE_PER_SECOND',
    flag: '--brave-rate-per-second',
    schema: z.coerce
      .number({ error: 'a number above 0, at most 1000' })
      .positive({ error: 'a number above 0, at most 1000' })
      .max(1000, { error: 'a number above 0, at most 1000' })
      .default(1),
    help: "Brave requests per second (the plan's rate; free plan: 1)",
  },
  {
    path: 'search.cacheTtlMs',
    env: 'WEBSEARCH_SEARCH_CACHE_TTL_MS',
    flag: '--search-cache-ttl-ms',
    schema: int(0, 7 * 24 * 3600_000).default(15 * 60_000),
    help: 'how long search answers stay cached (0 = no cache)',
  },
  {
    path: 'search.weights',
    env: 'WEBSEARCH_ENGINE_WEIGHTS',
    flag: '--engine-weights',
    schema: optionalString,
    help: 'fusion weights, e.g. "brave=1.2,wikipedia=0.5"',
  },
  {
    path: 'engines.duckduckgoUrl',
    env: 'DUCKDUCKGO_URL',
    flag: '--duckduckgo-url',
    schema: httpUrl.default('https://html.duckduckgo.com'),
    help: 'DuckDuckGo HTML endpoint base',
  },
  {
    path: 'engines.duckduckgoLiteUrl',
    env: 'DUCKDUCKGO_LITE_URL',
    flag: '--duckduckgo-lite-url',
    schema: httpUrl.default('https://lite.duckduckgo.com'),
    help: 'DuckDuckGo lite endpoint base (fallback)',
  },
  {
    path: 'engines.wikipediaUrl',
    env: 'WIKIPEDIA_URL',
    flag: '--wikipedia-url',
    schema: httpUrl.default('https://{lang}.wikipedia.org'),
    help: 'MediaWiki base ({lang} = language subtag)',
  },
  {
    path: 'engines.mojeekUrl',
    env: 'MOJEEK_URL',
    flag: '--mojeek-url',
    schema: httpUrl.default('https://www.mojeek.com'),
    help: 'Mojeek base',
  },
  {
    path: 'engines.braveUrl',
    env: 'BRAVE_URL',
    flag: '--brave-url',
    schema: httpUrl.default('https://api.search.brave.com'),
    help: 'Brave Search API base',
  },
  {
    path: 'engines.braveApiKey',
    env: 'BRAVE_API_KEY',
    flag: '--brave-api-key',
    schema: optionalString,
    help: 'Brave Search API key (enables brave)',
    secret: 'value',
  },
  {
    path: 'engines.searxngUrl',
    env: 'SEARXNG_URL',
    flag: '--searxng-url',
    schema: httpUrl.optional(),
    help: 'SearXNG instance base URL with JSON enabled (enables searxng)',
  },
  {
    path: 'engines.googleUrl',
    env: 'GOOGLE_URL',
    flag: '--google-url',
    schema: httpUrl.default('https://www.googleapis.com'),
    help: 'Google Custom Search JSON API base',
  },
  {
    path: 'engines.googleApiKey',
    env: 'GOOGLE_API_KEY',
    flag: '--google-api-key',
    schema: optionalString,
    help: 'Google API key (with GOOGLE_CSE_ID enables google)',
    secret: 'value',
  },
  {
    path: 'engines.googleCseId',
    env: 'GOOGLE_CSE_ID',
    flag: '--google-cse-id',
    schema: optionalString,
    help: 'Programmable Search engine id (cx)',
  },
  {
    path: 'mcp.stateless',
    env: 'WEBSEARCH_MCP_STATELESS',
    flag: '--mcp-stateless',
    schema: flag(false),
    help: 'serve /mcp without sessions (load-balanced deployments)',
  },
  {
    path: 'mcp.outputBudgetChars',
    env: 'WEBSEARCH_MCP_OUTPUT_CHARS',
    flag: '--mcp-output-chars',
    schema: int(2_000, 10_000_000).default(40_000),
    help: 'characters a tool result may hold (clients cap results near 25k tokens)',
  },
  {
    path: 'crawl.maxUrls',
    env: 'WEBSEARCH_CRAWL_MAX_URLS',
    flag: '--crawl-max-urls',
    schema: int(1, 10).default(10),
    help: 'URLs per extraction request',
  },
  {
    path: 'site.jobsPerKey',
    env: 'WEBSEARCH_SITE_JOBS_PER_KEY',
    flag: '--site-jobs-per-key',
    schema: int(1, 1000).default(2),
    help: 'site crawls one key (or the keyless callers together) may run at once; more get 429',
  },
  {
    path: 'site.maxJobs',
    env: 'WEBSEARCH_SITE_MAX_JOBS',
    flag: '--site-max-jobs',
    schema: int(1, 10_000).default(16),
    help: 'site crawls running at once on the server (every key); more get 429',
  },
  {
    path: 'site.pagesInFlight',
    env: 'WEBSEARCH_SITE_PAGES_IN_FLIGHT',
    flag: '--site-pages-in-flight',
    schema: int(1, 64).default(8),
    help: 'pages one site crawl fetches at once (the per-host limit and Crawl-delay still apply)',
  },
  {
    path: 'site.retentionMs',
    env: 'WEBSEARCH_SITE_RETENTION_MS',
    flag: '--site-retention-ms',
    schema: int(60_000, 30 * 24 * 3_600_000).default(24 * 3_600_000),
    help: "how long a finished site crawl's results are kept (24 h), then deleted",
  },
  {
    path: 'site.maxJobTimeoutMs',
    env: 'WEBSEARCH_SITE_MAX_JOB_TIMEOUT_MS',
    flag: '--site-max-job-timeout-ms',
    schema: int(10_000, 24 * 3_600_000).default(3_600_000),
    help: 'largest timeout_ms a site crawl may ask for (its default: 10 minutes)',
  },
  {
    path: 'site.maxCrawlDelayMs',
    env: 'WEBSEARCH_SITE_MAX_CRAWL_DELAY_MS',
    flag: '--site-max-crawl-delay-ms',
    schema: int(0, 600_000).default(30_000),
    help: "longest robots.txt Crawl-delay honoured between a site crawl's requests to one host (longer ones are cut to this)",
  },
  {
    path: 'site.mapTimeoutMs',
    env: 'WEBSEARCH_MAP_TIMEOUT_MS',
    flag: '--map-timeout-ms',
    schema: int(1_000, 120_000).default(20_000),
    help: "a site map's deadline; its link walk stops a third of it earlier",
  },
  {
    path: 'convert.threads',
    env: 'WEBSEARCH_CONVERT_THREADS',
    flag: '--convert-threads',
    schema: int(1, 256).default(availableParallelism()),
    help: "worker threads converting pages (default: this machine's cores)",
  },
  {
    path: 'convert.maxQueue',
    env: 'WEBSEARCH_CONVERT_QUEUE',
    flag: '--convert-queue',
    schema: int(1, 100_000).default(256),
    help: 'conversions waiting for a worker; past it a URL fails at once with busy',
  },
  {
    path: 'convert.memoryMb',
    env: 'WEBSEARCH_CONVERT_MEMORY_MB',
    flag: '--convert-memory-mb',
    schema: int(32, 16_384).default(512),
    help: 'heap of one conversion worker (MB); a page that needs more fails with too_large',
  },
  {
    path: 'convert.timeoutMs',
    env: 'WEBSEARCH_CONVERT_TIMEOUT_MS',
    flag: '--convert-timeout-ms',
    schema: int(100, 300_000).default(10_000),
    help: "longest one conversion (or passage ranking) may run on its worker (ms), less when the URL's deadline ends first; past it the worker is stopped and the URL fails with timeout, uncharged",
  },
  {
    path: 'passages.wordVectors',
    env: 'WEBSEARCH_WORD_VECTORS',
    flag: '--word-vectors',
    schema: optionalString,
    help: "a word vectors file read at start (GloVe's text format, e.g. glove.6B.100d.txt, or a fastText .vec), never downloaded: passages and links are ranked by meaning too, so that a question meets a page in other words (default: none, the words and WordNet only)",
  },
  {
    path: 'passages.wordVectorsWords',
    env: 'WEBSEARCH_WORD_VECTORS_WORDS',
    flag: '--word-vectors-words',
    schema: int(1_000, 2_000_000).default(100_000),
    help: "how many of the word vectors file's first (commonest) words are loaded; memory: words x dimensions x 4 bytes, shared by the converter threads",
  },
  {
    path: 'cache.ttlMs',
    env: 'WEBSEARCH_CACHE_TTL_MS',
    flag: '--cache-ttl-ms',
    schema: int(0, 30 * 24 * 3600_000).default(3600_000),
    help: 'how long extracted pages stay cached (0 = no cache)',
  },

  {
    path: 'store.kind',
    env: 'WEBSEARCH_STORE',
    flag: '--store',
    schema: z.enum(['sqlite', 'redis']).default('sqlite'),
    help: 'where caches, keys, balances and usage live: sqlite (one machine) or redis (several instances)',
  },
  {
    path: 'store.path',
    env: 'WEBSEARCH_STORE_PATH',
    flag: '--store-path',
    schema: optionalString,
    help: 'SQLite file, or :memory: (default: $XDG_STATE_HOME/websearch-mcp/store.db, else ~/.local/state/websearch-mcp/store.db)',
  },
  {
    path: 'store.redisUrl',
    env: 'REDIS_URL',
    flag: '--redis-url',
    schema: z
      .string()
      .trim()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    help: 'Redis server for WEBSEARCH_STORE=redis, e.g. redis://127.0.0.1:6379/0',
    secret: 'userinfo',
  },
  {
    path: 'store.redisPrefix',
    env: 'WEBSEARCH_REDIS_PREFIX',
    flag: '--redis-prefix',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'letters, digits and _ : . - only')
      .default('wsm:'),
    help: 'prefix of every Redis key (several deployments on one Redis)',
  },
  {
    path: 'store.timeoutMs',
    env: 'WEBSEARCH_STORE_TIMEOUT_MS',
    flag: '--store-timeout-ms',
    // A healthy store answers in milliseconds; 2 s leaves room for a busy one and for a
    // SQLite writer in another process, and still fails a request well inside its deadline.
    schema: int(100, 60_000).default(2_000),
    help: 'longest wait for one store call (a Redis command, a locked SQLite file); past it the request fails with 503 store_unavailable',
  },
  {
    path: 'auth.allowedHosts',
    env: 'WEBSEARCH_ALLOWED_HOSTS',
    flag: '--allowed-hosts',
    schema: z.preprocess((v) => (Array.isArray(v) ? v.join(',') : v), optionalString),
    help: 'comma-separated public host names a reverse proxy passes in Host (accepted by the DNS-rebinding guard)',
  },
  {
    path: 'auth.rateLimitRequests',
    env: 'WEBSEARCH_RATE_LIMIT_REQUESTS',
    flag: '--rate-limit-requests',
    schema: int(0, 1_000_000).default(600),
    help: 'search/extract calls one API key may make per window (0 = no limit)',
  },
  {
    path: 'auth.rateLimitWindowMs',
    env: 'WEBSEARCH_RATE_LIMIT_WINDOW_MS',
    flag: '--rate-limit-window-ms',
    schema: int(1_000, 24 * 3600_000).default(60_000),
    help: 'length of the rate-limit window',
  },
  {
    path: 'auth.metricsToken',
    env: 'WEBSEARCH_METRICS_TOKEN',
    flag: '--metrics-token',
    // A bearer token as RFC 6750 2.1 spells it (b64token), long enough not to be guessed.
    schema: z
      .string()
      .trim()
      .min(16, 'at least 16 characters (e.g. openssl rand -hex 32)')
      .regex(/^[A-Za-z0-9\-._~+/]+=*$/, 'letters, digits and - . _ ~ + / (a bearer token, RFC 6750)')
      .optional(),
    help: "the operator's bearer token for GET /metrics (API keys do not open it; unset: /metrics only in open mode)",
    secret: 'value',
  },
  {
    path: 'server.headersTimeoutMs',
    env: 'WEBSEARCH_HEADERS_TIMEOUT_MS',
    flag: '--headers-timeout-ms',
    schema: int(100, 600_000).default(10_000),
    help: 'a client must send its request line and headers within this time (else 408)',
  },
  {
    path: 'server.requestTimeoutMs',
    env: 'WEBSEARCH_REQUEST_TIMEOUT_MS',
    flag: '--request-timeout-ms',
    schema: int(100, 3_600_000).default(30_000),
    help: 'a client must send its whole request, body included, within this time (else 408); answers and event streams are not cut by it',
  },
  {
    path: 'server.keepAliveTimeoutMs',
    env: 'WEBSEARCH_KEEP_ALIVE_TIMEOUT_MS',
    flag: '--keep-alive-timeout-ms',
    schema: int(100, 600_000).default(5_000),
    help: 'an idle keep-alive connection is closed after this time',
  },
  {
    path: 'server.maxConnections',
    env: 'WEBSEARCH_MAX_CONNECTIONS',
    flag: '--max-connections',
    schema: int(1, 1_000_000).default(2_000),
    help: 'open connections, event streams included; one more is closed at once',
  },
  {
    path: 'server.maxConnectionsPerAddress',
    env: 'WEBSEARCH_MAX_CONNECTIONS_PER_ADDRESS',
    flag: '--max-connections-per-address',
    schema: int(0, 1_000_000).default(0),
    help: 'open connections one client address (an IPv6 /64) may hold; 0 = a tenth of WEBSEARCH_MAX_CONNECTIONS',
  },
  {
    path: 'server.maxRequestsPerKey',
    env: 'WEBSEARCH_MAX_REQUESTS_PER_KEY',
    flag: '--max-requests-per-key',
    schema: int(0, 1_000_000).default(0),
    help: 'requests one API key may have in flight, bodies being read included, from any number of addresses (past it: 429 rate_limited); 0 = the per-address share of connections',
  },
  {
    path: 'server.instanceId',
    env: 'WEBSEARCH_INSTANCE_ID',
    flag: '--instance-id',
    schema: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{1,200}$/, 'printable ASCII without spaces, at most 200 characters')
      .optional(),
    help: "this server's name on the credit holds it takes, so that a restart releases the holds it left (default: host name and port)",
  },
  {
    path: 'mcp.maxSessions',
    env: 'WEBSEARCH_MCP_MAX_SESSIONS',
    flag: '--mcp-max-sessions',
    schema: int(1, 1_000_000).default(1_000),
    help: 'MCP sessions open at once (/mcp sessions and /sse streams together; past it: 503 server_busy)',
  },
  {
    path: 'mcp.maxSessionsPerKey',
    env: 'WEBSEARCH_MCP_MAX_SESSIONS_PER_KEY',
    flag: '--mcp-max-sessions-per-key',
    schema: int(1, 1_000_000).default(100),
    help: 'MCP sessions one API key (or the open-mode user) may hold (past it: 429 too_many_sessions)',
  },
  {
    path: 'mcp.sessionIdleMs',
    env: 'WEBSEARCH_MCP_SESSION_IDLE_MS',
    flag: '--mcp-session-idle-ms',
    schema: int(100, 7 * 24 * 3600_000).default(30 * 60_000),
    help: 'an MCP session or /sse stream with no request for this long is closed',
  },
  {
    path: 'server.shutdownGraceMs',
    env: 'WEBSEARCH_SHUTDOWN_GRACE_MS',
    flag: '--shutdown-grace-ms',
    schema: int(0, 600_000).default(10_000),
    help: 'on SIGTERM/SIGINT, how long in-flight requests may finish',
  },
] as const satisfies readonly SettingDef[];

type Setting = (typeof SETTINGS)[number];
/** A setting's place in the config object, e.g. `'fetch.timeoutMs'`. */
type SettingPath = Setting['path'];
type SectionOf<P> = P extends `${infer S}.${string}` ? S : never;
type Value<R extends Setting> = z.output<R['schema']>;
/** The key of row R in section S when the row's value may be unset (Optional) or may not. */
type KeyIn<S extends string, R extends Setting, Optional extends boolean> = R['path'] extends `${S}.${infer K}`
  ? (undefined extends Value<R> ? true : false) extends Optional
    ? K
    : never
  : never;
// Shows a section as one object in editors rather than as an intersection.
type Flatten<T> = { [K in keyof T]: T[K] };
type Section<S extends string> = Flatten<
  { [R in Setting as KeyIn<S, R, false>]: Value<R> } & { [R in Setting as KeyIn<S, R, true>]?: Value<R> }
>;

/** Every setting as its row's schema outputs it, nested by the rows' paths. */
type ParsedSettings = { [S in SectionOf<SettingPath>]: Section<S> };

/**
 * The settings whose final value is more than their own text: a default drawn from another
 * setting or from the machine, a list split from one string. `Config` is what this returns,
 * so the type follows the table and these few steps instead of restating them.
 */
function complete(settings: ParsedSettings, env: Env, exists: (path: string) => boolean) {
  const { fetch, store, auth, server } = settings;
  const render = { ...settings.render };
  const chromiumPath = render.chromiumPath ?? CHROMIUM_CANDIDATES.find((path) => exists(path));
  // No browser found: no key, so a chromiumPath that is there always names a file.
  if (chromiumPath === undefined) delete render.chromiumPath;
  else render.chromiumPath = chromiumPath;
  return {
    ...settings,
    fetch: {
      ...fetch,
      userAgent: fetch.userAgent ?? `Mozilla/5.0 (compatible; ${fetch.productToken}/${VERSION}; +${PROJECT_URL})`,
    },
    render,
    server: {
      ...server,
      maxConnectionsPerAddress: server.maxConnectionsPerAddress || Math.max(1, Math.floor(server.maxConnections / 10)),
      // One key sending from many addresses gets no more than one address's share.
      maxRequestsPerKey:
        server.maxRequestsPerKey ||
        server.maxConnectionsPerAddress ||
        Math.max(1, Math.floor(server.maxConnections / 10)),
      // The holds live in the store, so the store says nothing more: the host, bind address
      // and port tell apart the instances that share it; with port 0 (any free port) only
      // the process does (docs/decisions.md, "Credits and keys").
      instanceId:
        server.instanceId ?? `${hostname()}/${server.host}:${server.port === 0 ? `0/pid-${process.pid}` : server.port}`,
    },
    store: { ...store, path: store.path ?? defaultStorePath(env) },
    auth: { ...auth, allowedHosts: splitList(auth.allowedHosts) },
  };
}

/** The validated, frozen configuration: derived from SETTINGS, never written out by hand. */
export type Config = ReturnType<typeof complete>;

/**
 * Rules beyond one value's own schema: between settings, or against the machine. Each names
 * the settings it reads and runs only when all of them parsed, so that a wrong value is
 * reported once, by its own setting, and the rules' problems join the settings' ones.
 */
interface CrossCheck {
  reads: readonly SettingPath[];
  problem(settings: ParsedSettings, fileExists: (path: string) => boolean): string | undefined;
}

const CROSS_CHECKS: readonly CrossCheck[] = [
  {
    reads: ['render.chromiumPath'],
    problem: ({ render }, fileExists) =>
      render.chromiumPath !== undefined && !fileExists(render.chromiumPath)
        ? `CHROMIUM_PATH: no file at ${render.chromiumPath} (install Debian's chromium, or unset it to render nothing)`
        : undefined,
  },
  {
    reads: ['passages.wordVectors'],
    // Its content is read, and checked line by line, where the core is built (compose.ts).
    problem: ({ passages }, fileExists) =>
      passages.wordVectors !== undefined && !fileExists(passages.wordVectors)
        ? `WEBSEARCH_WORD_VECTORS: no file at ${passages.wordVectors} (a GloVe .txt or fastText .vec file; unset it to rank by words alone)`
        : undefined,
  },
  {
    reads: ['render.browserEndpoint', 'render.browserEndpointKind'],
    problem: ({ render }) =>
      render.browserEndpoint === undefined
        ? undefined
        : endpointKindProblem(render.browserEndpoint, render.browserEndpointKind),
  },
  {
    reads: ['render.heapMb', 'render.pageMemoryMb', 'render.memoryMb'],
    // A page's heap lives in its renderer, and the renderers in the browser's tree.
    problem: ({ render }) =>
      render.heapMb >= render.pageMemoryMb || render.pageMemoryMb > render.memoryMb
        ? `WEBSEARCH_RENDER_HEAP_MB (${render.heapMb}) < WEBSEARCH_RENDER_PAGE_MEMORY_MB (${render.pageMemoryMb}) <= WEBSEARCH_RENDER_MEMORY_MB (${render.memoryMb}) must hold`
        : undefined,
  },
  {
    reads: ['store.kind', 'store.redisUrl'],
    problem: ({ store }) =>
      store.kind === 'redis' && store.redisUrl === undefined
        ? 'WEBSEARCH_STORE=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)'
        : undefined,
  },
  {
    reads: ['fetch.timeoutMs', 'fetch.maxTimeoutMs'],
    problem: ({ fetch }) =>
      fetch.timeoutMs > fetch.maxTimeoutMs
        ? `WEBSEARCH_FETCH_TIMEOUT_MS (${fetch.timeoutMs}) exceeds WEBSEARCH_FETCH_MAX_TIMEOUT_MS (${fetch.maxTimeoutMs})`
        : undefined,
  },
  {
    reads: ['server.headersTimeoutMs', 'server.requestTimeoutMs'],
    // Node refuses a headers timeout longer than the whole request's.
    problem: ({ server }) =>
      server.headersTimeoutMs > server.requestTimeoutMs
        ? `WEBSEARCH_HEADERS_TIMEOUT_MS (${server.headersTimeoutMs}) exceeds WEBSEARCH_REQUEST_TIMEOUT_MS (${server.requestTimeoutMs})`
        : undefined,
  },
];

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface ConfigSources {
  env?: Record<string, string | undefined>;
  /** CLI arguments holding only setting flags (`--port 8080` or `--port=8080`). */
  argv?: string[];
  /** Values set by code (tests); they win over env and flags. */
  overrides?: DeepPartial<Config>;
  /**
   * Sections (`'server'`) or settings (`'search.engines'`) a command does not use: they take
   * their defaults, so a value there, bad or not, cannot fail a command it cannot affect.
   */
  unused?: readonly string[];
  /** Values used where no override, flag or variable gives one (a command's own defaults). */
  defaults?: DeepPartial<Config>;
  /** Whether a file exists (default: the file system); tests pass their own. */
  fileExists?: (path: string) => boolean;
}

/** A setting as the command line sees it: its flag, whether it takes a value, its variable. */
export interface SettingFlag {
  flag: string;
  env: string;
  /** An on/off setting: `--x`, `--no-x`, `--x false`, `--x=off`. */
  boolean: boolean;
  /** An on/off setting that takes a list as well (`--allow-private-addresses 10.0.0.0/8`). */
  list: boolean;
}

export function settingFlags(): SettingFlag[] {
  return SETTINGS.map((s) => ({
    flag: s.flag,
    env: s.env,
    boolean: isBooleanSetting(s),
    list: LIST_SCHEMAS.has(s.schema),
  }));
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Flags that take no value (booleans); `--no-robots` style negation is accepted too. */
function isBooleanSetting(def: SettingDef): boolean {
  return BOOLEAN_SCHEMAS.has(def.schema);
}

/** Splits CLI arguments into setting values and the arguments that are not settings. */
export function parseSettingFlags(argv: string[]): { values: Map<string, string>; rest: string[]; problems: string[] } {
  const byFlag = new Map<string, SettingDef>(SETTINGS.map((s) => [s.flag, s]));
  const values = new Map<string, string>();
  const rest: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const negated = name.startsWith('--no-') ? byFlag.get(`--${name.slice(5)}`) : undefined;
    const def = byFlag.get(name) ?? negated;
    if (!def || (negated && !isBooleanSetting(negated))) {
      rest.push(arg);
      continue;
    }
    if (negated) {
      values.set(def.path, 'false');
    } else if (eq > 0) {
      values.set(def.path, arg.slice(eq + 1));
    } else if (isBooleanSetting(def) && (argv[i + 1] === undefined || (argv[i + 1] as string).startsWith('--'))) {
      values.set(def.path, 'true');
    } else if (argv[i + 1] === undefined) {
      problems.push(`${def.flag}: needs a value`);
    } else {
      values.set(def.path, argv[++i] as string);
    }
  }
  return { values, rest, problems };
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
}

function getPath(source: unknown, path: string): unknown {
  let node = source;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

type Env = Record<string, string | undefined>;

const SETTING_PATHS = new Set<string>(SETTINGS.map((def) => def.path));
const SECTION_PATHS = new Set(
  SETTINGS.flatMap((def) => def.path.split('.').map((_, i, parts) => parts.slice(0, i).join('.'))).filter(Boolean),
);

/** Paths of `value` (a code caller's settings object) that name no setting: a typo there would otherwise do nothing. */
function unknownPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (inner === undefined || SETTING_PATHS.has(path)) return [];
    return SECTION_PATHS.has(path) ? unknownPaths(inner, path) : [path];
  });
}

/**
 * A code caller's unknown path, with what was probably meant: the setting whose variable
 * it names (`WEBSEARCH_PORT` is `server.port`), else the nearest path or section.
 */
function noSuchSetting(path: string): string {
  const guess = SETTINGS.find((def) => def.env === path)?.path ?? closest(path, [...SETTING_PATHS, ...SECTION_PATHS]);
  return `${path}: no such setting${guess ? ` (did you mean ${guess}?)` : ''}`;
}

/**
 * Builds the configuration from env vars, CLI flags and code overrides (highest wins),
 * validating every setting and every rule between settings, and throwing one ConfigError
 * that lists every problem.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const exists = sources.fileExists ?? existsSync;
  const flags = parseSettingFlags(sources.argv ?? []);
  const problems = [...flags.problems, ...unknownPaths(sources.overrides).map(noSuchSetting)];
  const values = new Map<string, unknown>();
  const failed = new Set<string>();
  // A setting the command never reads (its section, or the setting itself) takes its default.
  const unused = (def: SettingDef) =>
    sources.unused?.some((u) => u === def.path || u === def.path.split('.')[0]) ?? false;
  for (const def of SETTINGS) {
    const override = getPath(sources.overrides, def.path);
    const raw =
      override !== undefined
        ? override
        : (flags.values.get(def.path) ?? env[def.env] ?? getPath(sources.defaults, def.path));
    const where = override !== undefined ? def.path : flags.values.has(def.path) ? def.flag : def.env;
    // A blank number, switch or choice is a mistake, not "the default" (WEBSEARCH_PORT=
    // would otherwise start on a port nobody asked for); blank text means unset.
    const blank = typeof raw === 'string' && raw.trim() === '';
    const parsed = def.schema.safeParse(blank ? undefined : raw);
    const fallback = def.schema.safeParse(undefined);
    const defaultValue: unknown = fallback.success ? fallback.data : undefined;
    let problem: string | undefined;
    if (!parsed.success)
      problem = `${where}: ${parsed.error.issues.map((i) => i.message).join('; ')} (got ${shownValue(def, raw)})`;
    else if (blank && defaultValue !== undefined)
      problem = `${where} is set but empty: unset it for the default (${String(defaultValue)}) or give a value`;
    if (unused(def)) values.set(def.path, defaultValue);
    else if (problem === undefined) values.set(def.path, parsed.success ? parsed.data : undefined);
    else {
      problems.push(problem);
      failed.add(def.path);
      // Its default keeps the settings whole for the rules below; none of them reads it.
      values.set(def.path, defaultValue);
    }
  }
  const settings = nest(values);
  for (const check of CROSS_CHECKS) {
    if (check.reads.some((path) => failed.has(path))) continue;
    const problem = check.problem(settings, exists);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(complete(settings, env, exists));
}

/** The value of every row, placed at its path. */
function nest(values: ReadonlyMap<string, unknown>): ParsedSettings {
  const out: Record<string, unknown> = {};
  for (const [path, value] of values) setPath(out, path, value);
  // The one assertion left: each value is its row's schema output (or default) at the
  // row's path, which is exactly how ParsedSettings is computed from the same table.
  return out as ParsedSettings;
}

/**
 * The SQLite file's default place: the XDG Base Directory spec's state home
 * ($XDG_STATE_HOME, else ~/.local/state), for data that persists between runs but is not
 * worth backing up like a document.
 */
function defaultStorePath(env: Env): string {
  const xdg = env.XDG_STATE_HOME?.trim();
  // The spec says a relative XDG path is invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), '.local', 'state');
  return join(base, 'websearch-mcp', 'store.db');
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

/** A setting's meaning as `--help` and the README give it: its help, then its default unless the help tells it. */
function meaningOf(def: SettingDef): string {
  const fallback = def.schema.safeParse(undefined);
  const shown =
    fallback.success && fallback.data !== undefined && !def.help.includes('(default:')
      ? ` (default: ${String(fallback.data)})`
      : '';
  return `${def.help}${shown}`;
}

/** One line per setting, for `--help`: flag (with its `--no-` form), variable, meaning and default. */
export function settingsHelp(): string {
  return SETTINGS.map((s) => {
    const flag = isBooleanSetting(s) ? `--[no-]${s.flag.slice(2)}` : s.flag;
    return `  ${flag.padEnd(30)} ${s.env.padEnd(36)} ${meaningOf(s)}`;
  }).join('\n');
}

/**
 * Every setting as a Markdown table (variable, path in the library's `config`, meaning),
 * from the same rows as `--help`: README.md, "Configuration" holds it, and
 * test/docs/settings-table.test.ts fails when the two differ.
 */
export function settingsTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| variable | config path | meaning |',
    '|---|---|---|',
    ...SETTINGS.map((s) => `| \`${s.env}\` | \`${s.path}\` | ${cell(meaningOf(s))} |`),
  ].join('\n');
}
