/**
 * The stealth profile: a Chromium on Linux whose headers agree with each other, never
 * "Headless", and whose client hints follow Chromium's own GREASE rule (checked against
 * the real browser in test/render/render-guards.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { browserProfile, DEFAULT_CHROME_MAJOR, majorOf, secChUa } from '../../src/net/browser-profile.js';

describe('browserProfile', () => {
  it('is a consistent Chromium on Linux', () => {
    const p = browserProfile(156);
    expect(p.userAgent).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
    expect(p.headers).toMatchObject({
      'user-agent': p.userAgent,
      'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
      'sec-ch-ua-mobile': '?0',
      'sec-ch-ua-platform': '"Linux"',
      'accept-language': 'en-US,en;q=0.9',
    });
    expect(p.locale).toBe('en-US');
    expect(p.timezoneId).toBe('America/New_York');
    expect(browserProfile().userAgent).toContain(`Chrome/${DEFAULT_CHROME_MAJOR}.0.0.0`);
  });

  it('derives the GREASE brand from the major version, as Chromium does', () => {
    expect(secChUa(156)).toBe('"Not:A-Brand";v="8", "Chromium";v="156"');
    expect(secChUa(157)).toMatch(/^"Chromium";v="157", "Not-A\.Brand";v="99"$/);
  });

  it('reads the major version of a browser version string', () => {
    expect(majorOf('156.0.8078.108')).toBe(156);
    expect(majorOf(undefined)).toBeUndefined();
    expect(majorOf('nightly')).toBeUndefined();
  });
});
