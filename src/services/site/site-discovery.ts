/**
 * Every URL of a site that can be learned without reading its pages one by one: robots.txt's
 * `Sitemap:` lines and /sitemap.xml (indexes followed to a bounded depth, gzipped files
 * opened), the feeds the start page links to, the start page's links, and, when that gives
 * fewer URLs than asked, a shallow walk of the links within a share of the deadline. Each URL
 * is spelt once (site-scope.ts), kept with where it was found first, and checked against
 * robots.txt: a disallowed one is counted, never listed or fetched. Used by the map and to
 * seed a site crawl.
 */
import { AppError } from '../../core/errors.js';
import type { RequestContext } from '../../core/request-context.js';
import { parseFeedItems } from '../../extract/site/feed-items.js';
import { discoverHtml } from '../../extract/site/html-discovery.js';
import { parseSitemap } from '../../extract/site/sitemap.js';
import { fetchSiteFile } from './site-fetch.js';
import type { SiteDiscoveryDeps } from './site-ports.js';
import { startUrlRefused, type SiteScope } from './site-scope.js';

export type UrlSource = 'sitemap' | 'feed' | 'links';

export interface FoundUrl {
  url: string;
  source: UrlSource;
  lastmod?: string;
  title?: string;
  /** Link hops from the start page (sitemap and feed URLs: 1). */
  depth: number;
  /** The page that links to it (links only). */
  parent?: string;
}

export interface Discovery {
  /** In scope and allowed, in sitemap order, then feeds, then discovery order. */
  urls: FoundUrl[];
  robotsDisallowed: number;
  sitemapsRead: number;
  warnings: string[];
  /** robots.txt's Crawl-delay for our agent, seconds. */
  crawlDelaySeconds?: number;
}

export interface DiscoveryOptions {
  sitemap: 'include' | 'skip' | 'only';
  /** Stop collecting past this many URLs. */
  maxUrls: number;
  /** Walk links beyond the start page while fewer than this many URLs are known. */
  walkUntil: number;
  /** Link hops the walk goes at most. */
  walkDepth: number;
}

/** Sitemap indexes nest at most this deep, and a site's sitemap files are read at most this many. */
const MAX_SITEMAP_DEPTH = 5;
const MAX_SITEMAP_FILES = 1_000;
/** Pages a map's link walk reads at most. */
const MAX_WALK_PAGES = 200;
const MAX_WARNINGS = 20;

const XML_ACCEPT = 'application/xml, text/xml;q=0.9, application/gzip;q=0.8, */*;q=0.5';
const HTML_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

export async function discoverSite(
  deps: SiteDiscoveryDeps,
  ctx: RequestContext,
  scope: SiteScope,
  options: DiscoveryOptions,
): Promise<Discovery> {
  const startedAt = Date.now();
  const found = new Map<string, FoundUrl>();
  const refused = new Set<string>();
  const warnings: string[] = [];
  const warn = (line: string): void => {
    if (warnings.length < MAX_WARNINGS) warnings.push(line);
  };
  const directives = await deps.robots.directives(scope.start, ctx);
  if (directives.source === 'unreachable') {
    const verdict = await deps.robots.check(scope.start, ctx);
    if (verdict.error?.code === 'forbidden_address' || verdict.error?.code === 'invalid_url')
      throw startUrlRefused(verdict.error);
    warn(
      `robots.txt of ${scope.start.origin} could not be read${verdict.status ? ` (HTTP ${verdict.status})` : verdict.error ? ` (${verdict.error.message})` : ''}: RFC 9309 2.3.1.4 then disallows the whole site, so nothing was fetched`,
    );
    return { urls: [], robotsDisallowed: 0, sitemapsRead: 0, warnings };
  }

  /** Adds a URL in scope that robots.txt allows; returns it when it is new. */
  const add = async (raw: string, base: string | undefined, entry: Omit<FoundUrl, 'url'>) => {
    if (found.size >= options.maxUrls) return undefined;
    const resolved = scope.resolve(raw, base);
    if (!('url' in resolved)) return undefined;
    const { url } = resolved;
    const known = found.get(url);
    if (known !== undefined) {
      // Found again with a title (an anchor, a feed item) where the first source gave none.
      if (known.title === undefined && entry.title !== undefined) known.title = entry.title;
      return undefined;
    }
    if (refused.has(url)) return undefined;
    const verdict = await deps.robots.check(new URL(url), ctx);
    if (!verdict.allowed) {
      refused.add(url);
      return undefined;
    }
    const item: FoundUrl = { url, ...entry };
    found.set(url, item);
    return item;
  };

  let sitemapsRead = 0;
  if (options.sitemap !== 'skip') {
    const sitemapUrls = [...directives.sitemaps, `${scope.start.origin}/sitemap.xml`];
    const queue: { url: string; depth: number }[] = [];
    const queued = new Set<string>();
    for (const url of sitemapUrls) {
      const spelt = scope.spell(url);
      if (spelt !== undefined && !queued.has(spelt)) {
        queued.add(spelt);
        queue.push({ url: spelt, depth: 0 });
      }
    }
    // A few at a time (the host limit queues the rest), in order, so the answer keeps sitemap order.
    while (queue.length > 0 && found.size < options.maxUrls && !ctx.signal.aborted) {
      const batch = queue.splice(0, 4);
      const files = await Promise.all(batch.map((item) => fetchSiteFile(deps, ctx, item.url, XML_ACCEPT)));
      for (const [i, file] of files.entries()) {
        const item = batch[i]!;
        if (!file.ok) {
          // /sitemap.xml is a guess: its absence is no news.
          if (!(file.code === 'http' && item.url === `${scope.start.origin}/sitemap.xml`)) warn(file.reason);
          continue;
        }
        sitemapsRead += 1;
        const doc = parseSitemap(file.text);
        if (doc.kind === 'index') {
          for (const child of doc.sitemaps) {
            const spelt = scope.spell(child.loc, file.finalUrl);
            if (spelt === undefined || queued.has(spelt)) continue;
            if (item.depth + 1 > MAX_SITEMAP_DEPTH) {
              warn(`${spelt}: not read: sitemap indexes nest deeper than ${MAX_SITEMAP_DEPTH}`);
              continue;
            }
            if (queued.size >= MAX_SITEMAP_FILES) {
              warn(`more than ${MAX_SITEMAP_FILES} sitemap files: the rest were not read`);
              break;
            }
            queued.add(spelt);
            queue.push({ url: spelt, depth: item.depth + 1 });
          }
        } else if (doc.kind === 'urlset') {
          for (const entry of doc.urls) {
            await add(entry.loc, file.finalUrl, {
              source: 'sitemap',
              depth: 1,
              ...(entry.lastmod !== undefined ? { lastmod: entry.lastmod } : {}),
            });
          }
        } else warn(`${item.url}: not a sitemap`);
      }
    }
  }

  if (options.sitemap !== 'only') {
    await walkLinks(deps, ctx, scope, options, { add, warn, found, startedAt });
  }

  return {
    urls: [...found.values()],
    robotsDisallowed: refused.size,
    sitemapsRead,
    warnings,
    ...(directives.crawlDelaySeconds !== undefined ? { crawlDelaySeconds: directives.crawlDelaySeconds } : {}),
  };
}

interface WalkState {
  add(raw: string, base: string | undefined, entry: Omit<FoundUrl, 'url'>): Promise<FoundUrl | undefined>;
  warn(line: string): void;
  found: Map<string, FoundUrl>;
  startedAt: number;
}

/** The start page (its links and feeds), then, while URLs are few, its links' pages breadth-first. */
async function walkLinks(
  deps: SiteDiscoveryDeps,
  ctx: RequestContext,
  scope: SiteScope,
  options: DiscoveryOptions,
  state: WalkState,
): Promise<void> {
  // The walk leaves a third of the deadline for the answer and the ranking.
  const stopAt = state.startedAt + ((ctx.deadline - state.startedAt) * 2) / 3;
  const start = scope.start.href;
  let level: { url: string; depth: number }[] = [{ url: start, depth: 0 }];
  const visited = new Set<string>();
  let pagesRead = 0;
  const concurrency = deps.config.fetch.perHostConcurrency;
  for (let depth = 0; depth <= options.walkDepth && level.length > 0; depth++) {
    const next: { url: string; depth: number }[] = [];
    for (let i = 0; i < level.length; i += concurrency) {
      // Beyond the start page, only while the URLs are fewer than asked and time is left.
      if (depth > 0 && (state.found.size >= options.walkUntil || Date.now() >= stopAt || pagesRead >= MAX_WALK_PAGES))
        return;
      if (ctx.signal.aborted) return;
      const batch = level.slice(i, i + concurrency).filter((item) => !visited.has(item.url));
      for (const item of batch) visited.add(item.url);
      const files = await Promise.all(
        batch.map((item) => fetchSiteFile(deps, ctx, item.url, HTML_ACCEPT, deps.config.fetch.maxBytes)),
      );
      pagesRead += batch.length;
      for (const [j, file] of files.entries()) {
        const item = batch[j]!;
        if (!file.ok) {
          if (item.depth === 0) {
            if (file.code === 'forbidden_address' || file.code === 'invalid_url')
              throw startUrlRefused(new AppError(file.code, file.reason));
            state.warn(`the start page ${file.reason}`);
          }
          continue;
        }
        if (!/html|xml/.test(file.contentType)) continue;
        if (item.depth === 0) await state.add(item.url, undefined, { source: 'links', depth: 0 });
        const page = discoverHtml(file.text, file.finalUrl);
        if (item.depth === 0) await readFeeds(deps, ctx, page.feeds, state);
        if (page.robots.nofollow) continue;
        for (const link of page.links) {
          const added = await state.add(link.url, undefined, {
            source: 'links',
            depth: item.depth + 1,
            parent: item.url,
            ...(link.text !== '' ? { title: link.text } : {}),
          });
          if (added !== undefined) next.push({ url: added.url, depth: added.depth });
        }
      }
    }
    level = next;
  }
}

/** The start page's RSS/Atom feeds: their items, titled. */
async function readFeeds(
  deps: SiteDiscoveryDeps,
  ctx: RequestContext,
  feeds: { url: string; title?: string }[],
  state: WalkState,
): Promise<void> {
  for (const feed of feeds.slice(0, 5)) {
    const file = await fetchSiteFile(
      deps,
      ctx,
      feed.url,
      'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5',
    );
    if (!file.ok) {
      state.warn(`feed ${file.reason}`);
      continue;
    }
    const parsed = parseFeedItems(file.text, file.finalUrl);
    if (parsed === undefined) continue;
    for (const item of parsed.items) {
      await state.add(item.url, file.finalUrl, {
        source: 'feed',
        depth: 1,
        ...(item.title !== undefined ? { title: item.title } : {}),
        ...(item.published !== undefined ? { lastmod: item.published } : {}),
      });
    }
  }
}
