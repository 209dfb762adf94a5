/**
 * The operator's word vectors (WEBSEARCH_WORD_VECTORS) where ranking runs: loaded once at
 * start, handed to the converter (the worker pool's threads read the shared matrix; the
 * in-thread converter the same vectors), so that /api/crawl with `query` finds a passage
 * that answers in other words; the map's `search` ranks links by them too; /healthz
 * reports them; without the setting the server ranks as before. The words are made up, so
 * that neither WordNet nor the stemmer can bridge the question and its answer: only the
 * vectors can (real synonyms such as car and automobile WordNet already joins).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCore, type Core } from '../../src/compose.js';
import type { Config, DeepPartial } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { startHttpServer, type RunningServer } from '../../src/http-server.js';
import { ConfigError, createWebSearch } from '../../src/index.js';
import { ConvertPool } from '../../src/workers/convert-pool.js';
import { InThreadConverter } from '../../src/workers/in-thread-converter.js';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { testConfig } from '../helpers/test-server.js';
import { TOPIC_VECTORS, VECTOR_DIMS, vectorsText } from '../helpers/word-vectors-text.js';

/** The test's vectors file: 120 filler rows, then the page's words. */
const vectorsFile = (): string => vectorsText(TOPIC_VECTORS, { fillers: 120 });

const filler = (topic: string) =>
  Array.from({ length: 4 }, (_, i) => `Note ${i + 1} on ${topic} goes on at some length, as real notes would.`).join(
    ' ',
  );

/**
 * The answer ("Quimbles grelp blue moss") shares no word with the question; another section
 * shares one ("market"), so that without the vectors that section comes first.
 */
const NOTES_HTML = `<!doctype html><html lang="en"><head><title>Field notes</title></head><body><article>
<h1>Field notes</h1>
<h2>The tower</h2><p>The tower was raised by masons from the coast over many seasons of hard work. ${filler('the tower')}</p>
<h2>The square</h2><p>A market opens on the square each week, and traders come from far away. ${filler('the square')}</p>
<h2>The valley</h2><p>Rain fell for three days in the valley and the river rose above its banks. ${filler('the valley')}</p>
<h2>The meadow</h2><p>Quimbles grelp blue moss every morning before the sun is high. ${filler('the meadow')}</p>
</article></body></html>`;

/** A start page whose links the map ranks: the one the vectors favour comes last in the page. */
const START_HTML = `<!doctype html><html lang="en"><head><title>Notes</title></head><body>
<a href="/wv/tower">Tower</a> <a href="/wv/square">Square</a> <a href="/wv/quimbles">Quimbles</a>
</body></html>`;

const QUESTION = 'What does a zorblat snorf at the market?';

let dir: string;
let vectorsPath: string;
let site: FixtureSite;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'word-vectors-'));
  vectorsPath = join(dir, 'vectors.txt');
  writeFileSync(vectorsPath, vectorsFile());
  const page = (html: string) => ({
    description: 'word vectors fixture',
    handle: ({ res }: { res: Parameters<typeof send>[0] }) => send(res, 200, 'text/html; charset=utf-8', html),
  });
  site = await startFixtureSite({
    scenarios: [
      { path: '/wv/notes', ...page(NOTES_HTML) },
      { path: '/wv/', ...page(START_HTML) },
      { path: '/wv/tower', ...page(NOTES_HTML) },
      { path: '/wv/square', ...page(NOTES_HTML) },
      { path: '/wv/quimbles', ...page(NOTES_HTML) },
    ],
  });
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A server on a core built as `serve` builds it, converting in the pool or on this thread. */
async function server(converter: 'pool' | 'in-thread', overrides: DeepPartial<Config> = {}) {
  const core: Core = await buildCore(
    testConfig({ cache: { ttlMs: 0 }, convert: { threads: 1 }, ...overrides }),
    silentLogger,
    { converter },
  );
  let running: RunningServer;
  try {
    running = await startHttpServer(core);
  } catch (err) {
    await core.close();
    throw err;
  }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  return {
    core,
    url: running.url,
    /** The passages /api/crawl answers for the question, best first (it lists them in page order). */
    passages: async (): Promise<string[]> => {
      const json = await post('/api/crawl', { urls: [`${site.origin}/wv/notes`], query: QUESTION, max_passages: 4 });
      expect(json.results[0]).toMatchObject({ success: true });
      const passages: Array<{ text: string; score: number }> = json.results[0].passages;
      return passages.sort((a, b) => b.score - a.score).map((p) => p.text);
    },
    /** The paths /api/map lists for a search, best first. */
    map: async (search: string): Promise<string[]> => {
      const json = await post('/api/map', { url: `${site.origin}/wv/`, search, sitemap: 'skip' });
      return json.links.map((l: { url: string }) => new URL(l.url).pathname);
    },
    close: async () => {
      await running.close();
      await core.close();
    },
  };
}

describe.each(['pool', 'in-thread'] as const)('word vectors, converting %s', (converter) => {
  it("put the passage that answers in other words first; without them another section's is", async () => {
    const plain = await server(converter);
    try {
      const ranked = await plain.passages();
      // The fixture can tell: without the vectors the answer is not the first passage.
      expect(ranked[0] ?? '').not.toContain('Quimbles grelp');
      expect(ranked[0]).toContain('A market opens');
    } finally {
      await plain.close();
    }
    const vectors = await server(converter, { passages: { wordVectors: vectorsPath } });
    try {
      expect(vectors.core.converter).toBeInstanceOf(converter === 'pool' ? ConvertPool : InThreadConverter);
      expect(vectors.core.wordVectors).toMatchObject({ dims: VECTOR_DIMS });
      const ranked = await vectors.passages();
      expect(ranked[0]).toContain('Quimbles grelp blue moss');
      expect(ranked[0]).not.toContain('A market opens');
    } finally {
      await vectors.close();
    }
  });
});

describe('word vectors elsewhere', () => {
  it("rank the map's links by meaning, and /healthz names their words and dimensions", async () => {
    const plain = await server('in-thread');
    try {
      expect((await plain.map('zorblat'))[0]).not.toBe('/wv/quimbles');
      const health = (await (await fetch(`${plain.url}/healthz`)).json()) as any;
      expect(health.status).toBe('ok');
      expect(health.word_vectors).toBeUndefined();
    } finally {
      await plain.close();
    }
    const vectors = await server('in-thread', { passages: { wordVectors: vectorsPath } });
    try {
      expect((await vectors.map('zorblat'))[0]).toBe('/wv/quimbles');
      const health = (await (await fetch(`${vectors.url}/healthz`)).json()) as any;
      expect(health).toMatchObject({ status: 'ok', word_vectors: { words: 130, dims: VECTOR_DIMS } });
    } finally {
      await vectors.close();
    }
  });

  it('load only the first WEBSEARCH_WORD_VECTORS_WORDS words', async () => {
    const core = await buildCore(
      testConfig({ passages: { wordVectors: vectorsPath, wordVectorsWords: 1_000 } }),
      silentLogger,
      { converter: 'in-thread' },
    );
    try {
      expect(core.wordVectors?.words.length).toBe(130);
      expect(core.wordVectors?.matrix.buffer).toBeInstanceOf(SharedArrayBuffer);
    } finally {
      await core.close();
    }
    // 1,000 is the least the setting takes: a file of 1,200 words is cut there.
    const long = join(dir, 'long.txt');
    writeFileSync(
      long,
      Array.from(
        { length: 1_200 },
        (_, i) => `w${i} ${Array.from({ length: VECTOR_DIMS }, (_, k) => (i + k) % 7).join(' ')}`,
      )
        .join('\n')
        .concat('\nnot a vector line\n'),
    );
    const cut = await buildCore(
      testConfig({ passages: { wordVectors: long, wordVectorsWords: 1_000 } }),
      silentLogger,
      {
        converter: 'in-thread',
      },
    );
    try {
      expect(cut.wordVectors?.words.length).toBe(1_000);
    } finally {
      await cut.close();
    }
  });
});

describe('the library', () => {
  it('refuses a vectors file that is missing or malformed with a ConfigError naming the setting', async () => {
    const missing = join(dir, 'missing.txt');
    expect(() => createWebSearch({ config: { passages: { wordVectors: missing } } })).toThrow(ConfigError);
    expect(() => createWebSearch({ env: { WEBSEARCH_WORD_VECTORS: missing } })).toThrow(
      `WEBSEARCH_WORD_VECTORS: no file at ${missing}`,
    );
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, `${vectorsFile()}broken 1 2 three 4 5 6\n`);
    const web = createWebSearch({ config: { passages: { wordVectors: bad }, store: { path: ':memory:' } } });
    try {
      const call = web.extract({ urls: [`${site.origin}/wv/notes`], query: QUESTION });
      await expect(call).rejects.toBeInstanceOf(ConfigError);
      await expect(call).rejects.toMatchObject({
        problems: [
          expect.stringMatching(new RegExp(`^WEBSEARCH_WORD_VECTORS: ${bad} line 131 is not a word and 6 numbers`)),
        ],
      });
    } finally {
      await web.close();
    }
    expect(() => createWebSearch({ config: { passages: { wordVectorsWords: 10 } } })).toThrow(
      /WEBSEARCH_WORD_VECTORS_WORDS|passages\.wordVectorsWords/,
    );
    expect(() => createWebSearch({ config: { passages: { wordVector: bad } as never } })).toThrow(
      'passages.wordVector: no such setting (did you mean passages.wordVectors?)',
    );
  });
});
