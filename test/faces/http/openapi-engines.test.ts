/**
 * The OpenAPI document says which engines this server can query, so the playground (and any
 * client) offers only those: an engine without its key is listed by the API, not by the server.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/core/config.js';
import { buildOpenApiDocument } from '../../../src/faces/http/openapi.js';

function enginesProperty(env: Record<string, string>): Record<string, any> {
  const doc = buildOpenApiDocument({ config: loadConfig({ env }) }) as any;
  return doc.components.schemas.SearchRequest.properties.engines;
}

describe('engines in the OpenAPI document', () => {
  it('lists every engine in the enum, and only the configured ones in x-configured', () => {
    const keyless = enginesProperty({});
    expect(keyless.items.enum).toEqual(expect.arrayContaining(['brave', 'google']));
    expect(keyless['x-configured']).not.toContain('brave');
    expect(keyless['x-configured']).not.toContain('google');
    expect(keyless['x-configured'].length).toBeGreaterThan(0);
    expect(keyless['x-default'].every((id: string) => keyless['x-configured'].includes(id))).toBe(true);
    expect(keyless.description).toContain(`Configured on this server: ${keyless['x-configured'].join(', ')}`);
  });

  it('follows the settings: a Brave key adds brave', () => {
    const withBrave = enginesProperty({ BRAVE_API_KEY: 'a-test-key-of-some-length' });
    expect(withBrave['x-configured']).toContain('brave');
  });
});
