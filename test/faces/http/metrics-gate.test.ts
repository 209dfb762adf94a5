/**
 * /metrics is the operator's (docs/decisions.md, "Metrics for operators only"): server-wide
 * counts of every team open only to WEBSEARCH_METRICS_TOKEN; an API key, even a valid
 * one, does not open them. Without the setting, only open mode (a loopback server with no
 * key) shows them. A malformed token setting stops the start with one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/core/config.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

const apis: TestApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close().catch(() => undefined)));
});
async function api(overrides: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const started = await startTestApi(overrides);
  apis.push(started);
  return started;
}

const TOKEN = 'op3rator-token-0123456789';
const metrics = (a: TestApi, bearer?: string) =>
  fetch(`${a.url}/metrics`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

describe('/metrics for operators only', () => {
  it('opens to the metrics token only, never to an API key', async () => {
    const a = await api({ auth: { metricsToken: TOKEN } });
    const { secret } = await a.core.keys.create({ name: 'team-a', credits: 5 });
    const unlimited = await a.core.keys.create({ name: 'team-b' });
    for (const bearer of [undefined, secret, unlimited.secret, `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const res = await metrics(a, bearer);
      expect(res.status, String(bearer)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await res.json()) as any).error.message).toMatch(/WEBSEARCH_METRICS_TOKEN/);
    }
    expect((await fetch(`${a.url}/metrics`, { headers: { 'x-api-key': secret } })).status).toBe(401);
    const ok = await metrics(a, TOKEN);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/websearch_http_requests_total/);
  });

  it('wants the token in open mode too, once it is set', async () => {
    const a = await api({ auth: { metricsToken: TOKEN } });
    expect((await metrics(a)).status).toBe(401);
    expect((await metrics(a, TOKEN)).status).toBe(200);
  });

  it('without the setting: open in open mode, closed to everyone once a key exists', async () => {
    const a = await api();
    expect((await metrics(a)).status).toBe(200);
    const { secret } = await a.core.keys.create({ name: 'team-a' });
    expect((await metrics(a)).status).toBe(401);
    expect((await metrics(a, secret)).status).toBe(401);
  });

  it('refuses a token setting that is short or not a bearer token, naming the variable', () => {
    for (const value of ['short', 'has spaces in it, sixteen+', 'quote"quote"quote"quote']) {
      let error: unknown;
      try {
        loadConfig({ env: { WEBSEARCH_METRICS_TOKEN: value } });
      } catch (err) {
        error = err;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/WEBSEARCH_METRICS_TOKEN/);
    }
    expect(loadConfig({ env: { WEBSEARCH_METRICS_TOKEN: TOKEN } }).auth.metricsToken).toBe(TOKEN);
  });
});
