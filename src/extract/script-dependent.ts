/**
 * Whether a static HTML response looks like a page whose text its scripts write — the
 * `auto` rendering decision, made from the static response alone so that pages that need
 * no rendering never wait for a browser. Both must hold:
 *  1. the conversion found next to no readable main content (NEAR_EMPTY_CHARS), and
 *  2. a sign of a script-built page: a mount root (`<div id="root|app|__next|...">`,
 *     `<app-root>`), or a body with scripts and almost no text, or an "enable
 *     JavaScript" notice, or a `<noscript>` that holds most of the page's text.
 * Pure and linear: one text scan and a few regular expressions over the first SCAN_CHARS.
 */
import { countReadable, pageText } from './readable-text.js';

/** Letters and digits of main content below which a page counts as (near) empty. */
export const NEAR_EMPTY_CHARS = 200;
/** Visible body text below which a page that carries scripts is a shell. */
const SHELL_TEXT_CHARS = 120;
/** Only the head of a huge document is examined (a mount root sits early). */
const SCAN_CHARS = 512 * 1024;

const MOUNT_ROOT =
  /<(?:div|main|section|body)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|app-root|application|main-app|react-root|vue-app|q-app|mount)["'\s>]/i;
const CUSTOM_ROOT = /<(?:app-root|ng-app)\b|\bng-version\s*=|\bdata-reactroot\b|\bdata-v-app\b/i;
const SCRIPT = /<script\b/i;
const JS_NOTICE =
  /\b(?:enable|turn on|activate|allow)\s+javascript\b|\bjavascript\s+(?:is\s+)?(?:required|disabled|needed|must be enabled|is not enabled)\b|\b(?:requires?|needs?)\s+javascript\b|\bwithout\s+javascript\b/i;

/** The page's text would come from its scripts: render it (WEBSEARCH_RENDER=auto). */
export function looksScriptDependent(html: string, markdown: string): boolean {
  if (!nearEmpty(markdown)) return false;
  const head = html.length > SCAN_CHARS ? html.slice(0, SCAN_CHARS) : html;
  const { visible: text, noscript } = pageText(head);
  if (MOUNT_ROOT.test(head) || CUSTOM_ROOT.test(head)) return true;
  if (SCRIPT.test(head) && countReadable(text, SHELL_TEXT_CHARS) < SHELL_TEXT_CHARS) return true;
  if (JS_NOTICE.test(noscript) || JS_NOTICE.test(text)) return true;
  // A <noscript> that holds the page: a script-less reader gets at least as much as others.
  const hidden = countReadable(noscript);
  return hidden > 0 && hidden >= countReadable(text, hidden + 1);
}

/** Next to no readable main content: the cheap first half of the decision (no HTML needed). */
export function nearEmpty(markdown: string): boolean {
  return countReadable(markdown, NEAR_EMPTY_CHARS) < NEAR_EMPTY_CHARS;
}
