import { describe, expect, it } from 'vitest';
import { isChallengePage } from '../../src/extract/challenge.js';

const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const paragraphs = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `<p>Paragraph ${i} of a long article about sourdough: flour, water, salt and time turn into bread when the starter is lively and the dough is folded gently every half hour.</p>`,
  ).join('\n');

/** A Cloudflare JS-detection snippet, injected into ordinary pages of Cloudflare sites. */
const CF_JSD = `<script>(function(){var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.head.appendChild(a);})();</script>`;

describe('isChallengePage: challenge and block pages', () => {
  it('Cloudflare "Just a moment..." interstitial', () => {
    const html = page(
      'Just a moment...',
      `<div class="main-wrapper"><h1>example.com</h1><p>Verify you are human by completing the action below.</p>
       <div id="cf-chl-widget-abc12"></div></div>
       <script>window._cf_chl_opt={cvId:'3',cType:'managed',cRay:'8f00'};</script>
       <noscript>Enable JavaScript and cookies to continue</noscript>`,
    );
    expect(isChallengePage(html)).toBe(true);
  });

  it('Cloudflare titles alone', () => {
    expect(isChallengePage(page('Just a moment…', '<p>Checking</p>'))).toBe(true);
    expect(isChallengePage(page('Attention Required! | Cloudflare', '<h1>Sorry, you have been blocked</h1>'))).toBe(
      true,
    );
    expect(
      isChallengePage(page('Access denied | shop.example used Cloudflare to restrict access', '<p>Error 1020</p>')),
    ).toBe(true);
  });

  it('Cloudflare challenge markers without a telling title', () => {
    expect(
      isChallengePage(
        page(
          'example.com',
          '<script>var cpo={};cpo.src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1";</script>',
        ),
      ),
    ).toBe(true);
    expect(isChallengePage(page('example.com', '<form id="challenge-form" class="cf-chl-form"></form>'))).toBe(true);
    expect(
      isChallengePage(
        page('example.com', `<script>(function(){window._cf_chl_opt={cvId:'3'};}());</script>${paragraphs(3)}`),
      ),
    ).toBe(true);
  });

  it('the cf-mitigated header, whatever the body', () => {
    expect(isChallengePage(page('Shop', paragraphs(30)), { 'CF-Mitigated': 'challenge' })).toBe(true);
    expect(isChallengePage(page('Shop', paragraphs(30)), { 'cf-ray': '8f00-FRA', server: 'cloudflare' })).toBe(false);
  });

  it('DDoS-Guard', () => {
    expect(isChallengePage(page('DDoS-Guard', '<p>Checking your browser before accessing</p>'))).toBe(true);
    expect(
      isChallengePage(page('site', '<script src="/.well-known/ddos-guard/check?context=free_splash"></script>')),
    ).toBe(true);
  });

  it('Imperva / Incapsula', () => {
    expect(
      isChallengePage(
        '<html><head><META NAME="robots" CONTENT="noindex,nofollow"></head><body><iframe src="/_Incapsula_Resource?CWUDNSAI=9&xinfo=1"></iframe>Request unsuccessful. Incapsula incident ID: 123000450123</body></html>',
      ),
    ).toBe(true);
    // The bare resource-loader shell with no text.
    expect(
      isChallengePage(
        '<html><head><script src="/_Incapsula_Resource?SWJIYLWA=719d34d3"></script></head><body></body></html>',
      ),
    ).toBe(true);
  });

  it('Akamai', () => {
    expect(
      isChallengePage(
        page(
          'Access Denied',
          `<h1>Access Denied</h1>You don't have permission to access this page. Reference #18.4c1c2117 <p>https://errors.edgesuite.net/18.4c1c2117</p>`,
        ),
      ),
    ).toBe(true);
  });

  it('PerimeterX and DataDome', () => {
    expect(
      isChallengePage(
        page(
          'Access to this page has been denied',
          '<div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human (and not a bot).</p>',
        ),
      ),
    ).toBe(true);
    expect(
      isChallengePage(
        page(
          'shop.example',
          `<script>var dd={'rt':'c','cid':'AHrlqA','hsh':'E6EA'}</script><script src="https://ct.captcha-delivery.com/c.js"></script>`,
        ),
      ),
    ).toBe(true);
  });

  it('AWS WAF and Sucuri', () => {
    expect(
      isChallengePage(
        '<html><head><script src="https://a1b2c3.edge.sdk.awswafintegration.com/a1b2c3/challenge.js"></script><script>window.awsWafCookieDomainList=[];AwsWafIntegration.checkForceRefresh();</script></head><body><div id="challenge-container"></div><noscript>JavaScript is disabled</noscript></body></html>',
      ),
    ).toBe(true);
    expect(
      isChallengePage(
        page('Sucuri WebSite Firewall - Access Denied', '<h2>Access Denied - Sucuri Website Firewall</h2>'),
      ),
    ).toBe(true);
  });

  it('a short page whose main content is a captcha form', () => {
    const form = `<h1>One more step</h1><p>Please complete the security check to continue.</p>
      <form action="/verify" method="post"><div class="g-recaptcha" data-sitekey="6Lc_abc"></div><button>Continue</button></form>
      <script src="https://www.google.com/recaptcha/api.js" async defer></script>`;
    expect(isChallengePage(page('example.com', form))).toBe(true);
    const turnstile = `<form><div class="cf-turnstile" data-sitekey="0x4AAA"></div></form><p>Verifying you are not a robot.</p>`;
    expect(isChallengePage(page('Please wait', turnstile))).toBe(true);
    expect(
      isChallengePage(
        page('hCaptcha', '<div class="h-captcha" data-sitekey="10000000-ffff"></div><p>Solve the captcha</p>'),
      ),
    ).toBe(true);
  });

  it('phrases on short pages', () => {
    expect(isChallengePage(page('Please wait', '<p>Please enable JavaScript and cookies to continue</p>'))).toBe(true);
    expect(
      isChallengePage(
        page(
          'Sorry...',
          "<p>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.</p>",
        ),
      ),
    ).toBe(true);
  });
});

describe('isChallengePage: ordinary pages', () => {
  it('a long article with a reCAPTCHA on its comment form', () => {
    const html = page(
      'How to bake sourdough bread',
      `<article><h1>How to bake sourdough bread</h1>${paragraphs(20)}</article>
       <section id="comments"><h2>Leave a comment</h2><form action="/comment" method="post"><textarea name="c"></textarea>
       <div class="g-recaptcha" data-sitekey="6Lc_abc"></div><p>Protected by reCAPTCHA: verify you are human before posting.</p><button>Post</button></form></section>
       <script src="https://www.google.com/recaptcha/api.js"></script>`,
    );
    expect(isChallengePage(html)).toBe(false);
  });

  it('an article on a Cloudflare site with the JS-detection snippet', () => {
    expect(
      isChallengePage(page('Release notes', `<main><h1>Release notes</h1>${paragraphs(12)}</main>${CF_JSD}`)),
    ).toBe(false);
  });

  it('a short ordinary page on a Cloudflare site', () => {
    expect(
      isChallengePage(
        page(
          'Contact',
          `<h1>Contact</h1><p>Write to hello@example.com or call us on weekdays between nine and five; we answer every message within two days.</p>${CF_JSD}`,
        ),
      ),
    ).toBe(false);
  });

  it('a short contact form with reCAPTCHA that says nothing of robots', () => {
    const html = page(
      'Contact us',
      `<h1>Contact us</h1><form><label>Name <input name="n"></label><label>Message <textarea name="m"></textarea></label><div class="g-recaptcha" data-sitekey="6Lc"></div><button>Send</button></form>`,
    );
    expect(isChallengePage(html)).toBe(false);
  });

  it('an article that explains Cloudflare challenges', () => {
    const html = page(
      'Why do sites show "Just a moment..."?',
      `<article><h1>Why do sites show "Just a moment"?</h1><p>Cloudflare shows a page asking you to verify you are human and to enable JavaScript and cookies to continue.</p>${paragraphs(15)}</article>`,
    );
    expect(isChallengePage(html)).toBe(false);
  });

  it('a huge page is judged on strong markers only and stays cheap', () => {
    const html = page('Big', `${'<p>verify you are human</p>'}${paragraphs(5000)}`);
    const started = performance.now();
    expect(isChallengePage(html)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('unclosed <script>s and comments repeated over a small page stay cheap (one linear scan)', () => {
    for (const unit of ['<script>', '<!--', '<style x>']) {
      const html = page('Check', `<p>verify you are human</p>${unit.repeat(Math.floor(120_000 / unit.length))}`);
      const started = performance.now();
      expect(isChallengePage(html), unit).toBe(true);
      // The linear scan takes about 1 ms here; the regular expressions it replaced, 250-530 ms.
      expect(performance.now() - started, unit).toBeLessThan(150);
    }
  });

  it('an empty document and plain markup', () => {
    expect(isChallengePage('')).toBe(false);
    expect(isChallengePage('<p>Hello</p>')).toBe(false);
  });
});
