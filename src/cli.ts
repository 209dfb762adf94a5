#!/usr/bin/env node
/**
 * `websearch-mcp` — with no command, the stdio MCP server (what desktop clients spawn);
 * `serve` runs the HTTP API and `/mcp`; `extract` and `search` print results; `keys`
 * manages API keys. Exit codes: 0 done, 1 the operation failed, 2 a usage or setting
 * mistake (one line, no stack trace).
 */
import type { OptionSpec } from './cli/args.js';
import { UsageError, closest, parseCommand, wholeNumber } from './cli/args.js';
import type { Config, ConfigSources } from './core/config.js';
import { ConfigError, VERSION, loadConfig, settingsHelp } from './core/config.js';
import type { Core } from './compose.js';
import type { Logger } from './core/logger.js';

const USAGE = `websearch-mcp ${VERSION} — web search and URL extraction for AI agents (MCP + HTTP API)

Usage:
  websearch-mcp [settings]              run the MCP server on stdio (for desktop clients)
  websearch-mcp serve [settings]        run the HTTP API and MCP (/mcp, /sse) on --host:--port
  websearch-mcp search <query...>       print search results (Markdown, or --json)
  websearch-mcp extract <url...>        print pages as Markdown (or --json, --format html)
  websearch-mcp keys <create|list|revoke|topup|usage>
                                        manage API keys and credits
  websearch-mcp <command> --help        a command's own options
  websearch-mcp --version | -v

Settings (flag, environment variable, meaning, default); a flag wins over its variable:
${settingsHelp()}
`;

interface CommandDef {
  usage: string;
  options: Record<string, OptionSpec>;
  positionals: boolean;
  /** Config sections (or single settings) the command never reads: a bad value there does not stop it. */
  unused: readonly string[];
  /** Settings this call does not read because one of its own options replaces them. */
  replaced?: (options: Record<string, string | boolean | undefined>) => string[];
  /** One-shot commands log warnings and errors only, unless a level is asked for. */
  quiet: boolean;
  run(
    config: Config,
    parsed: { options: Record<string, string | boolean | undefined>; positionals: string[] },
  ): Promise<number>;
}

const COMMANDS: Record<string, CommandDef> = {
  '': {
    usage:
      'websearch-mcp [settings]\n  The MCP server on stdio: what Claude Desktop, Claude Code, Cursor and VS Code spawn.\n',
    options: {},
    positionals: false,
    unused: ['server', 'auth'],
    quiet: false,
    run: async (config) => {
      await runStdio(config);
      return 0;
    },
  },
  serve: {
    usage:
      'websearch-mcp serve [--host H] [--port P] [settings]\n  The HTTP API (POST /api/crawl, GET|POST /api/search), MCP Streamable HTTP at /mcp, legacy SSE at /sse,\n  /healthz, /metrics and /openapi.json.\n',
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
    usage: `websearch-mcp extract <url...> [options] [settings]
  --format markdown|html   main content as Markdown (default), or the page's HTML
  --json                   print the API's response object
  --max-chars N            at most N characters of each page (the rest: --start-char)
  --start-char N           continue a cut page from this offset
  --stealth                the stealth rate (see README)
  Exit 1 when a URL failed (its error goes to stderr).
`,
    options: {
      format: { type: 'string' },
      json: { type: 'boolean' },
      'max-chars': { type: 'string' },
      'start-char': { type: 'string' },
      stealth: { type: 'boolean' },
    },
    positionals: true,
    unused: ['server', 'mcp', 'auth', 'search', 'engines'],
    quiet: true,
    run: (config, parsed) => runExtract(config, parsed),
  },
  search: {
    usage: `websearch-mcp search <query...> [options] [settings]
  --engines a,b            engines for this search (default: every configured one)
  --max-results N          1-20 (default 10)
  --content                attach the Markdown of the top results
  --content-results N      how many results get content (1-10, default 5)
  --json                   print the API's response object, and on a failed search or a bad
                           option the API's error body (a bad setting stays one line on stderr)
`,
    options: {
      engines: { type: 'string' },
      'max-results': { type: 'string' },
      content: { type: 'boolean' },
      'content-results': { type: 'string' },
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
    import('./services/engine-settings.js'),
    import('./faces/mcp/create-mcp-server.js'),
    import('./faces/mcp/stdio.js'),
  ]);
  const engines = resolveEngineSettings(config).configured;
  let core: Promise<Core> | undefined;
  const services = () => (core ??= import('./compose.js').then((m) => m.buildCore(config, logger)));
  const handle = createMcpServer({ config, logger, engines, services });
  const { closed } = await serveStdio(handle);
  logger.info('MCP server on stdio');
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
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      const why =
        e.code === 'EADDRINUSE'
          ? 'is in use by another program'
          : e.code === 'EACCES'
            ? 'needs privileges this process does not have'
            : 'is not an address of this machine';
      throw new ConfigError([
        `${config.server.host}:${config.server.port} ${why}: choose another with --port / WEBSEARCH_PORT (or --host / WEBSEARCH_HOST)`,
      ]);
    }
    throw err;
  }
  const mode = config.mcp.stateless ? 'stateless' : 'with sessions';
  process.stderr.write(
    `websearch-mcp listening on ${server.url}: GET|POST /api/search, POST /api/crawl, MCP Streamable HTTP at /mcp (${mode}), legacy MCP SSE at /sse\n`,
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

type Parsed = { options: Record<string, string | boolean | undefined>; positionals: string[] };

async function runExtract(config: Config, { options, positionals }: Parsed): Promise<number> {
  if (positionals.length === 0) throw new UsageError('extract needs at least one URL');
  const format = (options.format as string | undefined) ?? 'markdown';
  if (format !== 'markdown' && format !== 'html')
    throw new UsageError(`--format is markdown or html (got "${format}")`);
  const maxChars = wholeNumber(options['max-chars'] as string | undefined, '--max-chars', 1);
  const startChar = wholeNumber(options['start-char'] as string | undefined, '--start-char') ?? 0;
  const json = options.json === true;
  const [{ buildCore }, { LOCAL_CALLER }, { incomingRequest }] = await Promise.all([
    import('./compose.js'),
    import('./core/caller.js'),
    import('./core/request-context.js'),
  ]);
  const body = {
    urls: positionals,
    format,
    stealth: options.stealth === true,
    start_char: startChar,
    ...(maxChars !== undefined ? { max_chars: maxChars } : {}),
  };
  const logger = await makeLogger(config);
  // One-shot: converting on this thread starts faster than a worker pool (BENCHMARKS.md).
  const core = await buildCore(config, logger, { converter: 'in-thread' });
  try {
    // Through Operations, as every face: validated there, under the request's deadline.
    const response = await core.operations.extract(incomingRequest({ caller: LOCAL_CALLER, logger }), body);
    if (json) {
      process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
    } else {
      response.results.forEach((result, i) => {
        if (!result.success) {
          process.stderr.write(`${result.url}: ${result.error_type}: ${result.error}\n`);
          return;
        }
        // A page starts with what it is and where it came from; its Markdown follows as the API returns it.
        const header = [`Title: ${result.title ?? '(none)'}`, `URL: ${result.final_url ?? result.url}`];
        if (result.page_type) header.push(`Page type: ${result.page_type}`);
        process.stdout.write(`${i > 0 ? '\n---\n\n' : ''}${header.join('\n')}\n\n${result.html ?? result.markdown}\n`);
        if (result.next_start_char !== undefined) {
          process.stderr.write(
            `${result.url}: cut at ${result.next_start_char} of ${result.total_chars} characters (--start-char ${result.next_start_char} for the rest)\n`,
          );
        }
      });
    }
    return response.metadata.failed_crawls > 0 ? 1 : 0;
  } finally {
    await core.close();
  }
}

async function runSearch(config: Config, { options, positionals }: Parsed): Promise<number> {
  if (positionals.length === 0) throw new UsageError('search needs a query');
  const json = options.json === true;
  const [{ buildCore }, { LOCAL_CALLER }, { incomingRequest }, { renderSearchMarkdown }, { isAppError }] =
    await Promise.all([
      import('./compose.js'),
      import('./core/caller.js'),
      import('./core/request-context.js'),
      import('./faces/mcp/tools/render-search-markdown.js'),
      import('./core/errors.js'),
    ]);
  try {
    const body: Record<string, unknown> = { q: positionals.join(' ') };
    if (options.content === true) body.include_content = true;
    if (options['content-results'] !== undefined)
      body.content_results = wholeNumber(options['content-results'] as string, '--content-results', 1);
    if (options['max-results'] !== undefined)
      body.max_results = wholeNumber(options['max-results'] as string, '--max-results', 1);
    if (options.engines !== undefined)
      body.engines = (options.engines as string)
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
    const logger = await makeLogger(config);
    const core = await buildCore(config, logger, { converter: 'in-thread' });
    try {
      // Through Operations, as every face: validated there, under the request's deadline.
      const response = await core.operations.search(incomingRequest({ caller: LOCAL_CALLER, logger }), body);
      process.stdout.write(json ? `${JSON.stringify(response, null, 2)}\n` : `${renderSearchMarkdown(response)}\n`);
      return 0;
    } finally {
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
  const named = first !== undefined && !first.startsWith('-');
  const name = named ? (first as string) : '';
  try {
    if (name === 'keys') {
      const { runKeys } = await import('./cli/keys.js');
      return await runKeys(argv.slice(1), (settings, unused) => loadConfig({ argv: settings, unused }));
    }
    const command = COMMANDS[name];
    if (!command) {
      const guess = closest(name, [...Object.keys(COMMANDS).filter(Boolean), 'keys']);
      throw new UsageError(
        `unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; commands: serve, search, extract, keys`,
      );
    }
    const parsed = parseCommand(
      name || 'websearch-mcp',
      named ? argv.slice(1) : argv,
      command.options,
      command.positionals,
    );
    if (parsed.help) {
      process.stdout.write(`Usage: ${command.usage}\nEvery setting can be given too: see "websearch-mcp --help".\n`);
      return 0;
    }
    const unused = [...command.unused, ...(command.replaced?.(parsed.options) ?? [])];
    const sources: ConfigSources = {
      argv: parsed.settings,
      unused,
      ...(command.quiet ? { defaults: { log: { level: 'warn' } } } : {}),
    };
    const config = loadConfig(sources);
    return await command.run(config, parsed);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(configError(err));
      return 2;
    }
    if (err instanceof UsageError) {
      const known = name === '' || name === 'keys' || name in COMMANDS;
      process.stderr.write(
        `websearch-mcp: ${err.message}; see "websearch-mcp ${known && name ? `${name} ` : ''}--help"\n`,
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
