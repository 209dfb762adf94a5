/**
 * The MCP output budget with passages: pages share it as contents do, each keeping its
 * best passages in page order; a passage longer than its page's share is cut, its
 * end_char moved with it, so text is still the Markdown between the offsets.
 */
import { describe, expect, it } from 'vitest';
import type { ExtractResponse, PassageResult, SearchResponse } from '../../src/core/schemas.js';
import { selectPassages } from '../../src/extract/passages/index.js';
import { budgetExtract, budgetSearch } from '../../src/faces/mcp/output-budget.js';
import { renderExtractMarkdown } from '../../src/faces/mcp/tools/render-extract-markdown.js';
import { renderSearchMarkdown } from '../../src/faces/mcp/tools/render-search-markdown.js';

const sentence = (i: number) => `Sentence ${i} tells of tides and harbours, of ships and of the sea.`;
const page = (sections: number) =>
  Array.from(
    { length: sections },
    (_, s) =>
      `## Section ${s}\n\n${Array.from({ length: 12 }, (_, i) => sentence(s * 100 + i)).join(' ')}${s % 3 === 0 ? ' The tide tables list high water.' : ''}`,
  ).join('\n\n');

const MD = page(12);

function crawlResponse(passages: PassageResult[][]): ExtractResponse {
  return {
    results: passages.map((list, i) => ({
      url: `https://example.org/${i}`,
      success: true,
      markdown: '',
      passages: list,
      status_code: 200,
      total_chars: MD.length,
    })),
    metadata: {
      total_urls: passages.length,
      processed_urls: passages.length,
      successful_crawls: passages.length,
      failed_crawls: 0,
      credits_used: passages.length,
      cached_free: 0,
      response_time: 0.1,
      timestamp: '2026-01-01T00:00:00.000Z',
    },
  };
}

describe('budgetExtract with passages', () => {
  it('leaves passages that fit alone', () => {
    const response = crawlResponse([selectPassages(MD, 'tide tables', 3)]);
    expect(budgetExtract(response, 40_000, renderExtractMarkdown)).toEqual({ result: response, cut: 0 });
  });

  it("drops each page's weakest passages until the text block fits, the rest in page order", () => {
    const lists = [0, 1, 2].map(() => selectPassages(MD, 'tide tables high water harbours', 10));
    expect(lists[0]!.length).toBeGreaterThan(6);
    const response = crawlResponse(lists);
    const budget = 6_000;
    expect(renderExtractMarkdown(response).length).toBeGreaterThan(budget);
    const { result, cut } = budgetExtract(response, budget, renderExtractMarkdown);
    expect(cut).toBe(3);
    expect(renderExtractMarkdown(result).length).toBeLessThanOrEqual(budget);
    result.results.forEach((r, i) => {
      const kept = r.passages!;
      const all = lists[i]!;
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(all.length);
      for (let k = 1; k < kept.length; k++) expect(kept[k]!.start_char).toBeGreaterThan(kept[k - 1]!.start_char);
      // Every passage left out scores at most the weakest one kept.
      const floor = Math.min(...kept.map((p) => p.score));
      for (const p of all.filter((p) => !kept.includes(p))) expect(p.score).toBeLessThanOrEqual(floor);
    });
  });

  it('cuts a passage longer than its share, end_char moved so that text is still the Markdown between the offsets', () => {
    const code = `## Code\n\n\`\`\`\n${Array.from({ length: 300 }, (_, i) => `tide_table_row(${i})`).join('\n')}\n\`\`\``;
    const [block] = selectPassages(code, 'tide table row', 1);
    expect(block!.text.length).toBeGreaterThan(5_000);
    const response = crawlResponse([[block!]]);
    const { result, cut } = budgetExtract(response, 3_000, renderExtractMarkdown);
    expect(cut).toBe(1);
    const [kept] = result.results[0]!.passages!;
    expect(kept!.text.length).toBeLessThan(3_000);
    expect(kept!.end_char).toBe(kept!.start_char + kept!.text.length);
    expect(code.slice(kept!.start_char, kept!.end_char)).toBe(kept!.text);
    expect(renderExtractMarkdown(result).length).toBeLessThanOrEqual(3_000);
  });
});

describe('budgetSearch with passages', () => {
  it('fits the passages of every result to the budget', () => {
    const lists = [0, 1, 2, 3].map(() => selectPassages(MD, 'tide tables high water harbours', 10));
    const response: SearchResponse = {
      id: 'srch_x',
      query: 'tide tables',
      engines: ['searxng'],
      results: lists.map((passages, i) => ({
        title: `Page ${i}`,
        url: `https://example.org/${i}`,
        snippet: '',
        position: i + 1,
        engine: 'searxng',
        engines: ['searxng'],
        passages,
      })),
      metadata: {
        number_of_results: 4,
        credits_used: 2,
        from_cache: false,
        status: 'success',
        response_time: 0.1,
        timestamp: '',
        content_requested: 4,
        content_delivered: 4,
      },
    };
    const { result, cut } = budgetSearch(response, 8_000, renderSearchMarkdown);
    expect(cut).toBe(4);
    expect(renderSearchMarkdown(result).length).toBeLessThanOrEqual(8_000);
    for (const r of result.results) expect(r.passages!.length).toBeGreaterThan(0);
  });
});
