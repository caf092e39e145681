import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { CORS_ORIGINS: 'https://shop.example.com' } });
  plain = await makeApp();
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

describe('CORS_ORIGINS', () => {
  it('answers preflight for a listed origin, without credentials', async () => {
    const r = await t.inject({
      method: 'OPTIONS',
      url: '/wp-json/rova/v1/auth/me',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-rova-api-key',
      },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(r.headers['access-control-allow-headers']).toContain('X-Rova-API-Key');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
  });
  it('does not allow other origins, and is off by default', async () => {
    const other = await t.inject({ method: 'GET', url: '/wp-json/', headers: { origin: 'https://evil.example.net' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await t.inject({ method: 'GET', url: '/wp-json/', headers: { origin: 'https://shop.example.com' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(ok.headers['access-control-expose-headers']).toContain('X-Request-Id');
    const off = await plain.inject({
      method: 'GET',
      url: '/wp-json/',
      headers: { origin: 'https://shop.example.com' },
    });
    expect(off.headers['access-control-allow-origin']).toBeUndefined();
  });
  it('validates the setting', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'shop.example.com' }, { ephemeral: true })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://shop.example.com/path' }, { ephemeral: true })).toThrow(
      /origin only/,
    );
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, *' }, { ephemeral: true }).corsOrigins).toEqual([
      'https://a.example',
      '*',
    ]);
  });
});
