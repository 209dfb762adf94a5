/**
 * Keeps the dependency rule honest (docs/architecture.md): faces -> services ->
 * {engines, extract, net, store, render} -> core (workers -> extract -> core); core imports nothing from src; only
 * faces import the MCP SDK or the HTTP framework; only core/config.ts reads process.env.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const rel = relative(SRC, file).split('/');
  return rel.length === 1 ? 'root' : rel[0] === 'faces' ? 'faces' : (rel[0] as string);
}

const ALLOWED: Record<string, string[]> = {
  core: ['core'],
  extract: ['extract', 'core'],
  engines: ['engines', 'core'],
  net: ['net', 'core'],
  store: ['store', 'core'],
  render: ['render', 'core', 'net'],
  services: ['services', 'core', 'extract', 'engines', 'net'],
  // The conversion pool's adapters and worker entry: they run extract/ off the event loop.
  workers: ['workers', 'extract', 'core'],
  faces: ['faces', 'services', 'core', 'extract', 'engines'],
  root: ['root', 'cli', 'core', 'net', 'extract', 'engines', 'services', 'store', 'render', 'faces', 'workers'],
  // The command line's modules are part of the composition root.
  cli: ['root', 'cli', 'core', 'net', 'extract', 'engines', 'services', 'store', 'render', 'faces', 'workers'],
};

const imports = (source: string) =>
  [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] as string);

describe('dependency rule', () => {
  const all = files(SRC);
  it.each(all.map((f) => [relative(SRC, f), f]))('%s imports only what its layer may', (_name, file) => {
    const layer = layerOf(file);
    const source = readFileSync(file, 'utf8');
    for (const spec of imports(source)) {
      if (spec.startsWith('.')) {
        const target = layerOf(join(file, '..', spec));
        expect(ALLOWED[layer], `${relative(SRC, file)} -> ${spec}`).toContain(target);
      } else if (/^(@modelcontextprotocol\/sdk|hono|@hono\/)/.test(spec)) {
        expect(['faces', 'root'], `${relative(SRC, file)} imports ${spec}`).toContain(layer);
      }
    }
    if (relative(SRC, file) !== 'core/config.ts') {
      expect(source, `${relative(SRC, file)} reads process.env`).not.toMatch(/process\.env/);
    }
  });
});

describe('import graph', () => {
  it('has no cycle, type-only imports included', () => {
    const graph = new Map<string, string[]>();
    for (const file of files(SRC)) {
      const targets = imports(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => join(file, '..', spec).replace(/\.js$/, '.ts'));
      graph.set(file, targets);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') {
          cycles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(' -> '));
        } else if (state.get(next) === undefined && graph.has(next)) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
