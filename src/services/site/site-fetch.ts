/**
 * A site's own files as discovery reads them (robots.txt's sitemaps, sitemaps, feeds, the
 * pages of a map's link walk): through robots.txt first (a URL it disallows is never
 * fetched), then the guarded client under the caller's deadline, a gzipped body
 * decompressed under a cap. A failure is a sentence for the answer's warnings, never a throw.
 */
import { AppError, toAppError } from '../../core/errors.js';
import type { RequestDeadline } from '../../core/request-context.js';
import { gunzipCapped, isGzip } from '../../extract/site/sitemap.js';
import type { SiteDiscoveryDeps } from './site-ports.js';

/** sitemaps.org: a sitemap file is at most 50 MB uncompressed. */
export const SITE_FILE_MAX_BYTES = 50 * 1024 * 1024;

export type SiteFile =
  | { ok: true; text: string; contentType: string; finalUrl: string }
  | { ok: false; disallowed: boolean; reason: string; code?: string };

export async function fetchSiteFile(
  deps: SiteDiscoveryDeps,
  ctx: RequestDeadline,
  url: string,
  accept: string,
  maxBytes = SITE_FILE_MAX_BYTES,
): Promise<SiteFile> {
  try {
    const target = new URL(url);
    const verdict = await deps.robots.check(target, ctx);
    if (!verdict.allowed)
      return { ok: false, disallowed: true, reason: `${url}: not fetched: ${disallowedWhy(verdict)}` };
    const response = await deps.client.fetch(target, {
      ctx,
      headers: { accept },
      maxBytes,
      // A redirect target is fetched only if its own origin's robots.txt allows it (RFC 9309).
      onRedirect: async (next, hop) => {
        const hopVerdict = await deps.robots.check(next, hop.ctx);
        if (!hopVerdict.allowed)
          throw new AppError(
            'robots_disallowed',
            `redirects to ${next.href}: not fetched: ${disallowedWhy(hopVerdict)}`,
          );
      },
    });
    if (response.status < 200 || response.status >= 300)
      return { ok: false, disallowed: false, reason: `${url}: HTTP ${response.status}`, code: 'http' };
    let bytes = response.body;
    if (isGzip(bytes)) bytes = gunzipCapped(bytes, maxBytes);
    const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    return { ok: true, text: new TextDecoder('utf-8').decode(bytes), contentType, finalUrl: response.finalUrl };
  } catch (err) {
    const error = toAppError(err);
    // A redirect target robots.txt disallows (the hook above) counts as disallowed.
    const disallowed = error.code === 'robots_disallowed';
    return { ok: false, disallowed, reason: `${url}: ${error.message}`, code: error.code };
  }
}

function disallowedWhy(verdict: { source: string; status?: number }): string {
  return verdict.source === 'unreachable'
    ? `robots.txt could not be read${verdict.status ? ` (${verdict.status})` : ''}, which disallows everything`
    : 'robots.txt disallows it';
}
