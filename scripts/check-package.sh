#!/usr/bin/env bash
# Installs the packed tarball into an empty directory, as a user would, and checks what a
# user touches first: the bin's --version, tools/list over stdio, import('websearch-mcp')
# with its types, and one htmlToMarkdown call. A packaging mistake fails here, not for a user.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== pack"
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
tar -tzf "$work/$tarball" > "$work/files"
if grep -q '\.map$' "$work/files"; then echo "the tarball ships source maps without their sources" >&2; exit 1; fi
for f in package/LICENSE package/README.md package/dist/cli.js package/dist/index.js package/dist/index.d.ts package/dist/require.cjs package/dist/workers/convert-worker.js package/dist/workers/convert-worker-entry.cjs package/dist/faces/http/playground/index.html package/dist/faces/http/playground/playground.js; do
  grep -qx "$f" "$work/files" || { echo "the tarball lacks $f" >&2; exit 1; }
done

echo "== install $tarball into an empty project"
mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
npm install --no-audit --no-fund "$work/$tarball" >/dev/null

echo "== the bin"
version="$(./node_modules/.bin/websearch-mcp --version)"
expected="$(node -p "require('$root/package.json').version")"
[ "$version" = "$expected" ] || { echo "--version printed '$version', expected '$expected'" >&2; exit 1; }
echo "websearch-mcp --version: $version"

echo "== tools/list over stdio, import and htmlToMarkdown"
cat > check.mjs <<'JS'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createWebSearch, htmlToMarkdown, AppError } from 'websearch-mcp';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['node_modules/.bin/websearch-mcp'],
  env: { ...process.env, WEBSEARCH_STORE_PATH: ':memory:', WEBSEARCH_LOG_LEVEL: 'silent' },
});
const client = new Client({ name: 'package-check', version: '1.0.0' });
await client.connect(transport);
const { tools } = await client.listTools();
await client.close();
const names = tools.map((t) => t.name).sort().join(',');
if (names !== 'crawl_site,crawl_status,extract_urls,map_site,web_search') throw new Error(`tools/list gave ${names}`);
console.log(`tools/list: ${names}`);

const { markdown, title } = htmlToMarkdown('<html><head><title>Check</title></head><body><article><h1>Packed</h1><p>The tarball works when installed.</p></article></body></html>', 'https://example.com/');
if (!markdown.includes('The tarball works when installed.')) throw new Error(`htmlToMarkdown gave ${JSON.stringify(markdown)}`);
console.log(`htmlToMarkdown: ${JSON.stringify(title)} -> ${markdown.length} characters`);

const web = createWebSearch({ env: {}, config: { store: { path: ':memory:' } } });
try {
  await web.extract({ urls: [] });
  throw new Error('an empty extract request was accepted');
} catch (err) {
  if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err;
  console.log(`createWebSearch: invalid_request as expected (${err.message})`);
}
// Builds the core, so the native SQLite module must have been compiled by the install.
const answer = await web.extract({ urls: ['not a url'] });
if (answer.results[0]?.error_type !== 'invalid_url') throw new Error(`extract gave ${JSON.stringify(answer.results[0])}`);
console.log('createWebSearch: the core (and its SQLite store) loads');
await web.close();

// A page converted by the worker pool: its worker file is found inside the installed package.
const http = await import('node:http');
const site = http.createServer((req, res) => {
  res.writeHead(req.url === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' });
  res.end('<html><head><title>Pooled</title></head><body><article><h1>Pooled</h1><p>Converted on a worker thread of the installed package.</p></article></body></html>');
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const local = createWebSearch({ env: {}, config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } } });
const pooled = await local.extract({ urls: [`http://127.0.0.1:${site.address().port}/page`] });
await local.close();
site.close();
if (!pooled.results[0]?.markdown.includes('Converted on a worker thread')) throw new Error(`the pool gave ${JSON.stringify(pooled.results[0])}`);
console.log('createWebSearch: a page converted by the worker pool');
JS
node check.mjs

echo "== require() from CommonJS"
# The library is ESM only (README, "Use it as a library"): require() gives it where Node.js
# can require() an ES module, and otherwise says to use import().
node -e "const { htmlToMarkdown } = require('websearch-mcp'); if (typeof htmlToMarkdown !== 'function') process.exit(1)"
echo "require('websearch-mcp'): the ES module"
if node --no-experimental-require-module -e "require('websearch-mcp')" 2> require.err; then
  echo "require() without require(esm) did not fail" >&2; exit 1
fi
grep -q "websearch-mcp is ESM-only: use import()" require.err || { cat require.err >&2; exit 1; }
echo "require('websearch-mcp') without require(esm): says to use import()"

cat > check.ts <<'TS'
import { createWebSearch, type SearchResponse, type ExtractRequest, type MapResponse, type SiteCrawlPage } from 'websearch-mcp';
const web = createWebSearch();
const request: ExtractRequest = { urls: ['https://example.com/'] };
const answer: Promise<SearchResponse> = web.search({ q: 'types' });
const map: Promise<MapResponse> = web.map({ url: 'https://example.com/' });
const pages = async (): Promise<SiteCrawlPage[]> => {
  const job = await web.crawlSite({ url: 'https://example.com/', limit: 2 });
  const all: SiteCrawlPage[] = [];
  for await (const page of job.pages) all.push(page);
  return all;
};
void request;
void answer;
void map;
void pages;
TS
npm install --no-audit --no-fund --silent typescript@~5.9 @types/node@^20 >/dev/null
npx --no-install tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --types node check.ts
echo "types: check.ts compiles against the installed package"
echo "== package check passed"
