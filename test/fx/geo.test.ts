import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../src/platform/context.js';
import { GeoLookup, geoDbPath } from '../../src/modules/fx/geo.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, row } from './helpers.js';

// The DB-IP package ships an IPv6-only file next to the default (IPv4 + IPv6) one: pointing GEOIP_DB at it shows
// the setting is honoured (an IPv4 address the default file places in Germany is then unknown).
const DIR = dirname(geoDbPath({}) ?? '');
const IPV6_ONLY = `${DIR}/dbip-country-ipv6.mmdb`;
const DE_V4 = '2.160.0.1';
const DE_V6 = '2a01:4f8::1';

function lookup(env: Record<string, string>): { geo: GeoLookup; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const platform = { config: { env }, log: { warn: (o: unknown) => warnings.push(o) } } as unknown as Platform;
  return { geo: new GeoLookup(platform), warnings };
}

describe('country database (GEOIP_DB)', () => {
  it('defaults to the DB-IP file shipped through npm', async () => {
    expect(geoDbPath({})).toMatch(/node_modules\/@ip-location-db\/dbip-country-mmdb\/dbip-country\.mmdb$/);
    const { geo } = lookup({});
    expect(await geo.country(DE_V4)).toBe('DE');
    expect(await geo.country(DE_V6)).toBe('DE');
    expect(await geo.country('127.0.0.1')).toBeNull();
    expect(await geo.country('not-an-ip')).toBeNull();
  });

  it('GEOIP_DB replaces the bundled file', async () => {
    expect(geoDbPath({ GEOIP_DB: ` ${IPV6_ONLY} ` })).toBe(IPV6_ONLY);
    const { geo } = lookup({ GEOIP_DB: IPV6_ONLY });
    expect(await geo.country(DE_V4)).toBeNull();
    expect(await geo.country(DE_V6)).toBe('DE');
  });

  it('a missing or unreadable file is a warning, never an error: lookups find nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rova-geo-'));
    const junk = join(dir, 'junk.mmdb');
    writeFileSync(junk, 'this is not a MaxMind database');
    for (const file of [join(dir, 'missing.mmdb'), junk]) {
      const { geo, warnings } = lookup({ GEOIP_DB: file });
      expect(await geo.country(DE_V4), file).toBeNull();
      expect(await geo.country(DE_V6), file).toBeNull();
      expect(warnings, file).toHaveLength(1);
    }
  });
});

describe('POST /convert with GEOIP_DB set', () => {
  let t: TestApp;
  const convert = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: `${FX}/convert`, payload: { product_ids: [] }, remoteAddress, headers });
  beforeAll(async () => {
    t = await makeApp({ env: { GEOIP_DB: IPV6_ONLY, FX_CONVERT_RATE_LIMIT: '0' } });
    const a = await adminOf(t);
    await a.post('/currencies', { currencies: [row('EUR', 0.9)] });
    await a.post('/settings', { auto_detect: true });
  });
  afterAll(async () => t?.close());

  it('geolocates with the configured file only; the CDN header still comes first', async () => {
    expect((await convert(DE_V6)).json()).toEqual({ currency: 'EUR', detected: true, prices: {} });
    expect((await convert(DE_V4)).json()).toEqual({ currency: 'USD', detected: false, prices: {} });
    expect((await convert(DE_V4, { 'cf-ipcountry': 'FR' })).json()).toEqual({
      currency: 'EUR',
      detected: true,
      prices: {},
    });
  });
});
