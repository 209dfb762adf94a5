/**
 * The steps of a page's journey (their order and conditions: page-journey.ts). Each reads
 * and writes the journey and throws the URL's error; none parses the URL again or repeats
 * another's check.
 */
import { AppError, toAppError } from '../../core/errors.js';
import type { Renderer, StaticDocument } from '../../core/ports/render-port.js';
import { classifyContentType, hasReadableText, rejectedExtension, sniffBinary } from '../../extract/index.js';
import type { ConvertInput, ConvertOutput } from '../../extract/types.js';
import { addressPolicyFor } from '../../net/address-policy.js';
import { browserProfile } from '../../net/browser-profile.js';
import { precheckLiteralHost } from '../../net/request-url.js';
import type { ExtractedPage } from './extracted-page.js';
import {
  checkHead,
  checkMovedAddress,
  emptyContent,
  isBotWall,
  renderUnavailable,
  robotsRefusal,
} from './page-gates.js';
import {
  cachedCopyUsable,
  checkMovedRobots,
  checkRedirectTarget,
  policyDigest,
  robotsVerdict,
} from './page-rechecks.js';
import type { Journey } from './journey-state.js';
import { browserOptions } from './page-request.js';

/** A cached copy young enough for `maxAge` seconds (no limit when undefined; an unknown age is too old for any). */
function youngEnough(page: ExtractedPage, maxAge: number | undefined, now: number): boolean {
  if (maxAge === undefined) return true;
  if (page.cachedAt === undefined) return false;
  return now - Date.parse(page.cachedAt) < maxAge * 1000;
}

export async function readCache(j: Journey): Promise<void> {
  const { cache, observer } = j.deps;
  const found = await cache.get(j.request.cacheKey).catch(() => undefined);
  const young = found !== undefined && youngEnough(found, j.request.options.maxAge, Date.now()) ? found : undefined;
  // Served only where this server could fetch it now: its address policy, robots.txt (page-rechecks.ts).
  const cached = young !== undefined && (await cachedCopyUsable(j, young)) ? young : undefined;
  observer?.cacheLookup('page', cached !== undefined);
  if (cached === undefined) return;
  // Pages cached before rendering existed carry no flag: they were static.
  j.page = { ...cached, rendered: cached.rendered ?? false };
  j.fromCache = true;
}

export async function checkAddress(j: Journey): Promise<void> {
  const { url, options } = j.request;
  const { config, renderer } = j.deps;
  const extension = rejectedExtension(url);
  if (extension !== null) {
    throw new AppError(
      'unsupported_content_type',
      `The URL ends in ".${extension}", a binary document type that cannot be extracted (refused before any request).`,
      { statusCode: 0 },
    );
  }
  const needsBrowser = browserOptions(options);
  if (needsBrowser.length > 0 && (!renderer || config.render.mode === 'never'))
    throw renderUnavailable(needsBrowser, config.render.mode === 'never');
  // A refused literal address fails here, before robots.txt is asked of it (the fetcher checks again).
  precheckLiteralHost(url, addressPolicyFor(config.fetch.allowPrivateAddresses));
}

export async function checkRobots(j: Journey): Promise<void> {
  const { url, ctx } = j.request;
  const checkedAt = Date.now();
  // The request's one deadline covers the robots.txt check and the page.
  const verdict = await robotsVerdict(j, url, ctx);
  if (!verdict.allowed) throw robotsRefusal(verdict, j.deps.config.fetch.productToken);
  if (verdict.source !== 'disabled') j.robotsCheckedAt = checkedAt;
}

/** Stealth: a page that turns the plain fetch away as a bot is retried in the browser, which fetches it itself. */
function retriesRendered(j: Journey, err: unknown): boolean {
  const { config, renderer } = j.deps;
  return (
    j.request.options.stealth === true && renderer !== undefined && config.render.mode !== 'never' && isBotWall(err)
  );
}

function blockedBy(j: Journey, err: unknown): void {
  const error = err as AppError;
  j.request.ctx.log.debug(
    { url: j.request.url.href, code: error.code },
    'blocked: retrying rendered with the stealth profile',
  );
  j.blocked = error;
}

export async function fetchPage(j: Journey): Promise<void> {
  const { url, options, ctx } = j.request;
  const { client, config, renderer } = j.deps;
  const profile = options.stealth ? browserProfile(renderer?.browserMajor?.()) : undefined;
  try {
    j.response = await client.fetch(url, {
      ctx,
      ...(profile ? { profile } : {}),
      // Each redirect target is asked of its own robots.txt before it is requested (RFC 9309).
      onRedirect: (target, hop) => checkRedirectTarget(j, target, hop),
      onHead: (head) => checkHead(head, config.fetch.maxBytes),
      onFirstBytes: async (bytes, head) => {
        const binary = await sniffBinary(bytes);
        if (binary !== null) {
          throw new AppError(
            'unsupported_content_type',
            `The body is ${binary} (served as ${head.headers['content-type'] ?? 'no content type'}); only text-based content can be extracted.`,
            { statusCode: head.status },
          );
        }
      },
    });
  } catch (err) {
    if (!retriesRendered(j, err)) throw err;
    blockedBy(j, err);
  }
}

export async function convertFetched(j: Journey): Promise<void> {
  const response = j.response!;
  try {
    // The first bytes were sniffed as they arrived (fetchPage): the converter does not sniff again.
    const { output, scriptDependent } = await convertBytes(j, {
      bytes: response.body,
      contentType: response.headers['content-type'] ?? null,
      url: response.finalUrl,
      headers: response.headers,
      status: response.status,
    });
    j.converted = output;
    j.scriptDependent = scriptDependent;
  } catch (err) {
    if (!retriesRendered(j, err)) throw err;
    blockedBy(j, err);
  }
}

/**
 * The rendering decision, from the static response alone: format html, wait_for_selector
 * and screenshot render whenever a browser exists; Markdown renders always, or (auto)
 * when the page looks script-built (the converter's verdict on the text it decoded).
 */
export function shouldRender(j: Journey): boolean {
  const { renderer, config } = j.deps;
  const output = j.converted;
  const mode = config.render.mode;
  if (!renderer || mode === 'never' || output === undefined || classifyContentType(output.content_type) !== 'html')
    return false;
  const { options } = j.request;
  if (options.format === 'html' || mode === 'always' || browserOptions(options).length > 0) return true;
  return j.scriptDependent === true;
}

export async function renderPage(j: Journey): Promise<void> {
  const { url, options, ctx } = j.request;
  const response = j.blocked === undefined ? j.response : undefined;
  const document: StaticDocument | undefined = response && {
    finalUrl: response.finalUrl,
    status: response.status,
    headers: response.headers,
    body: response.body,
  };
  const renderer = j.deps.renderer as Renderer;
  const page = await renderer.render(
    {
      url: url.href,
      stealth: options.stealth === true,
      ...(document ? { document } : {}),
      ...(options.waitForSelector !== undefined ? { waitForSelector: options.waitForSelector } : {}),
      ...(options.screenshot === true ? { screenshot: true } : {}),
    },
    ctx,
  );
  // A rendered page passes the gates of a fetch: a script or a meta refresh may have moved the
  // main frame after the static fetch (or the browser fetched the page itself: the stealth
  // retry). None of these is charged (a failed URL never is).
  await checkMovedAddress(
    page.finalUrl,
    document?.finalUrl ?? url.href,
    addressPolicyFor(j.deps.config.fetch.allowPrivateAddresses),
  );
  await checkMovedRobots(j, page.finalUrl, document?.finalUrl ?? url.href);
  if (page.navigationError !== undefined) {
    throw new AppError(
      'network',
      `The page moved to ${page.finalUrl}, which the browser could not load (${page.navigationError}).`,
      { statusCode: 0, retryable: !/ERR_TUNNEL_CONNECTION_FAILED|ERR_BLOCKED_BY_CLIENT/.test(page.navigationError) },
    );
  }
  checkHead(
    { url: url.href, finalUrl: page.finalUrl, status: page.status, statusText: '', headers: {}, redirects: [] },
    Number.MAX_SAFE_INTEGER,
  );
  const { output } = await convertBytes(j, {
    bytes: new TextEncoder().encode(page.html),
    contentType: 'text/html; charset=utf-8',
    url: page.finalUrl,
    headers: {},
    status: page.status,
  });
  if (!hasReadableText(output)) throw emptyContent(page.status, true, options);
  j.page = {
    statusCode: page.status,
    finalUrl: page.finalUrl,
    output,
    rendered: true,
    ...(page.screenshot !== undefined ? { screenshot: Buffer.from(page.screenshot).toString('base64') } : {}),
  };
}

/** The static page, when it was not rendered: it must hold readable text (docs/interface.md 4.2). */
export async function checkReadable(j: Journey): Promise<void> {
  const response = j.response!;
  const output = j.converted!;
  if (!hasReadableText(output)) throw emptyContent(response.status, false, j.request.options);
  j.page = { statusCode: response.status, finalUrl: response.finalUrl, output, rendered: false };
}

export async function storePage(j: Journey): Promise<void> {
  const page = j.page!;
  page.cachedAt = new Date().toISOString();
  if (!j.cacheable) return;
  // What a hit on another server (or after a change of settings) needs to judge the copy (page-rechecks.ts).
  page.fetchedUnder = policyDigest(j);
  if (j.robotsCheckedAt !== undefined) page.robotsCheckedAt = new Date(j.robotsCheckedAt).toISOString();
  await j.deps.cache.set(j.request.cacheKey, page, j.deps.config.cache.ttlMs).catch((err: unknown) => {
    j.request.ctx.log.warn({ err, url: j.request.url.href }, 'page cache write failed');
  });
}

export async function rankPassages(j: Journey): Promise<void> {
  const wanted = j.request.options.passages!;
  const { output } = j.page!;
  // The page's own language picks its stop words; the request's when the page names none.
  const language = output.language ?? wanted.language;
  // Where conversions run (a worker in servers), in the caller's turn: a 3 MB page takes ~90 ms.
  j.passages = await j.deps.converter.rankPassages(
    {
      markdown: output.markdown,
      query: wanted.query,
      max: wanted.max,
      maxChars: wanted.maxChars,
      ...(language ? { language } : {}),
    },
    j.request.ctx,
  );
}

interface Body {
  bytes: Uint8Array;
  contentType: string | null;
  url: string;
  headers: Record<string, string>;
  status: number;
}

/** Converts in the converter (a worker pool in servers) under what is left of the request's deadline. */
async function convertBytes(j: Journey, body: Body): Promise<{ output: ConvertOutput; scriptDependent: boolean }> {
  const { controls, format } = j.request.options;
  const input: ConvertInput = {
    bytes: body.bytes,
    contentType: body.contentType,
    url: body.url,
    format,
    headers: body.headers,
    sniffed: true,
  };
  if (controls !== undefined && Object.keys(controls).length > 0) input.controls = controls;
  const output = await j.deps.converter.convert(input, j.request.ctx).catch((err: unknown) => {
    const error = toAppError(err);
    // Conversion errors concern the page we got, so they carry its status code.
    throw error.statusCode === undefined
      ? new AppError(error.code, error.message, {
          statusCode: body.status,
          retryable: error.retryable,
          cause: error.cause,
        })
      : error;
  });
  return withoutInternals(j, output, body.url);
}

/**
 * The passes that failed on the page counted (the metrics) and logged, and the converter's
 * verdict for the render decision taken off: no answer or cache entry carries them.
 */
function withoutInternals(
  j: Journey,
  output: ConvertOutput,
  url: string,
): { output: ConvertOutput; scriptDependent: boolean } {
  const { pass_failures: failures, script_dependent: scriptDependent, ...rest } = output;
  for (const failure of failures ?? []) j.deps.observer?.passFailed(failure.pass);
  if (failures !== undefined) j.deps.logger.debug({ url, failures }, 'extraction passes failed');
  return { output: rest, scriptDependent: scriptDependent === true };
}
