import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { V1 } from './helpers.js';

describe('vehicle slugs', () => {
  let t: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    h = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  });
  afterAll(async () => t?.close());
  const create = (body: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V1}/vehicles`, headers: h, payload: { price_per_day: 50, ...body } });
  const slugOf = async (body: Record<string, unknown>) => {
    const r = await create(body);
    expect(r.statusCode).toBe(201);
    return (r.json() as { data: { slug: string } }).data.slug;
  };

  it('is the plain name slug when free, then -2, -3, … (like the store), never a random suffix', async () => {
    expect(await slugOf({ name: 'Fiat Egea' })).toBe('fiat-egea');
    expect(await slugOf({ name: 'Fiat  EGEA' })).toBe('fiat-egea-2');
    expect(await slugOf({ name: 'fiat egea' })).toBe('fiat-egea-3');
    expect(await slugOf({ name: 'Fiat Egea Cross' })).toBe('fiat-egea-cross');
    expect(await slugOf({ name: 'Škoda Octavia' })).toBe('skoda-octavia');
    expect(await slugOf({ name: '—' })).toBe('vehicle');
    expect(await slugOf({ name: '***' })).toBe('vehicle-2');
  });

  it('an explicit slug is kept as given; a taken one is 409', async () => {
    expect(await slugOf({ name: 'Renault Clio', slug: 'clio-blue' })).toBe('clio-blue');
    expect(await slugOf({ name: 'Renault Clio' })).toBe('renault-clio');
    const dup = await create({ name: 'Other', slug: 'fiat-egea' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: 'The slug "fiat-egea" is taken.',
      details: { field: 'slug' },
    });
  });
});
