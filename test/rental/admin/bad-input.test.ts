import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { API, insertCustomer, makeAdminApp } from './fixtures.js';

/** Input that reaches the database unbounded (huge ids/pages, NUL characters, year 0) must answer 400, never 500. */
let t: TestApp;
let admin: string;
let customer: string;
let threadId = 0;

beforeAll(async () => {
  t = await makeAdminApp();
  admin = (await t.userWithKey('administrator')).key;
  customer = (await t.userWithKey('customer', ['read', 'write'], 'bad_input_c')).key;
  await insertCustomer(t.platform.db, { name: 'Bad Input', email: 'bad_input_c@example.test' });
  const r = await t.inject({
    method: 'POST',
    url: `${API}/my/messages`,
    headers: { 'x-rova-api-key': customer },
    payload: { subject: 'Hi', message: 'Hello' },
  });
  expect(r.statusCode).toBe(201);
  threadId = r.json().data.thread.id;
});
afterAll(async () => t?.close());

const HUGE = '99999999999999999999';
const BIGINT_PLUS_1 = '9223372036854775808';

function send(key: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
  return t.inject({
    method,
    url: `${API}${path}`,
    headers: { 'x-rova-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

async function expect400(
  key: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  code = 'INVALID_PARAMS',
) {
  const r = await send(key, method, path, body);
  expect(r.statusCode, `${method} ${path} ${JSON.stringify(body)}: ${r.body}`).toBe(400);
  expect(r.json()).toMatchObject({ success: false, error_code: code, message: expect.any(String) });
}

describe('admin routes', () => {
  it.each([
    `/customers/${HUGE}`,
    `/customers/${BIGINT_PLUS_1}`,
    `/customers/0`,
    `/customers/abc`,
    `/messages/${HUGE}`,
    `/messages/-1`,
  ])('GET %s → 400 INVALID_PARAMS', async (path) => {
    await expect400(admin, 'GET', path);
  });

  it.each(['/customers', '/messages', '/dashboard/recent-bookings', '/dashboard/recent-transfers'])(
    '%s: a page number past 1,000,000 → 400; 1,000,000 itself → 200 with no items',
    async (path) => {
      await expect400(admin, 'GET', `${path}?page=100000000000000000000`);
      await expect400(admin, 'GET', `${path}?page=1000001`);
      const ok = await send(admin, 'GET', `${path}?page=1000000`);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ items: [], page: 1000000 });
    },
  );

  it.each(['/customers', '/messages'])('%s: a search with a NUL character → 400', async (path) => {
    await expect400(admin, 'GET', `${path}?search=a%00b`);
    expect((await send(admin, 'GET', `${path}?search=a%25_b`)).statusCode).toBe(200); // LIKE wildcards are literal
  });

  it.each(['overview', 'revenue', 'bookings', 'vehicles', 'customers'])(
    '/reports/%s: year 0000 → 400 INVALID_PARAMS; year 9999 is fine',
    async (name) => {
      await expect400(admin, 'GET', `/reports/${name}?start_date=0000-01-01&end_date=0000-01-05`);
      await expect400(admin, 'GET', `/reports/${name}?start_date=0000-12-31&end_date=2026-01-01`);
      const r = await send(admin, 'GET', `/reports/${name}?start_date=9999-12-30&end_date=9999-12-31`);
      expect(r.statusCode, r.body).toBe(200);
    },
  );

  it('reply: NUL character or a blank message → 400, nothing written', async () => {
    await expect400(admin, 'POST', `/messages/${threadId}/reply`, { message: 'a\u0000b' });
    await expect400(admin, 'POST', `/messages/${threadId}/reply`, { message: '   ' });
    const view = (await send(admin, 'GET', `/messages/${threadId}`)).json().data;
    expect(view.replies).toEqual([]);
    expect(view.thread.status).toBe('pending');
  });

  it('status: a non-string, missing or unknown status → 400', async () => {
    await expect400(admin, 'POST', `/messages/${threadId}/status`, { status: ['closed'] });
    await expect400(admin, 'POST', `/messages/${threadId}/status`, {});
    await expect400(admin, 'POST', `/messages/${threadId}/status`, { status: 'archived' });
    await expect400(admin, 'POST', `/messages/${threadId}/status`, '{bad');
  });

  it.each([
    ['no body', undefined],
    ['a bare array', [1, 2]],
    ['ids null', { ids: null }],
    ['a fraction', { ids: [1.5] }],
    ['a string id', { ids: ['1'] }],
    ['an unsafe integer', { ids: [Number(HUGE)] }],
    ['broken JSON', '{"ids":[1]'],
  ])('bulk delete with %s → 400', async (_name, body) => {
    await expect400(admin, 'DELETE', '/customers/bulk', body);
  });
});

describe('customer side', () => {
  it.each([
    ['a NUL in the subject', { subject: 'a\u0000', message: 'x' }],
    ['a NUL in the message', { subject: 'ok', message: 'x\u0000' }],
    ['a huge booking_id', { subject: 'ok', message: 'x', booking_id: Number(HUGE) }],
  ])('start a thread with %s → 400', async (_name, body) => {
    await expect400(customer, 'POST', '/my/messages', body);
  });

  it('huge ids and pages → 400', async () => {
    await expect400(customer, 'GET', `/my/messages/${HUGE}`);
    await expect400(customer, 'POST', `/my/messages/${HUGE}/reply`, { message: 'x' });
    await expect400(customer, 'POST', `/my/messages/${HUGE}/close`);
    await expect400(customer, 'GET', '/my/messages?page=100000000000000000000');
    await expect400(customer, 'POST', `/my/messages/${threadId}/reply`, { message: 'x\u0000' });
  });
});
