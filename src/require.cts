/**
 * The package's `require` entry (package.json "exports"): the library ships as ES modules
 * only. Where Node.js can require() an ES module (20.19 and later, 22.12 and later) this
 * hands over that module itself, the same instance import() gives; elsewhere it fails
 * saying what to do instead, not with a resolution error.
 */
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- require() is what this entry is for: the ES module, loaded synchronously
  module.exports = require('./index.js');
} catch (error) {
  if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
  throw new Error(
    "websearch-mcp is ESM-only: use import() (in CommonJS too: const { createWebSearch } = await import('websearch-mcp')). " +
      `require('websearch-mcp') needs a Node.js that can require() ES modules (20.19 and later), which this one (${process.version}) cannot.`,
    { cause: error },
  );
}
