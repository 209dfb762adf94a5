#!/usr/bin/env node
/**
 * `websearch-mcp` — with no command, the stdio MCP server (what desktop clients spawn);
 * `serve` runs the HTTP API and `/mcp`; `extract` prints pages as Markdown or JSON.
 */
import type { Config } from './core/config.js';
import { ConfigError, VERSION, loadConfig, parseSettingFlags, settingsHelp } from './core/config.js';
import type { Core } from './compose.js';
import type { Logger } from './core/logger.js';

const USAGE = `websearch-mcp ${VERSION} — web search and URL extraction for AI agents (MCP + HTTP API)

Usage:
  websearch-mcp                         run the MCP server on stdio (for desktop clients)
  websearch-mcp serve [--host H] [--port P]
                                        run the HTTP API (POST /api/crawl) and MCP at /mcp
  websearch-mcp search "<query>" [--content] [--content-results N] [--engines a,b]
                                        [--max-results N] [--json]
                                        print search results (Markdown, or the API's JSON)
  websearch-mcp extract <url...> [--format markdown|html] [--json]
                                        [--max-chars N] [--start-char N] [--stealth]
                                        print the pages (Markdown, or the API's JSON)
  websearch-mcp --help | --version

Settings (flag, environment variable, meaning):
${settingsHelp()}
`;

class UsageError extends Error {}

async function makeLogger(config: Config): Promise<Logger> {
  const { createLogger } = await import('./logging.js');
  return createLogger(config);
}

async function runStdio(config: Config): Promise<void> {
  // A desktop client spawns this on every launch: only what answers initialize and
  // tools/list loads now; the core (fetcher, parsers, engines) loads on the first call.
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
  const [{ buildCore }, { startHttpServer }, { Metrics }] = await Promise.all([import('./compose.js'), import('./http-server.js'), import('./services/metrics.js')]);
  const core = await buildCore(config, logger, { metrics: new Metrics() });
  const server = await startHttpServer(core);
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

interface ExtractArgs {
  urls: string[];
  format: 'markdown' | 'html';
  json: boolean;
  stealth: boolean;
  maxChars?: number;
  startChar: number;
}

function parseExtractArgs(args: string[]): ExtractArgs {
  const out: ExtractArgs = { urls: [], format: 'markdown', json: false, stealth: false, startChar: 0 };
  const intValue = (name: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < 0) throw new UsageError(`${name} needs a whole number`);
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (name === '--json') out.json = true;
    else if (name === '--stealth') out.stealth = true;
    else if (name === '--format') {
      const f = value();
      if (f !== 'markdown' && f !== 'html') throw new UsageError('--format is markdown or html');
      out.format = f;
    } else if (name === '--max-chars') out.maxChars = intValue('--max-chars', value());
    else if (name === '--start-char') out.startChar = intValue('--start-char', value());
    else if (name.startsWith('--')) throw new UsageError(`unknown option ${name}`);
    else out.urls.push(arg);
  }
  if (out.urls.length === 0) throw new UsageError('extract needs at least one URL');
  return out;
}

async function runExtract(config: Config, args: string[]): Promise<number> {
  const options = parseExtractArgs(args);
  const logger = await makeLogger(config);
  const [{ buildCore }, { crawlRequestSchema }, { validate }] = await Promise.all([
    import('./compose.js'),
    import('./core/schemas.js'),
    import('./core/validate.js'),
  ]);
  const request = validate(crawlRequestSchema({ maxUrls: config.crawl.maxUrls, maxTimeoutMs: config.fetch.maxTimeoutMs }), {
    urls: options.urls,
    format: options.format,
    stealth: options.stealth,
    start_char: options.startChar,
    ...(options.maxChars !== undefined ? { max_chars: options.maxChars } : {}),
  });
  const core = await buildCore(config, logger);
  try {
    const response = await core.crawl.crawl(request);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
    } else {
      const multiple = response.results.length > 1;
      for (const result of response.results) {
        if (!result.success) {
          process.stderr.write(`${result.url}: ${result.error_type}: ${result.error}\n`);
          continue;
        }
        if (multiple) process.stdout.write(`<!-- ${result.url} -->\n`);
        process.stdout.write(`${result.html ?? result.markdown}\n`);
        if (result.next_start_char !== undefined) {
          process.stderr.write(`${result.url}: cut at ${result.next_start_char} of ${result.total_chars} characters (--start-char ${result.next_start_char} for the rest)\n`);
        }
      }
    }
    return response.metadata.failed_crawls > 0 ? 1 : 0;
  } finally {
    await core.close();
  }
}

interface SearchArgs {
  query: string;
  body: Record<string, unknown>;
  json: boolean;
}

function parseSearchArgs(args: string[]): SearchArgs {
  const words: string[] = [];
  const body: Record<string, unknown> = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (name === '--json') json = true;
    else if (name === '--content') body.include_content = true;
    else if (name === '--content-results') body.content_results = Number(value());
    else if (name === '--max-results') body.max_results = Number(value());
    else if (name === '--engines') body.engines = value().split(',').map((e) => e.trim()).filter(Boolean);
    else if (name.startsWith('--')) throw new UsageError(`unknown option ${name}`);
    else words.push(arg);
  }
  if (words.length === 0) throw new UsageError('search needs a query');
  return { query: words.join(' '), body: { q: words.join(' '), ...body }, json };
}

async function runSearch(config: Config, args: string[]): Promise<number> {
  const options = parseSearchArgs(args);
  const logger = await makeLogger(config);
  const [{ buildCore }, { searchRequestSchema }, { validate }, { renderSearchMarkdown }] = await Promise.all([
    import('./compose.js'),
    import('./core/schemas.js'),
    import('./core/validate.js'),
    import('./faces/mcp/tools/render-search-markdown.js'),
  ]);
  const request = validate(searchRequestSchema, options.body);
  const core = await buildCore(config, logger);
  try {
    const response = await core.search.search(request);
    process.stdout.write(options.json ? `${JSON.stringify(response, null, 2)}\n` : `${renderSearchMarkdown(response)}\n`);
    return 0;
  } finally {
    await core.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // Setting flags may stand anywhere; what is left is the command and its arguments.
  const [command, ...commandArgs] = parseSettingFlags(argv).rest;
  try {
    const config = loadConfig({ argv });
    switch (command) {
      case undefined:
        await runStdio(config);
        return 0;
      case 'serve':
        if (commandArgs.length > 0) throw new UsageError(`serve takes no arguments besides settings (got ${commandArgs.join(' ')})`);
        await runServe(config);
        return 0;
      case 'extract':
        return await runExtract(config, commandArgs);
      case 'search':
        return await runSearch(config, commandArgs);
      case 'keys': {
        const { runKeys } = await import('./cli/keys.js');
        return await runKeys(config, commandArgs);
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    if (err instanceof UsageError || (err instanceof Error && err.name === 'KeysUsageError')) {
      process.stderr.write(`websearch-mcp: ${err.message}\nRun "websearch-mcp --help" for usage.\n`);
      return 2;
    }
    const { isAppError } = await import('./core/errors.js');
    if (isAppError(err)) {
      process.stderr.write(`websearch-mcp: ${err.code}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`websearch-mcp: fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
