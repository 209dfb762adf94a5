/**
 * The OpenAPI document as other languages read it (issue 34, item 18): the host-name
 * pattern compiles without lookaround or `\p{..}` (checked with Python's `re` when python3
 * is on the machine) and accepts exactly the host names the old Unicode pattern did;
 * `SearchResult.engines` is required.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { HOST_NAME_PATTERN, searchRequestSchema } from '../../src/core/schemas.js';
import { buildOpenApiDocument } from '../../src/faces/http/openapi.js';

// The pattern before: what the API accepted, and must still accept, exactly.
const UNICODE = /^(?!-)[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.?$/u;

const HOSTS = [
  'example.com',
  'Example.COM',
  'a',
  'a.b.c.d',
  'xn--bcher-kva.de',
  'bücher.de',
  'пример.рф',
  '例子.测试',
  'a-b.com',
  'a.com.',
  '1.2.3.4',
  '-a.com',
  'a.-b.com',
  'a..b',
  '.a.com',
  'a_b.com',
  'a b.com',
  'http://a.com',
  'a.com/path',
  'a.com:80',
  'x—y.com',
  'smile😀.com',
  'a\u00a0b.com',
  'ａｂｃ.com',
  'a.com..',
  '',
];

function accepted(host: string): boolean {
  return searchRequestSchema.safeParse({ q: 'x', include_domains: [host] }).success;
}

function findPatterns(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => findPatterns(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') out.push(v);
      else findPatterns(v, out);
    }
  return out;
}

const document = buildOpenApiDocument({ config: loadConfig({ env: {} }) });

describe('the host-name pattern', () => {
  it('accepts exactly what the Unicode pattern accepted', () => {
    for (const host of HOSTS) {
      const old = host.trim() !== '' && UNICODE.test(host.trim().toLowerCase());
      expect(accepted(host), host).toBe(old);
    }
  });

  it('is published without lookaround or \\p{..}', () => {
    const patterns = findPatterns(document);
    expect(patterns).toContain(HOST_NAME_PATTERN.source);
    for (const p of patterns) expect(p).not.toMatch(/\(\?[!=<]|\\[pP]\{/);
  });

  it.skipIf(spawnSync('python3', ['--version']).status !== 0)(
    "compiles every published pattern in Python's re and matches as JavaScript does",
    () => {
      const patterns = findPatterns(document);
      const script = [
        'import json, re, sys',
        'data = json.load(sys.stdin)',
        'out = {}',
        'for p in data["patterns"]:',
        '    r = re.compile(p)',
        '    out[p] = [bool(r.search(h)) for h in data["hosts"]]',
        'print(json.dumps(out))',
      ].join('\n');
      const run = spawnSync('python3', ['-c', script], {
        input: JSON.stringify({ patterns, hosts: HOSTS }),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const python = JSON.parse(run.stdout) as Record<string, boolean[]>;
      const js = HOSTS.map((h) => HOST_NAME_PATTERN.test(h));
      expect(python[HOST_NAME_PATTERN.source]).toEqual(js);
    },
  );
});

describe('SearchResult.engines', () => {
  it('is required in the published result schema', () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; required?: string[] };
    const response = (document as { components: { schemas: Record<string, Schema> } }).components.schemas
      .SearchResponse as Schema;
    expect(response.properties?.results?.items?.required).toContain('engines');
  });
});

describe('a bad host name', () => {
  it('is one issue, not one per check', () => {
    const parsed = searchRequestSchema.safeParse({ q: 'x', include_domains: ['a b.com', 'x—y.com'] });
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['include_domains.0', 'include_domains.1']);
  });
});
