/** Pure helpers of the fetcher: error mapping, redirect rules, URL rules. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { mapFetchError } from '../../src/net/fetch-errors.js';
import { redirectHeaders, redirectMethod, redirectTarget } from '../../src/net/redirects.js';
import { hostKey, parseTargetUrl, precheckLiteralHost } from '../../src/net/request-url.js';
import { isForbiddenAddress } from '../../src/net/address-policy.js';

const ctx = { host: 'example.com:443', idleTimeoutMs: 10_000, connectTimeoutMs: 5_000 };
const err = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('mapFetchError', () => {
  it.each([
    ['ENOTFOUND', 'network', /could not resolve host example\.com$/, false],
    ['EAI_AGAIN', 'network', /temporary DNS failure/, true],
    ['ECONNREFUSED', 'network', /connection refused by example\.com:443/, true],
    ['ECONNRESET', 'network', /closed unexpectedly/, true],
    ['UND_ERR_SOCKET', 'network', /closed unexpectedly/, true],
    ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'network', /Content-Length/, true],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', /could not connect .* within 5000 ms/, true],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', /no response headers/, true],
    ['UND_ERR_BODY_TIMEOUT', 'timeout', /stalled/, true],
    ['Z_DATA_ERROR', 'network', /could not decode/, false],
    ['ERR__ERROR_FORMAT_PADDING_1', 'network', /could not decode/, false],
    ['CERT_HAS_EXPIRED', 'network', /TLS error/, false],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'network', /TLS error/, false],
    ['SOMETHING_ELSE', 'network', /request to example\.com:443 failed/, true],
  ])('%s → %s', (code, expected, message, retryable) => {
    const mapped = mapFetchError(err(code), ctx);
    expect(mapped.code).toBe(expected);
    expect(mapped.message).toMatch(message);
    expect(mapped.retryable).toBe(retryable);
    expect(mapped.cause).toBeInstanceOf(Error);
  });

  it('finds an AppError anywhere in the cause chain', () => {
    const own = new AppError('forbidden_address', 'no');
    expect(mapFetchError(own, ctx)).toBe(own);
    expect(mapFetchError(new Error('wrapped', { cause: own }), ctx)).toBe(own);
  });

  it('reads the code of a wrapped cause and keeps the status', () => {
    const mapped = mapFetchError(new Error('outer', { cause: err('ECONNRESET') }), { ...ctx, status: 200 });
    expect(mapped).toMatchObject({ code: 'network', statusCode: 200 });
  });
});

describe('redirect rules', () => {
  it('rewrites methods per RFC 9110 15.4', () => {
    expect(redirectMethod(303, 'POST')).toBe('GET');
    expect(redirectMethod(303, 'HEAD')).toBe('HEAD');
    expect(redirectMethod(301, 'POST')).toBe('GET');
    expect(redirectMethod(302, 'POST')).toBe('GET');
    expect(redirectMethod(302, 'HEAD')).toBe('HEAD');
    expect(redirectMethod(307, 'POST')).toBe('POST');
    expect(redirectMethod(308, 'POST')).toBe('POST');
  });

  it('drops credentials only across origins and body headers only with the body', () => {
    const headers = { authorization: 'a', cookie: 'c', 'proxy-authorization': 'p', 'content-type': 't', accept: 'x' };
    const a = new URL('https://a.example/x');
    expect(redirectHeaders(headers, a, new URL('https://a.example/y'), false)).toEqual(headers);
    expect(redirectHeaders(headers, a, new URL('http://a.example/y'), false)).toEqual({
      'content-type': 't',
      accept: 'x',
    });
    expect(redirectHeaders(headers, a, new URL('https://a.example:8443/y'), true)).toEqual({ accept: 'x' });
  });

  it('resolves Location, returning undefined for missing or broken ones', () => {
    const from = new URL('http://a.example/dir/page');
    expect(redirectTarget(undefined, from, 302)).toBeUndefined();
    expect(redirectTarget('  ', from, 302)).toBeUndefined();
    expect(redirectTarget('http://[broken', from, 302)).toBeUndefined();
    expect(redirectTarget('other', from, 302)?.href).toBe('http://a.example/dir/other');
    expect(redirectTarget('//b.example/x', from, 302)?.href).toBe('http://b.example/x');
    expect(redirectTarget('http://u:p@b.example/', from, 302)?.href).toBe('http://b.example/');
    expect(() => redirectTarget('file:///etc/passwd', from, 301)).toThrow(
      expect.objectContaining({ code: 'invalid_url', statusCode: 301 }),
    );
  });
});

describe('URL rules', () => {
  it('canonicalises alternative IPv4 notations before the literal pre-check', () => {
    for (const spelling of [
      'http://0x7f.1/',
      'http://2130706433/',
      'http://017700000001/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const url = parseTargetUrl(spelling);
      expect(() => precheckLiteralHost(url, isForbiddenAddress), spelling).toThrow(
        expect.objectContaining({ code: 'forbidden_address', statusCode: 0 }),
      );
      expect(() => precheckLiteralHost(url, undefined)).not.toThrow();
    }
    expect(() => precheckLiteralHost(parseTargetUrl('http://example.com/'), isForbiddenAddress)).not.toThrow();
  });

  it('keys hosts with explicit default ports', () => {
    expect(hostKey(new URL('http://A.example/x'))).toBe('a.example:80');
    expect(hostKey(new URL('https://a.example/x'))).toBe('a.example:443');
    expect(hostKey(new URL('https://a.example:8443/x'))).toBe('a.example:8443');
  });

  it('strips credentials', () => {
    expect(parseTargetUrl('https://user:pw@a.example/p?q#f').href).toBe('https://a.example/p?q#f');
  });
});
