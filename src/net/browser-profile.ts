/**
 * The stealth profile: what a current Chromium on Linux presents, consistently across the
 * static fetch and the headless browser — User-Agent (never "Headless"), the client hints
 * that go with it, Accept / Accept-Language, and a locale and time zone that agree with
 * the language. Chromium is what Debian ships and what the browser really is, so the brand
 * list is Chromium's own: a script reading navigator.userAgentData sees the same as the
 * headers say.
 */

/** The major version of Debian's chromium at the time of writing; used until a browser reports its own. */
export const DEFAULT_CHROME_MAJOR = 156;

export interface BrowserProfile {
  userAgent: string;
  /** Request headers of a top-level navigation (lower-case names), User-Agent included. */
  headers: Record<string, string>;
  /** BCP 47 locale and IANA time zone of the browser context, consistent with Accept-Language. */
  locale: string;
  timezoneId: string;
}

export const ACCEPT_LANGUAGE = 'en-US,en;q=0.9';
const NAVIGATION_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/** The profile of Chromium `major` on Linux (a real browser's version when one is up). */
export function browserProfile(major: number = DEFAULT_CHROME_MAJOR): BrowserProfile {
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  return {
    userAgent,
    headers: {
      'user-agent': userAgent,
      accept: NAVIGATION_ACCEPT,
      'accept-language': ACCEPT_LANGUAGE,
      'sec-ch-ua': secChUa(major),
      'sec-ch-ua-mobile': '?0',
      'sec-ch-ua-platform': '"Linux"',
      'upgrade-insecure-requests': '1',
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-user': '?1',
      'sec-fetch-dest': 'document',
    },
    locale: 'en-US',
    timezoneId: 'America/New_York',
  };
}

/** The major version in a browser version string such as "156.0.8078.108"; undefined if none. */
export function majorOf(version: string | undefined): number | undefined {
  const major = Number(/^(\d+)\./.exec(version ?? '')?.[1]);
  return Number.isInteger(major) && major > 0 ? major : undefined;
}

/**
 * Chromium's Sec-CH-UA for a version: its own brand plus a "GREASE" brand whose spelling,
 * version and position are derived from the major version (Chromium's
 * GetGreasedUserAgentBrandVersion), e.g. `"Not:A-Brand";v="8", "Chromium";v="156"`.
 */
export function secChUa(major: number): string {
  const chars = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
  const grease = `"Not${chars[major % chars.length]}A${chars[(major + 1) % chars.length]}Brand";v="${['8', '99', '24'][major % 3]}"`;
  const brands = [grease, `"Chromium";v="${major}"`];
  return (major % 2 === 0 ? brands : brands.reverse()).join(', ');
}

/** Run in every page before its scripts: an automation flag a page can read is hidden. */
export const HIDE_WEBDRIVER_SCRIPT = `Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });`;
