/**
 * Anti-bot challenge detection. A challenge page arrives with 200 and real-looking HTML;
 * returned as content it would hand the agent "Just a moment…" as the page's text, so the
 * caller turns it into error_type `blocked` (docs/decisions.md, "Gaps in part 2 (fields)").
 *
 * Two tiers keep false positives down:
 *  - strong markers, specific to challenge and block pages (Cloudflare's `cf_chl_opt`,
 *    Incapsula's incident ID, PerimeterX's `px-captcha`, DataDome's captcha-delivery.com,
 *    telltale titles), count anywhere in the first 64 KiB;
 *  - weak markers, which normal pages carry too (Cloudflare injects `challenge-platform`
 *    bot-detection scripts into ordinary pages, Imperva injects `_Incapsula_Resource`, blogs
 *    embed reCAPTCHA on comment forms, articles quote "verify you are human"), count only on
 *    a small page with little visible text, i.e. a page whose main thing is the challenge.
 */

import { decodeEntities } from '../core/entities.js';
import { pageText } from './readable-text.js';

const SCAN_CHARS = 64 * 1024;
/** Challenge pages are small; a bigger document is never judged on weak markers. */
const SMALL_DOCUMENT_CHARS = 128 * 1024;
/** Visible text below which a page saying "verify you are human" is that and nothing else. */
const SHORT_TEXT_CHARS = 1500;
/** Visible text below which a page carrying only a vendor script is an empty shell. */
const EMPTY_TEXT_CHARS = 200;

const STRONG_MARKERS: readonly RegExp[] = [
  /cf_chl_opt/, // Cloudflare challenge bootstrap (window._cf_chl_opt)
  /cf-chl-/, // Cloudflare challenge element ids and classes
  /\/cdn-cgi\/challenge-platform\/h\/[a-z]\/orchestrate\//, // Cloudflare challenge orchestration
  /Incapsula incident ID/i,
  /\bpx-captcha\b/, // PerimeterX / HUMAN
  /captcha-delivery\.com/, // DataDome
  /\/\.well-known\/ddos-guard\//,
  /\/_sec\/cp_challenge\//, // Akamai Bot Manager
  /errors\.edgesuite\.net/, // Akamai "Access Denied … Reference #"
  /Sucuri WebSite Firewall/i,
];

const STRONG_TITLES: readonly RegExp[] = [
  /^just a moment(?:\.\.\.|…)?$/i,
  /^attention required!? \| cloudflare$/i,
  /used cloudflare to restrict access/i,
  /^ddos-guard$/i,
  /sucuri website firewall/i,
  /^access denied$/i,
  /^vercel security checkpoint$/i,
  /^(?:pardon our interruption|human verification|bot verification|security check(?:point)?|robot check|are you a robot\??|verifying you are human|please verify you are a human)$/i,
];

/** Vendor scripts and captcha widgets that ordinary pages carry too. */
const WEAK_TECH_MARKERS: readonly RegExp[] = [
  // Not the bot-detection script (`challenge-platform/scripts/jsd/`) every page may carry.
  /challenge-platform\/(?!scripts\/jsd\/)/,
  /_Incapsula_Resource/,
  /awswaf/i,
  /\bdd\.js\b|datadome/i,
  /ddos-guard/i,
];

const CAPTCHA_WIDGETS: readonly RegExp[] = [
  /\bg-recaptcha\b|google\.com\/recaptcha|recaptcha\/api\.js/i,
  /\bh-captcha\b|hcaptcha\.com/i,
  /\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile/i,
];

const CAPTCHA_WORDS = /captcha|robot|human|verif|security|blocked|denied|suspicious|automated/i;

const CHALLENGE_PHRASES: readonly RegExp[] = [
  /verify (?:that )?you are (?:a )?human/i,
  /enable javascript and cookies to continue/i,
  /checking (?:your browser|if the site connection is secure)/i,
  /needs to review the security of your connection/i,
  /unusual traffic from your computer network/i,
  /(?:make sure|prove) (?:that )?you(?:'|’)?re not a robot|are you a robot/i,
  /access to this page has been denied/i,
  /press (?:&amp;|&) hold/i,
  /ddos protection by/i,
  /complete the security check to access/i,
];

/**
 * Whether `html` is an anti-bot challenge or block page rather than content. `headers`
 * (names in any case) lets the caller pass the response headers: Cloudflare marks its
 * challenges with `cf-mitigated: challenge`.
 */
export function isChallengePage(html: string, headers?: Record<string, string>): boolean {
  if (headers !== undefined && hasChallengeHeader(headers)) return true;

  const head = html.slice(0, SCAN_CHARS);
  const title = titleOf(head);
  if (title !== null && STRONG_TITLES.some((pattern) => pattern.test(title))) return true;
  if (STRONG_MARKERS.some((pattern) => pattern.test(head))) return true;

  if (html.length > SMALL_DOCUMENT_CHARS) return false;
  const hasPhrase = CHALLENGE_PHRASES.some((pattern) => pattern.test(head));
  const hasWidget = CAPTCHA_WIDGETS.some((pattern) => pattern.test(head));
  const hasTech = WEAK_TECH_MARKERS.some((pattern) => pattern.test(head));
  if (!hasPhrase && !hasWidget && !hasTech) return false;

  const text = visibleText(html);
  // A short page that asks the visitor to prove being human.
  if (hasPhrase && text.length < SHORT_TEXT_CHARS) return true;
  // A captcha with little else around it, and words that say what it is for. (A contact
  // form with reCAPTCHA says nothing of robots; a comment form sits under a long article.)
  if (hasWidget && text.length < SHORT_TEXT_CHARS / 3 && CAPTCHA_WORDS.test(`${title ?? ''} ${text}`)) return true;
  // A vendor script and next to no text: an interstitial shell (Incapsula, AWS WAF).
  return hasTech && text.length < EMPTY_TEXT_CHARS;
}

function hasChallengeHeader(headers: Record<string, string>): boolean {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'cf-mitigated' && value.toLowerCase().includes('challenge')) return true;
  }
  return false;
}

function titleOf(head: string): string | null {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head);
  if (match === null) return null;
  return decodeEntities(match[1]!, 'text').replace(/\s+/g, ' ').trim();
}

/**
 * The text a reader with scripts would see (scripts, styles, comments, <noscript> and tags
 * removed), by the one linear scan of readable-text.ts: unclosed `<script>`s or comments
 * repeated over a page cost no more than the page's length.
 */
function visibleText(html: string): string {
  return pageText(html)
    .visible.replace(/&[#\w]+;/g, 'x')
    .replace(/\s+/g, ' ')
    .trim();
}
