/**
 * The gates a page's first URL passed, applied again wherever the page may have moved to or
 * come from. robots.txt applies to every URL fetched (RFC 9309 2.2.2, 2.3.1.2), so each
 * redirect target is checked against its own origin's robots.txt before it is requested, and
 * so is the URL a rendered page ended on. A cached copy answers only where this server could
 * fetch it now: the store may be shared by servers of other policies, or this one's changed.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { AppError } from '../../core/errors.js';
import { timeLeft, type RequestDeadline } from '../../core/request-context.js';
import { withTimeout } from '../../core/with-timeout.js';
import { addressPolicyFor, stripBrackets } from '../../net/address-policy.js';
import { portOf, resolveGuarded, systemResolver } from '../../net/connector.js';
import type { RedirectHop } from '../../net/fetch-types.js';
import { parseTargetUrl, precheckLiteralHost, requestTarget } from '../../net/request-url.js';
import type { ExtractedPage } from './extracted-page.js';
import type { Journey } from './journey-state.js';
import { robotsRefusal, type RobotsSubject, type RobotsVerdictLike } from './page-gates.js';

/** robots.txt's verdict on `url`, waited for until `ctx`'s deadline; a timeout names robots.txt. */
export async function robotsVerdict(j: Journey, url: URL, ctx: RequestDeadline): Promise<RobotsVerdictLike> {
  const budgetMs = Math.max(0, Math.round(timeLeft(ctx)));
  return j.deps.robots.check(url, ctx).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'timeout') {
      throw new AppError(
        'timeout',
        `No answer within ${budgetMs} ms: the site's robots.txt did not answer in that time.`,
        { statusCode: 0, retryable: true },
      );
    }
    throw err;
  });
}

async function requireRobots(j: Journey, url: URL, ctx: RequestDeadline, subject: RobotsSubject): Promise<void> {
  const verdict = await robotsVerdict(j, url, ctx);
  if (!verdict.allowed) throw robotsRefusal(verdict, j.deps.config.fetch.productToken, subject);
}

/**
 * The fetcher's hook on each redirect of the static fetch: the target is requested only if
 * its origin's robots.txt allows it, asked under the exchange's deadline.
 */
export function checkRedirectTarget(j: Journey, target: URL, hop: RedirectHop): Promise<void> {
  return requireRobots(j, target, hop.ctx, { redirectedTo: target.href });
}

/**
 * The URL a rendered page ended on (a script, a meta refresh, or the browser's own redirects
 * when it fetched the page itself), when it is not the one already checked: its origin's
 * robots.txt must allow it, or the page is not returned.
 */
export async function checkMovedRobots(j: Journey, finalUrl: string, checkedUrl: string): Promise<void> {
  let final: URL;
  try {
    final = parseTargetUrl(finalUrl);
  } catch {
    return; // not http(s) (about:blank, an error page): the status and content gates decide
  }
  // A fragment is never sent (RFC 9110 4.2.4) and robots.txt never matches one.
  if (requestTarget(final).href === requestTarget(new URL(checkedUrl)).href) return;
  await requireRobots(j, final, j.request.ctx, { movedTo: final.href });
}

/** The address policy as a short digest: pages fetched under the same one need no second look. */
export function policyDigest(j: Journey): string {
  const setting = JSON.stringify(j.deps.config.fetch.allowPrivateAddresses);
  return createHash('sha256').update(setting).digest('hex').slice(0, 16);
}

/**
 * Whether a cached copy may answer for this server now:
 *  - its URL and final URL pass this server's address policy: literal and localhost hosts at
 *    once; names resolved (the fetcher's resolver) and every address checked, as the fetcher
 *    checks at connect time, unless the copy was fetched under this very policy (its content
 *    then came from an address this policy allowed);
 *  - once its robots.txt verdict is older than a robots.txt copy may be kept
 *    (robots.cacheTtlMs, RFC 9309 2.4), or of unknown age, robots.txt still allows both.
 * A copy that fails, or cannot be judged before the deadline (a name that does not resolve
 * here), is not served: the journey goes on as on a miss, and its own gates give the URL the
 * error a fresh fetch gets (forbidden_address, robots_disallowed), uncharged.
 */
export async function cachedCopyUsable(j: Journey, page: ExtractedPage): Promise<boolean> {
  const { ctx } = j.request;
  try {
    const urls = [j.request.url, parseTargetUrl(page.finalUrl)];
    const policy = addressPolicyFor(j.deps.config.fetch.allowPrivateAddresses);
    if (policy !== undefined) {
      const resolves = page.fetchedUnder !== policyDigest(j);
      const hosts = new Map(urls.map((url) => [`${url.hostname}|${url.port}|${url.protocol}`, url]));
      for (const url of hosts.values()) {
        precheckLiteralHost(url, policy);
        const host = stripBrackets(url.hostname);
        if (resolves && isIP(host) === 0) {
          const resolving = resolveGuarded(
            j.deps.resolver ?? systemResolver,
            policy,
            host,
            portOf(url.port, url.protocol),
          );
          await withTimeout(resolving, Math.max(0, timeLeft(ctx)));
        }
      }
    }
    if (robotsFresh(j, page)) return true;
    const targets = new Map(urls.map((url) => [requestTarget(url).href, url]));
    for (const url of targets.values()) if (!(await robotsVerdict(j, url, ctx)).allowed) return false;
    return true;
  } catch {
    return false;
  }
}

/** A verdict younger than a robots.txt copy may live; none recorded (older entries, checks off) is stale. */
function robotsFresh(j: Journey, page: ExtractedPage): boolean {
  const checkedAt = page.robotsCheckedAt === undefined ? NaN : Date.parse(page.robotsCheckedAt);
  return Date.now() - checkedAt < j.deps.config.robots.cacheTtlMs;
}
