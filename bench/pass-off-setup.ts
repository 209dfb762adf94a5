// Vitest setup for bench/pass-tests.mjs: the pipeline with the passes named in PIPELINE_OFF
// switched off, for every test that converts a page through htmlToMarkdown.
import { vi } from 'vitest';
import type * as Pipeline from '../src/extract/html/pipeline.js';
import type { SwitchName } from '../src/extract/html/switches.js';

vi.mock('../src/extract/html/pipeline.js', async (importOriginal) => {
  const original = await importOriginal<typeof Pipeline>();
  // Unknown names throw in runPipeline: a misspelt PIPELINE_OFF fails the run, never passes it.
  const off = (process.env.PIPELINE_OFF ?? '').split(',').filter(Boolean) as SwitchName[];
  return {
    ...original,
    runPipeline: (html: string, url: string, options: { off?: Iterable<SwitchName> } = {}) =>
      original.runPipeline(html, url, { off: [...(options.off ?? []), ...off] }),
  };
});
