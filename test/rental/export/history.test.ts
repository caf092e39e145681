// @integration: export history is a transient updated atomically (Redis or a row lock)
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_KEY, HISTORY_TTL_SECONDS, type HistoryEntry } from '../../../src/modules/rental/export/history.js';
import { exportHistory, startExport, type ExportContext } from '../../../src/modules/rental/export/service.js';
import { one, type Db } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { API, makeAdminApp, parseCsv, seedExportData } from './fixtures.js';

let t: TestApp;
let key: string;
let adminId: number;

beforeAll(async () => {
  t = await makeAdminApp();
  const a = await t.userWithKey('administrator');
  key = a.key;
  adminId = a.userId;
  await seedExportData(t.platform.db);
}, 180_000);
afterAll(async () => t?.close());

const h = () => ({ 'x-rova-api-key': key });
const run = (body: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: `${API}/admin/export`, headers: h(), payload: body });
const history = async (q = '') => {
  const r = await t.inject({ method: 'GET', url: `${API}/admin/export/history${q}`, headers: h() });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as { items: HistoryEntry[]; total: number; total_pages: number; page: number; per_page: number };
};
const clear = () => t.platform.transients.delete(HISTORY_KEY);
const ctx = (now: () => Date, db: Db = t.platform.db, pageSize?: number): ExportContext => ({
  db,
  transients: t.platform.transients,
  timeZone: 'UTC',
  now,
  pageSize,
});
const operator = { userId: null, can: () => true };

describe('history entries', () => {
  it('a run records id, date, type, format, records, bytes, sha256 of exactly the bytes sent, status, user and filters', async () => {
    await clear();
    const r = await run({
      type: 'bookings',
      format: 'csv',
      date_from: '2026-01-01',
      date_to: '2026-12-31',
      status: 'confirmed',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toBe('attachment; filename="bookings-2026-01-01_2026-12-31.csv"');
    const id = r.headers['x-rova-export-id'];
    expect(id).toMatch(/^exp_[A-Za-z0-9_-]{16}$/);
    const d = await history();
    expect(d.total).toBe(1);
    const e = d.items[0]!;
    const rowsInFile = parseCsv(r.rawPayload.toString('utf8')).rows.length;
    expect(e).toEqual({
      id,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      type: 'bookings',
      format: 'csv',
      filename: 'bookings-2026-01-01_2026-12-31.csv',
      records: rowsInFile,
      bytes: r.rawPayload.length,
      sha256: createHash('sha256').update(r.rawPayload).digest('hex'),
      status: 'completed',
      error: null,
      user_id: adminId,
      filters: { date_from: '2026-01-01', date_to: '2026-12-31', status: 'confirmed' },
      expires_at: expect.any(String),
    });
    expect(Date.parse(e.expires_at) - Date.parse(e.date)).toBeGreaterThanOrEqual(HISTORY_TTL_SECONDS * 1000);
    expect(Date.parse(e.expires_at) - Date.parse(e.date)).toBeLessThan(HISTORY_TTL_SECONDS * 1000 + 60_000);
    expect(rowsInFile).toBeGreaterThan(0);
  });

  it('keeps at most 50 (51 runs → the oldest is gone); concurrent runs lose nothing; ids never collide', async () => {
    await clear();
    const first = (await run({ type: 'vehicles', format: 'ndjson' })).headers['x-rova-export-id'];
    const ids: string[] = [String(first)];
    for (let batch = 0; batch < 5; batch += 1) {
      const rs = await Promise.all(
        Array.from({ length: 10 }, () => run({ type: 'vehicles', format: 'json', date_from: '2030-01-01' })),
      );
      for (const r of rs) {
        expect(r.statusCode).toBe(200);
        ids.push(String(r.headers['x-rova-export-id']));
      }
    }
    expect(new Set(ids).size).toBe(51);
    const all = [...(await history('?per_page=100')).items];
    expect(all).toHaveLength(50);
    expect(all.map((e) => e.id)).not.toContain(first);
    expect(new Set(all.map((e) => e.id))).toEqual(new Set(ids.slice(1)));
    // newest first
    const dates = all.map((e) => e.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    // paging
    const p2 = await history('?page=2&per_page=20');
    expect(p2).toMatchObject({ total: 50, total_pages: 3, page: 2, per_page: 20 });
    expect(p2.items.map((e) => e.id)).toEqual(all.slice(20, 40).map((e) => e.id));
    expect((await history('?page=9')).items).toEqual([]);
  }, 180_000);

  it('20 exports at once all land in the history (atomic updates, both backends)', async () => {
    await clear();
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => run({ type: 'customers', format: i % 2 ? 'csv' : 'ndjson' })),
    );
    expect(rs.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await history()).total).toBe(20);
  }, 120_000);

  it('each entry lives one week; the transient expires with its newest entry', async () => {
    await clear();
    const t0 = Date.now();
    const at = (ms: number) => () => new Date(t0 + ms);
    const day = 86_400_000;
    const old = await startExport(ctx(at(-3 * day)), { type: 'vehicles', format: 'csv' }, operator);
    for await (const _ of old.body) void _;
    const fresh = await startExport(ctx(at(0)), { type: 'vehicles', format: 'csv' }, operator);
    for await (const _ of fresh.body) void _;
    const ids = async (ms: number) => (await exportHistory(ctx(at(ms)), {})).items.map((e) => e.id);
    expect(await ids(0)).toEqual([fresh.id, old.id]);
    expect(await ids(4 * day - 60_000)).toEqual([fresh.id, old.id]);
    expect(await ids(4 * day + 60_000)).toEqual([fresh.id]);
    expect(await ids(7 * day + 60_000)).toEqual([]);
    // the stored value itself carries a one-week expiry (database row or Redis key)
    if (t.platform.redis) {
      const ttl = await t.platform.redis.ttl(`${t.config.redisPrefix}transient:${HISTORY_KEY}`);
      expect(ttl).toBeGreaterThan(HISTORY_TTL_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(HISTORY_TTL_SECONDS);
    } else {
      const r = await one<{ s: number }>(
        t.platform.db,
        sql`SELECT extract(epoch FROM expires_at - now())::int AS s FROM rova_transients WHERE key = ${HISTORY_KEY}`,
      );
      expect(r!.s).toBeGreaterThan(HISTORY_TTL_SECONDS - 60);
      expect(r!.s).toBeLessThanOrEqual(HISTORY_TTL_SECONDS);
    }
  });

  it('DELETE removes one entry (others stay); unknown or repeated → 404; bad id → 400', async () => {
    await clear();
    const a = String((await run({ type: 'vehicles', format: 'csv' })).headers['x-rova-export-id']);
    const b = String((await run({ type: 'vehicles', format: 'csv' })).headers['x-rova-export-id']);
    const del = (id: string) => t.inject({ method: 'DELETE', url: `${API}/admin/export/${id}`, headers: h() });
    const r = await del(a);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true, data: { id: a, deleted: true }, message: 'Export entry deleted.' });
    expect((await history()).items.map((e) => e.id)).toEqual([b]);
    for (const id of [a, 'exp_nonexistent_999', 'export_test_001']) {
      const x = await del(id);
      expect(x.statusCode).toBe(404);
      expect(x.json()).toMatchObject({
        success: false,
        error_code: 'RESOURCE_NOT_FOUND',
        message: 'Export entry not found.',
      });
    }
    expect((await del('bad%20id')).statusCode).toBe(400);
    expect((await del('x'.repeat(65))).statusCode).toBe(400);
    expect((await del(b)).statusCode).toBe(200);
    expect(await history()).toMatchObject({ items: [], total: 0 });
  });
});

describe('failed runs are recorded too', () => {
  it('a database failure midway: the stream errors, the entry says failed with what was produced', async () => {
    await clear();
    let calls = 0;
    const db = t.platform.db;
    // The real database, except that the third page read (one transaction per page) fails: a connection lost midway.
    const failing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'transaction') {
          return (fn: unknown) => {
            calls += 1;
            if (calls === 3) return Promise.reject(new Error('connection terminated unexpectedly'));
            return (target.transaction as (fn: unknown) => Promise<unknown>).call(target, fn);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    }) as Db;
    const r = await startExport(
      ctx(() => new Date(), failing, 2),
      { type: 'bookings', format: 'ndjson' },
      { userId: adminId, can: () => true },
    );
    const got: Buffer[] = [];
    await expect(async () => {
      for await (const c of r.body) got.push(c);
    }).rejects.toThrow('connection terminated unexpectedly');
    const e = (await history()).items[0]!;
    const sent = Buffer.concat(got);
    expect(e).toMatchObject({
      id: r.id,
      status: 'failed',
      error: 'connection terminated unexpectedly',
      records: 4,
      bytes: sent.length,
      user_id: adminId,
    });
    expect(e.sha256).toBe(createHash('sha256').update(sent).digest('hex'));
    expect(sent.toString('utf8').trim().split('\n')).toHaveLength(4);
  });

  it('a receiver that goes away midway: failed, "interrupted"', async () => {
    await clear();
    const r = await startExport(
      ctx(() => new Date(), t.platform.db, 2),
      { type: 'bookings', format: 'csv' },
      operator,
    );
    for await (const c of r.body) {
      expect(c.length).toBeGreaterThan(0);
      break; // the consumer stops after the header: the generator is closed
    }
    const e = (await history()).items[0]!;
    expect(e).toMatchObject({ id: r.id, status: 'failed', records: 0, user_id: null });
    expect(e.error).toMatch(/^interrupted/);
  });

  it('a failure before the first byte is a 500 in the rental shape and a failed entry', async () => {
    await clear();
    const db = t.platform.db;
    const broken = new Proxy(db, {
      get: (target, prop, receiver) =>
        prop === 'execute' || prop === 'transaction'
          ? () => Promise.reject(new Error('database is down'))
          : (Reflect.get(target, prop, receiver) as unknown),
    }) as Db;
    const original = t.platform.db;
    (t.platform as { db: Db }).db = broken;
    try {
      const r = await run({ type: 'vehicles', format: 'json' });
      expect(r.statusCode).toBe(500);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INTERNAL_ERROR' });
    } finally {
      (t.platform as { db: Db }).db = original;
    }
    expect((await history()).items[0]).toMatchObject({
      status: 'failed',
      error: 'database is down',
      records: 0,
      bytes: 0,
      type: 'vehicles',
    });
  });
});
