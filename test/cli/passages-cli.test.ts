/**
 * `extract --query` and `search --content --passages` on the command line: the passages
 * each under its section with the offsets to read on from, and the flags checked like the
 * API's fields (a bad --max-passages is exit 2 in one line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { runCli } from '../helpers/spawn-cli.js';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} about ${topic} says little of use to anyone.`).join(' ');

const PAGE = `<!doctype html><html lang="en"><head><title>Valley Walks</title></head><body><article>
<h1>Valley Walks</h1><p>${filler('the valley', 12)}</p>
<h2>The ridge path</h2><p>${filler('the ridge', 12)}</p>
<p>The ridge path climbs 640 metres and takes about five hours in dry weather.</p>
<h2>Getting home</h2><p>${filler('buses', 12)}</p>
</article></body></html>`;

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/walks',
        description: 'a sectioned page for passages',
        handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      },
    ],
  });
});
afterAll(async () => {
  await site?.close();
});

const run = (args: string[]) =>
  runCli(args, { ...(process.env as Record<string, string>), WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true' });

describe.concurrent('extract --query', () => {
  it('prints the passages under their sections with offsets into the whole Markdown', async () => {
    const out = await run([
      'extract',
      `${site.origin}/walks`,
      '--query',
      'how many hours does the ridge path take',
      '--max-passages',
      '1',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Title: Valley Walks');
    expect(out.stdout).toMatch(/\[\d+-\d+ of \d+ characters\] The ridge path\n/);
    expect(out.stdout).toContain('takes about five hours');
    expect(out.stdout).not.toContain('about buses');
    const json = JSON.parse(
      (await run(['extract', `${site.origin}/walks`, '--query', 'how many hours does the ridge path take', '--json']))
        .stdout,
    );
    const whole = JSON.parse((await run(['extract', `${site.origin}/walks`, '--json'])).stdout).results[0].markdown;
    for (const p of json.results[0].passages) expect(whole.slice(p.start_char, p.end_char)).toBe(p.text);
  });

  it('refuses a --max-passages out of range in one line, exit 2', async () => {
    const out = await run(['extract', `${site.origin}/walks`, '--query', 'ridge', '--max-passages', '11']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^websearch-mcp: --max-passages: Too big: .*<=10 \(got "11"\)/);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });
});
