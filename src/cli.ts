#!/usr/bin/env node
/**
 * `websearch-mcp` — with no command, the stdio MCP server (what desktop clients spawn);
 * `serve` runs the HTTP API and `/mcp`; `extract` and `search` print results, `map` a site's
 * URLs and `crawl-site` its pages (cli/site-commands.ts); `keys` manages API keys. Exit
 * codes: 0 done, 1 the operation failed, 2 a usage or setting mistake (one line, no stack
 * trace).
 */
import type { OptionSpec } from './cli/args.js';
import { UsageError, closest, parseCommand, splitCommand, wholeNumber } from './cli/args.js';
import type { Config, ConfigSources, DeepPartial } from './core/config.js';
import { ConfigError, VERSION, loadConfig, settingsHelp } from './core/config.js';
import type { Core } from './compose.js';
import type { Logger } from './core/logger.js';
import type { ExtractResult } from './core/schemas.js';
import { linksText, readerText } from './faces/reader-text.js';

const USAGE = `websearch-mcp ${VERSION} — web search and URL extraction for AI agents (MCP + HTTP API)

Usage:
  websearch-mcp [settings]              run the MCP server on stdio (for desktop clients)
  websearch-mcp serve [settings]        run the HTTP API and MCP (/mcp, /sse) on --host:--port
  websearch-mcp search <query...>       print search results (Markdown, or --json)
  websearch-mcp extract <url...>        print pages as Markdown (or --json, --format html)
  websearch-mcp map <url>               print a site's URLs from its sitemaps, feeds and links
  websearch-mcp crawl-site <url>        crawl a site, printing each page as Markdown (or --jsonl)
  websearch-mcp keys <create|list|revoke|topup|usage>
                                        manage API keys and credits
  websearch-mcp <command> --help        a command's own options
  websearch-mcp --version | -v

Settings (flag, environment variable, meaning, default); a flag wins over its variable.
A flag takes its value as --port 8080 or --port=8080; an on/off flag goes alone (--robots,
--no-robots) or with true/false (--robots false, --robots=off). Settings may come before the command.
${settingsHelp()}
`;

type Options = Record<string, string | boolean | string[] | undefined>;

interface CommandDef {
  /** The help; a function when it is written from the configuration (extract's page options and their limits). */
  usage: string | ((config: Config) => Promise<string>);
  /** The command's own options; a function when they come from a schema, loaded for that command only. */
  options: Record<string, OptionSpec> | (() => Promise<Record<string, OptionSpec>>);
  positionals: boolean;
  /** Config sections (or single settings) the command never reads: a bad value there does not stop it. */
  unused: readonly string[];
  /** Settings this call does not read because one of its own options replaces them. */
  replaced?: (options: Options) => string[];
  /** One-shot commands log warnings and errors only, unless a level is asked for. */
  quiet: boolean;
  /** The command's own defaults, where no flag or variable gives a value. */
  defaults?: DeepPartial<Config>;
  run(config: Config, parsed: { options: Options; positionals: string[] }): Promise<number>;
}

const COMMANDS: Record<string, CommandDef> = {
  '': {
    usage:
      'websearch-mcp [settings]\n  The MCP server on stdio: what Claude Desktop, Claude Code, Cursor and VS Code spawn.\n',
    options: {},
    positionals: false,
    unused: ['server', 'auth'],
    quiet: false,
    // One conversion worker: a desktop client asks for one page or a few at a time.
    defaults: { convert: { threads: 1 } },
    run: async (config) => {
      await runStdio(config);
      return 0;
    },
  },
  serve: {
    usage:
      'websearch-mcp serve [--host H] [--port P] [settings]\n  The playground at /, the HTTP API (POST /api/crawl, GET|POST /api/search, POST /api/map, POST\n  /api/site-crawls with GET|DELETE /api/site-crawls/<id>, GET /api/usage), the reader GET /r/<url>, MCP\n  Streamable HTTP at /mcp, legacy SSE at /sse, /healthz, /metrics and /openapi.json.\n',
    options: {},
    positionals: false,
    unused: [],
    quiet: false,
    run: async (config) => {
      await runServe(config);
      return 0;
    },
  },
  extract: {
    usage: async (config) => {
      const { flagsHelp, crawlFlagSource } = await import('./cli/crawl-flags.js');
      return `websearch-mcp extract <url...> [options] [settings]
  --json                     print the API's response object, once every URL is done
  --jsonl                    print each result as one JSON line as it completes, then {"metadata": ...}
  --screenshot-dir DIR       with --screenshot: where each page's PNG is written (default: the current
                             directory), named from its URL (example.com-docs.png; an old one is replaced)
Page options, one for each field of POST /api/crawl (the API's names with dashes):
${flagsHelp(crawlFlagSource(config))}
  A LIST repeats the flag and/or separates values with commas (--exclude-selectors nav,.ad).
  On/off options go alone, negated (--no-stealth) or with true/false.
  Each page prints as it completes (so in completion order), its links under it with
  --include-links; a screenshot is a file (--screenshot-dir), its path on stderr. On a terminal,
  a progress line on stderr counts URLs done and failed. Exit 1 when a URL failed (its error
  goes to stderr).
`;
    },
    options: async () => {
      const { flagOptions, crawlFlagSource } = await import('./cli/crawl-flags.js');
      return {
        // The flags' names and kinds do not depend on the limits: the defaults' serve.
        ...flagOptions(crawlFlagSource(loadConfig({ env: {} }))),
        json: { type: 'boolean' },
        jsonl: { type: 'boolean' },
        'screenshot-dir': { type: 'string' },
      };
    },
    positionals: true,
    unused: ['server', 'mcp', 'auth', 'search', 'engines'],
    quiet: true,
    run: (config, parsed) => runExtract(config, parsed),
  },
  map: {
    usage: async () => {
      const { flagsHelp, mapFlagSource } = await import('./cli/crawl-flags.js');
      return `websearch-mcp map <url> [options] [settings]
  --json                     print the API's response object
Map options, one for each field of POST /api/map (the API's names with dashes):
${flagsHelp(mapFlagSource())}
  A LIST repeats the flag and/or separates values with commas (--include-paths '/docs/**,/blog/**').
  Prints one URL a line, then tab-separated its score (with --search) and its title when known;
  on stderr a summary: URLs found, whether --limit cut the list, robots.txt refusals, warnings.
`;
    },
    options: async () => {
      const { flagOptions, mapFlagSource } = await import('./cli/crawl-flags.js');
      return { ...flagOptions(mapFlagSource()), json: { type: 'boolean' } };
    },
    positionals: true,
    unused: ['server', 'mcp', 'auth', 'search', 'engines'],
    quiet: true,
    run: async (config, parsed) => {
      const { runMap } = await import('./cli/site-commands.js');
      return runMap(config, { ...parsed, logger: await makeLogger(config) });
    },
  },
  'crawl-site': {
    usage: async (config) => {
      const { flagsHelp, siteCrawlFlagSource } = await import('./cli/crawl-flags.js');
      return `websearch-mcp crawl-site <url> [options] [settings]
  --json                     print the job's status with every page, once the crawl is done
  --jsonl                    print each page as one JSON line as it arrives, then {"status": ...}
Crawl options, one for each field of POST /api/site-crawls (the API's names with dashes):
${flagsHelp(siteCrawlFlagSource(config))}
  A LIST repeats the flag and/or separates values with commas (--exclude-paths '/tag/**,/page/*').
  On/off options go alone, negated (--no-use-sitemap) or with true/false.
  Each page prints as it completes, with its depth and the page it was found on; a failed
  page is a line on stderr. On a terminal, a progress line on stderr counts the pages. Ctrl-C
  cancels the crawl (exit 130). Exit 1 when the crawl stopped with stop_reason "failed".
`;
    },
    options: async () => {
      const { flagOptions, siteCrawlFlagSource } = await import('./cli/crawl-flags.js');
      return {
        // The flags' names and kinds do not depend on the limits: the defaults' serve.
        ...flagOptions(siteCrawlFlagSource(loadConfig({ env: {} }))),
        json: { type: 'boolean' },
        jsonl: { type: 'boolean' },
      };
    },
    positionals: true,
    unused: ['server', 'mcp', 'auth', 'search', 'engines'],
    quiet: true,
    run: async (config, parsed) => {
      const { runCrawlSite } = await import('./cli/site-commands.js');
      return runCrawlSite(config, { ...parsed, logger: await makeLogger(config) });
    },
  },
  search: {
    usage: `websearch-mcp search <query...> [options] [settings]
  --engines a,b            engines for this search (default: every configured one)
  --max-results N          1-20 (default 10)
  --content                attach the Markdown of the top results (--include-content too);
                           on a terminal, a progress line on stderr as each page arrives
  --content-results N      how many results get content (1-10, default 5)
  --passages               with --content: only the passages that answer the query, not whole pages
  --max-passages N         passages per page with --passages (1-10, default 3)
  --max-passage-chars N    their characters in all per page (100-20000, default 1500)
  --include-comments       with --content: each page's readers' comments too, under "## Comments"
  --include-structured-data
                           with --content: each page's structured data (JSON-LD, microdata, RDFa,
                           OpenGraph) as schema.org items, printed as JSON under the page
  --json                   print the API's response object, and on a failed search or a bad
                           option the API's error body (a bad setting stays one line on stderr)
`,
    options: {
      engines: { type: 'string' },
      'max-results': { type: 'string' },
      content: { type: 'boolean' },
      'include-content': { type: 'boolean' },
      'content-results': { type: 'string' },
      passages: { type: 'boolean' },
      'max-passages': { type: 'string' },
      'max-passage-chars': { type: 'string' },
      'include-comments': { type: 'boolean' },
      'include-structured-data': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    positionals: true,
    unused: ['server', 'mcp', 'auth'],
    // The command's own --engines wins over the default set of WEBSEARCH_ENGINES.
    replaced: (options) => (options.engines !== undefined ? ['search.engines'] : []),
    quiet: true,
    run: (config, parsed) => runSearch(config, parsed),
  },
};

async function makeLogger(config: Config): Promise<Logger> {
  const { createLogger } = await import('./logging.js');
  return createLogger(config);
}

async function runStdio(config: Config): Promise<void> {
  // A desktop client spawns this on every launch: only what answers initialize and
  // tools/list loads now; the core (fetcher, parsers, engines, store) loads on the first call.
  const [logger, { resolveEngineSettings }, { createMcpServer }, { serveStdio }] = await Promise.all([
    makeLogger(config),
    import('./services/search/engine-settings.js'),
    import('./faces/mcp/create-mcp-server.js'),
    import('./faces/mcp/stdio.js'),
  ]);
  const engines = resolveEngineSettings(config).configured;
  let core: Promise<Core> | undefined;
  // A desktop helper idles all day: its pool is sized for footprint, not throughput.
  const services = () =>
    (core ??= import('./compose.js').then((m) => m.buildCore(config, logger, { poolSizing: 'footprint' })));
  const handle = createMcpServer({ config, logger, engines, services });
  const { closed } = await serveStdio(handle);
  logger.info('MCP server on stdio');
  // Someone typed `websearch-mcp` in a terminal: say what this is rather than wait in silence.
  if (process.stdin.isTTY)
    process.stderr.write(
      'websearch-mcp: this is the MCP server on stdio, waiting for a client (Claude Desktop, Claude Code, Cursor, VS Code) to speak JSON-RPC on stdin; Ctrl-C stops it. See "websearch-mcp --help" for serve, search, extract, map, crawl-site and keys.\n',
    );
  await closed;
  await handle.close().catch(() => undefined);
  if (core) await (await core).close();
}

async function runServe(config: Config): Promise<void> {
  const logger = await makeLogger(config);
  const [{ buildCore }, { startHttpServer }, { Metrics }] = await Promise.all([
    import('./compose.js'),
    import('./http-server.js'),
    import('./services/metrics.js'),
  ]);
  const core = await buildCore(config, logger, { metrics: new Metrics() });
  let server;
  try {
    server = await startHttpServer(core);
  } catch (err) {
    await core.close();
    const e = err as NodeJS.ErrnoException;
    // A host name that does not resolve (ENOTFOUND, or EAI_AGAIN without DNS) is a bad setting too.
    const why =
      e.code === 'EADDRINUSE'
        ? 'is in use by another program'
        : e.code === 'EACCES'
          ? 'needs privileges this process does not have'
          : e.code === 'EADDRNOTAVAIL'
            ? 'is not an address of this machine'
            : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
              ? 'does not resolve to an address'
              : undefined;
    if (why !== undefined) {
      throw new ConfigError([
        `${config.server.host}:${config.server.port} ${why}: choose another with --port / WEBSEARCH_PORT (or --host / WEBSEARCH_HOST)`,
      ]);
    }
    throw err;
  }
  // Site crawls this instance ran before a restart (or a dead instance's) go on.
  await core.siteCrawls.resume();
  const mode = config.mcp.stateless ? 'stateless' : 'with sessions';
  process.stderr.write(
    `websearch-mcp listening on ${server.url}: playground at /, GET|POST /api/search, POST /api/crawl, POST /api/map, POST /api/site-crawls, GET /r/<url>, GET /api/usage, MCP Streamable HTTP at /mcp (${mode}), legacy MCP SSE at /sse\n${serveBanner(config)}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // A second signal during the graceful stop means "now".
  const now = () => {
    process.stderr.write('websearch-mcp: stopping at once\n');
    process.exit(1);
  };
  process.once('SIGINT', now);
  process.once('SIGTERM', now);
  await server.close();
  await core.close();
}

/** The second line of `serve`'s banner: where state lives, and whether pages can be rendered. */
function serveBanner(config: Config): string {
  const { store, render } = config;
  const where =
    store.kind === 'redis'
      ? `redis ${redactedUrl(store.redisUrl as string)} (prefix ${store.redisPrefix})`
      : `sqlite ${store.path}`;
  const rendering =
    render.mode === 'never'
      ? 'off (WEBSEARCH_RENDER=never)'
      : render.chromiumPath === undefined
        ? 'off (no Chromium found: apt-get install chromium, or set CHROMIUM_PATH)'
        : `on (${render.mode}, ${render.chromiumPath})`;
  return `store: ${where}; rendering: ${rendering}`;
}

/** A URL without its password, for a banner. */
function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis';
  }
}

type Parsed = { options: Options; positionals: string[] };

async function runExtract(config: Config, { options, positionals }: Parsed): Promise<number> {
  if (positionals.length === 0) throw new UsageError('extract needs at least one URL');
  const json = options.json === true;
  const jsonl = options.jsonl === true;
  if (json && jsonl) throw new UsageError('--json and --jsonl are two output forms: choose one');
  const [{ requestBody, crawlFlagSource }, { ScreenshotFiles }] = await Promise.all([
    import('./cli/crawl-flags.js'),
    import('./cli/screenshot-files.js'),
  ]);
  // The page options, read and checked as POST /api/crawl's body before anything is fetched.
  const body = requestBody(crawlFlagSource(config), { urls: positionals }, options);
  const screenshotDir = options['screenshot-dir'] as string | undefined;
  if (screenshotDir !== undefined && body.screenshot !== true)
    throw new UsageError('--screenshot-dir is where --screenshot writes its files: give --screenshot too');
  if (screenshotDir !== undefined && (json || jsonl))
    throw new UsageError(
      '--screenshot-dir is for the page text: with --json or --jsonl the PNG is base64 in screenshot',
    );
  // Checked now: a directory that cannot be written to fails the call, not each page after its render.
  const screenshots = body.screenshot === true && !json && !jsonl ? new ScreenshotFiles(screenshotDir ?? '.') : null;
  const [{ buildCore }, { LOCAL_CALLER }, { incomingRequest }, { ProgressLine }] = await Promise.all([
    import('./compose.js'),
    import('./core/caller.js'),
    import('./core/request-context.js'),
    import('./cli/progress.js'),
  ]);
  const logger = await makeLogger(config);
  // One-shot: converting on this thread starts faster than a worker pool (BENCHMARKS.md).
  const core = await buildCore(config, logger, { converter: 'in-thread' });
  const progress = new ProgressLine(process.stderr, new Set(positionals).size);
  let printed = 0;
  let unsaved = 0;
  // Each page as it completes: Markdown in a terminal, one JSON line with --jsonl.
  const onProgress = ({ result, total }: { result: ExtractResult; total: number }) => {
    progress.step(!result.success, total);
    if (json) return;
    progress.print(() => {
      if (jsonl) process.stdout.write(`${JSON.stringify(result)}\n`);
      // Only a page printed counts: a failure, on stderr, leaves no page for the next one's separator to follow.
      else if (printPage(result, printed > 0)) printed++;
      if (screenshots !== null && result.screenshot !== undefined && !screenshots.save(result)) unsaved++;
    });
  };
  try {
    progress.start();
    // Through Operations, as every face: validated there, under the request's deadline.
    const response = await core.operations.extract(incomingRequest({ caller: LOCAL_CALLER, logger }), body, {
      onProgress,
    });
    progress.finish();
    if (json) process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
    if (jsonl) process.stdout.write(`${JSON.stringify({ metadata: response.metadata })}\n`);
    return response.metadata.failed_crawls > 0 || unsaved > 0 ? 1 : 0;
  } finally {
    progress.finish();
    await core.close();
  }
}

/**
 * One page of `extract`'s human output: what it is and where it came from, then its
 * Markdown as the API returns it, and its links (include_links); `after`: a page was printed
 * before it. Returns whether the page went to stdout (a failure goes to stderr).
 */
function printPage(result: ExtractResult, after: boolean): boolean {
  if (!result.success) {
    process.stderr.write(`${result.url}: ${result.error_type}: ${result.error}\n`);
    return false;
  }
  const links = result.links !== undefined ? `\n${linksText(result.links, result.links_truncated === true)}\n` : '';
  process.stdout.write(`${after ? '\n---\n\n' : ''}${readerText(result)}${links}`);
  if (result.next_start_char !== undefined) {
    process.stderr.write(
      `${result.url}: cut at ${result.next_start_char} of ${result.total_chars} characters (--start-char ${result.next_start_char} for the rest)\n`,
    );
  }
  return true;
}

async function runSearch(config: Config, { options, positionals }: Parsed): Promise<number> {
  if (positionals.length === 0) throw new UsageError('search needs a query');
  const json = options.json === true;
  const [
    { buildCore },
    { LOCAL_CALLER },
    { incomingRequest },
    { renderSearchMarkdown },
    { isAppError },
    { ProgressLine },
  ] = await Promise.all([
    import('./compose.js'),
    import('./core/caller.js'),
    import('./core/request-context.js'),
    import('./faces/mcp/tools/render-search-markdown.js'),
    import('./core/errors.js'),
    import('./cli/progress.js'),
  ]);
  try {
    const body: Record<string, unknown> = { q: positionals.join(' ') };
    if (options.content === true || options['include-content'] === true) body.include_content = true;
    if (options['content-results'] !== undefined)
      body.content_results = wholeNumber(options['content-results'] as string, '--content-results', 1);
    if (options.passages === true) body.content_mode = 'passages';
    if (options['max-passages'] !== undefined)
      body.max_passages = wholeNumber(options['max-passages'] as string, '--max-passages', 1);
    if (options['max-passage-chars'] !== undefined)
      body.max_passage_chars = wholeNumber(options['max-passage-chars'] as string, '--max-passage-chars', 1);
    if (options['max-results'] !== undefined)
      body.max_results = wholeNumber(options['max-results'] as string, '--max-results', 1);
    // On/off as extract's page options: alone, negated (--no-include-comments) or with true/false.
    if (options['include-comments'] !== undefined) body.include_comments = options['include-comments'];
    if (options['include-structured-data'] !== undefined)
      body.include_structured_data = options['include-structured-data'];
    if (options.engines !== undefined)
      body.engines = (options.engines as string)
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
    const logger = await makeLogger(config);
    const core = await buildCore(config, logger, { converter: 'in-thread' });
    // With content, the pages' progress on a terminal (the results print together at the end).
    const progress = new ProgressLine(process.stderr, 0, { what: 'pages', countsFailures: false });
    try {
      // Through Operations, as every face: validated there, under the request's deadline.
      const response = await core.operations.search(incomingRequest({ caller: LOCAL_CALLER, logger }), body, {
        onProgress: ({ total }) => progress.step(false, total),
      });
      progress.finish();
      process.stdout.write(
        json ? `${JSON.stringify(response, null, 2)}\n` : `${renderSearchMarkdown(response, body)}\n`,
      );
      return 0;
    } finally {
      progress.finish();
      await core.close();
    }
  } catch (err) {
    // With --json a failure is the API's error body too, so a script reads one shape; a
    // bad option is the API's invalid_request.
    if (json && isAppError(err))
      process.stdout.write(
        `${JSON.stringify({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } }, null, 2)}\n`,
      );
    if (json && err instanceof UsageError)
      process.stdout.write(
        `${JSON.stringify({ error: { code: 'invalid_request', message: err.message } }, null, 2)}\n`,
      );
    throw err;
  }
}

/** The configuration a command's help describes: the one given, or the defaults when it has a mistake (help still answers). */
function helpConfig(sources: ConfigSources): Config {
  try {
    return loadConfig(sources);
  } catch (err) {
    if (err instanceof ConfigError) return loadConfig({ env: {} });
    throw err;
  }
}

function configError(err: ConfigError): string {
  return err.problems.length === 1
    ? `websearch-mcp: ${err.problems[0]}\n`
    : `websearch-mcp: ${err.problems.length} settings are wrong:\n${err.problems.map((p) => `  - ${p}`).join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  let name = '';
  try {
    // Setting flags may come before the command: `websearch-mcp --log-level warn serve`.
    const { command, args } = splitCommand(argv, [...Object.keys(COMMANDS).filter(Boolean), 'keys']);
    name = command;
    if (name === 'keys') {
      const { runKeys } = await import('./cli/keys.js');
      return await runKeys(args, (settings, unused) => loadConfig({ argv: settings, unused }));
    }
    const def = COMMANDS[name];
    if (!def) {
      const guess = closest(name, [...Object.keys(COMMANDS).filter(Boolean), 'keys']);
      throw new UsageError(
        `unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; commands: serve, search, extract, map, crawl-site, keys`,
      );
    }
    const options = typeof def.options === 'function' ? await def.options() : def.options;
    const parsed = parseCommand(name, args, options, def.positionals);
    const unused = [...def.unused, ...(def.replaced?.(parsed.options) ?? [])];
    const sources: ConfigSources = {
      argv: parsed.settings,
      unused,
      defaults: { ...def.defaults, ...(def.quiet ? { log: { level: 'warn' as const } } : {}) },
    };
    if (parsed.help) {
      const usage = typeof def.usage === 'string' ? def.usage : await def.usage(helpConfig(sources));
      process.stdout.write(`Usage: ${usage}\nEvery setting can be given too: see "websearch-mcp --help".\n`);
      return 0;
    }
    const config = loadConfig(sources);
    return await def.run(config, parsed);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(configError(err));
      return 2;
    }
    if (err instanceof UsageError) {
      const known = name === '' || name === 'keys' || name in COMMANDS;
      process.stderr.write(
        `websearch-mcp: ${err.message.replace(/\.$/, '')}; see "websearch-mcp ${known && name ? `${name} ` : ''}--help"\n`,
      );
      return 2;
    }
    const { isAppError } = await import('./core/errors.js');
    if (isAppError(err) && err.code !== 'internal_error') {
      process.stderr.write(`websearch-mcp: ${err.code}: ${err.message}\n`);
      return err.code === 'invalid_request' ? 2 : 1;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A bug, not a mistake of the caller: one line saying so.
    process.stderr.write(
      `websearch-mcp: internal error (please report it): ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
