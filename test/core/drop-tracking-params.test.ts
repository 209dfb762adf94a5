/**
 * Tracking parameters out of a URL (core/drop-tracking-params.ts): only names that track
 * whatever their value, the rest of the URL as written.
 */
import { describe, expect, it } from 'vitest';
import { dropTrackingParams, isTrackingParam } from '../../src/core/drop-tracking-params.js';

describe('dropTrackingParams', () => {
  it('drops utm_* and the click ids, keeping the other parameters in their order and the fragment', () => {
    expect(
      dropTrackingParams(
        'https://shop.example/p?utm_source=news&id=3&UTM_Medium=mail&utm_whatever=x&color=red#reviews',
      ),
    ).toBe('https://shop.example/p?id=3&color=red#reviews');
    const ids = [
      '_gl',
      'fbclid',
      'gclid',
      'dclid',
      'gbraid',
      'wbraid',
      'msclkid',
      'mc_cid',
      'mc_eid',
      'yclid',
      '_hsenc',
      '_hsmi',
      'igshid',
      'mkt_tok',
      'oly_anon_id',
      'oly_enc_id',
      'vero_id',
      '__s',
    ];
    expect(dropTrackingParams(`https://a.example/x?${ids.map((name, i) => `${name}=${i}`).join('&')}&page=2`)).toBe(
      'https://a.example/x?page=2',
    );
  });

  it('drops the question mark with the last parameter, and keeps the fragment', () => {
    expect(dropTrackingParams('https://a.example/x?utm_source=rss&utm_medium=rss')).toBe('https://a.example/x');
    expect(dropTrackingParams('https://a.example/x?fbclid=1#top')).toBe('https://a.example/x#top');
  });

  it('leaves the spelling of what stays alone (no re-encoding)', () => {
    expect(dropTrackingParams('https://a.example/s?q=a+b%20c&utm_source=x&tag=%E2%9C%93&flag&=v')).toBe(
      'https://a.example/s?q=a+b%20c&tag=%E2%9C%93&flag&=v',
    );
    // An encoded name is read as its decoded self.
    expect(dropTrackingParams('https://a.example/s?utm%5Fsource=x&a=1')).toBe('https://a.example/s?a=1');
  });

  it("drops Twitter's ref_src only, which an embedded tweet puts on every link", () => {
    expect(dropTrackingParams('https://twitter.com/someone/status/1?ref_src=twsrc%5Etfw')).toBe(
      'https://twitter.com/someone/status/1',
    );
    expect(dropTrackingParams('https://a.example/signup?ref_src=header')).toBe(
      'https://a.example/signup?ref_src=header',
    );
  });

  it('keeps names that only look like tracking, and parameters that mean something to the site', () => {
    for (const url of [
      'https://a.example/x?ref=home',
      'https://a.example/x?source=feed&spm=a2g0o',
      'https://a.example/login?ref_url=%2Faccount',
      'https://a.example/x?utm=1',
      'https://a.example/x?gad=1',
    ]) {
      expect(dropTrackingParams(url)).toBe(url);
    }
  });

  it('leaves URLs without a query, in a fragment only, of other schemes, or that do not parse as written', () => {
    for (const url of [
      'https://a.example/x',
      'https://a.example/#/app?utm_source=x',
      'mailto:a@b.example?subject=hi&utm_source=x',
      'not a url?utm_source=x',
      'https://[bad/?utm_source=x',
      '',
    ]) {
      expect(dropTrackingParams(url)).toBe(url);
    }
  });
});

describe('isTrackingParam', () => {
  it('matches names case-insensitively, ref_src by its value', () => {
    expect(isTrackingParam('UTM_TERM')).toBe(true);
    expect(isTrackingParam('GCLID')).toBe(true);
    expect(isTrackingParam('ref_src')).toBe(false);
    expect(isTrackingParam('ref_src', 'twsrc^tfw')).toBe(true);
    expect(isTrackingParam('id')).toBe(false);
  });
});
