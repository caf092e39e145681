import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import type { TestApp } from '../helpers/app.js';
import { WC } from './helpers.js';

/** Helpers of the hostile-input suites: raw requests, a whole-catalogue snapshot, the WP error shape. */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends a raw payload (string) with an API key. */
export function rawClient(t: TestApp, key: string) {
  return async (method: Method, url: string, payload?: string, contentType = 'application/json') => {
    const headers: Record<string, string> = { 'x-rova-api-key': key };
    if (payload !== undefined) headers['content-type'] = contentType;
    return t.inject({ method, url: WC + url, headers, ...(payload !== undefined ? { payload } : {}) });
  };
}

/** Every catalogue row as text: equal snapshots = nothing was written. */
export async function snapshot(t: TestApp): Promise<string> {
  return JSON.stringify(await rows(t.platform.db, sql`SELECT * FROM rova_products ORDER BY id`));
}

export function expectWpError(r: { statusCode: number; json(): unknown; body: string }, label: string): void {
  expect(r.statusCode, `${label} → ${r.body}`).toBeGreaterThanOrEqual(400);
  expect(r.statusCode, `${label} → ${r.body}`).toBeLessThan(500);
  expect(r.json(), label).toEqual({
    code: expect.stringMatching(/^[a-z_]+$/),
    message: expect.any(String),
    data: expect.objectContaining({ status: r.statusCode }),
  });
}

/** A product, a variable product and one of its variations, made with `send`. */
export async function fixtures(
  send: ReturnType<typeof rawClient>,
): Promise<{ simple: number; variable: number; variation: number }> {
  const simple = (
    await send('POST', '/products', JSON.stringify({ name: 'Fuzz simple', regular_price: '10', sku: 'FZ-1' }))
  ).json().id as number;
  const variable = (await send('POST', '/products', JSON.stringify({ name: 'Fuzz variable', type: 'variable' }))).json()
    .id as number;
  const variation = (
    await send('POST', `/products/${variable}/variations`, JSON.stringify({ regular_price: '3' }))
  ).json().id as number;
  expect(simple * variable * variation).toBeGreaterThan(0);
  return { simple, variable, variation };
}
