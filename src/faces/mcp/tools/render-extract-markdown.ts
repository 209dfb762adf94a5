/**
 * The text block of an `extract_urls` result: readable Markdown for clients that do not
 * read `structuredContent`.
 */
import type { CrawlResponse, CrawlResult } from '../../../core/schemas.js';

// The wrapper is no heading: a page's own headings (# to ######) stay the only ones, and
// its content sits in <page_content> as in web_search's text.
function renderResult(result: CrawlResult, index: number): string {
  const heading = `**Page ${index + 1}: ${result.title ? `${result.title} — ` : ''}${result.url}**`;
  if (!result.success) {
    return `${heading}\n\n**Failed** (${result.error_type}, status ${result.status_code}): ${result.error ?? ''}`;
  }
  const lines = [heading, ''];
  const facts = [`status ${result.status_code}`];
  if (result.content_type) facts.push(result.content_type);
  if (result.page_type) facts.push(`page type ${result.page_type}`);
  if (result.final_url && result.final_url !== result.url) facts.push(`final URL ${result.final_url}`);
  if (result.published_at) facts.push(`published ${result.published_at}`);
  lines.push(`_${facts.join(' · ')}_`, '');
  lines.push('<page_content>', result.html ?? result.markdown, '</page_content>');
  if (result.next_start_char !== undefined) {
    const next = JSON.stringify({ urls: [result.url], start_char: result.next_start_char, max_chars: 30_000 });
    lines.push(
      '',
      `[Cut at character ${result.next_start_char} of ${result.total_chars}. For the rest call extract_urls with ${next}.]`,
    );
  }
  return lines.join('\n');
}

export function renderExtractMarkdown(response: CrawlResponse): string {
  const m = response.metadata;
  const summary = `Extracted ${m.successful_crawls} of ${m.total_urls} URL(s); ${m.failed_crawls} failed; ${m.credits_used} credit(s) used${m.cached_free ? `, ${m.cached_free} from cache` : ''}.`;
  return [summary, ...response.results.map(renderResult)].join('\n\n');
}
