// @integration: the audit log is append-only by trigger
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../src/platform/audit/log.js';
import { AuditWriter } from '../../src/platform/audit/writer.js';
import { rows } from '../../src/platform/db/types.js';
import { modules } from '../../src/modules/index.js';
import type { RovaModule } from '../../src/modules/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { statementsDuring } from '../helpers/statements.js';

const probe: RovaModule = {
  name: 'probe',
  routes: async (app) => {
    app.post('/probe/v1/question', { config: { auth: 'public', readOnly: true } }, async () => ({ ok: true }));
    app.post('/probe/v1/change', { config: { auth: 'public' } }, async () => ({ ok: true }));
  },
};

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await makeApp({ modules: [...modules, probe] });
  admin = (await t.userWithKey('administrator', ['read', 'write'], 'auditor')).key;
});
afterAll(async () => t?.close());

describe('audit log', () => {
  it('records writes with actor, route, target, outcome and request id; never the key', async () => {
    const c = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/users',
      headers: { 'x-rova-api-key': admin, 'x-request-id': 'req-audit-0001' },
      payload: { login: 'audited', email: 'audited@example.test', role: 'customer' },
    });
    expect(c.statusCode).toBe(201);
    expect(c.headers['x-request-id']).toBe('req-audit-0001');
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?method=POST&route=users',
      headers: { 'x-rova-api-key': admin },
    });
    expect(log.statusCode).toBe(200);
    const e = log.json().find((x: { request_id: string }) => x.request_id === 'req-audit-0001');
    expect(e).toMatchObject({
      actor_login: 'auditor',
      auth_method: 'api_key',
      method: 'POST',
      route: '/wp-json/rova/v1/users',
      target: `user:${c.json().id}`,
      status: 201,
      outcome: 'success',
    });
    expect(JSON.stringify(log.json())).not.toContain(admin);
  });

  it('records failed writes and authentication failures (also on reads)', async () => {
    await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/users',
      headers: { 'x-rova-api-key': admin, 'x-request-id': 'req-audit-0002' },
      payload: { login: 'x' },
    });
    await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/users',
      headers: { 'x-rova-api-key': 'rova_forged', 'x-request-id': 'req-audit-0003' },
    });
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?per_page=100',
      headers: { 'x-rova-api-key': admin },
    });
    const byId = new Map(log.json().map((e: { request_id: string }) => [e.request_id, e]));
    expect(byId.get('req-audit-0002')).toMatchObject({ status: 400, outcome: 'failure' });
    expect(byId.get('req-audit-0003')).toMatchObject({
      status: 401,
      outcome: 'denied',
      method: 'GET',
      auth_method: 'anonymous',
      details: { auth_failure: 'invalid_api_key' },
    });
  });

  it('filters and pages (X-WP-Total), validates filters', async () => {
    const all = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?per_page=1&outcome=denied',
      headers: { 'x-rova-api-key': admin },
    });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveLength(1);
    expect(Number(all.headers['x-wp-total'])).toBeGreaterThanOrEqual(1);
    const bad = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?outcome=maybe',
      headers: { 'x-rova-api-key': admin },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('rest_invalid_param');
  });

  it('a read-only POST (a question, like /convert) is not audited; a write is', async () => {
    await t.inject({
      method: 'POST',
      url: '/wp-json/probe/v1/question',
      headers: { 'x-request-id': 'req-audit-q001' },
    });
    await t.inject({ method: 'POST', url: '/wp-json/probe/v1/change', headers: { 'x-request-id': 'req-audit-c001' } });
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?route=probe',
      headers: { 'x-rova-api-key': admin },
    });
    const ids = log.json().map((e: { request_id: string }) => e.request_id);
    expect(ids).toContain('req-audit-c001');
    expect(ids).not.toContain('req-audit-q001');
  });

  it("the admin app's session probe (GET /auth/nonce) is never audited: no session, a cookie without its nonce, a stale nonce", async () => {
    await t.userWithKey('shop_manager', ['read'], 'prober');
    const login = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      headers: { 'x-request-id': 'req-audit-login' },
      payload: { login: 'prober', password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(200);
    const cookie = login.cookies.find((c) => c.name === 'rova_session')!.value;
    const probes: { id: string; cookies: Record<string, string>; headers: Record<string, string>; status: number }[] = [
      { id: 'req-audit-n001', cookies: {}, headers: {}, status: 401 },
      { id: 'req-audit-n002', cookies: { rova_session: cookie }, headers: {}, status: 200 },
      {
        id: 'req-audit-n003',
        cookies: { rova_session: cookie },
        headers: { 'x-wp-nonce': 'stale-nonce' },
        status: 200,
      },
    ];
    for (const p of probes) {
      const r = await t.inject({
        method: 'GET',
        url: '/wp-json/rova/v1/auth/nonce',
        cookies: p.cookies,
        headers: { ...p.headers, 'x-request-id': p.id },
      });
      expect(r.statusCode, p.id).toBe(p.status);
    }
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?per_page=100',
      headers: { 'x-rova-api-key': admin },
    });
    const rows = log.json() as { request_id: string; route: string }[];
    expect(rows.filter((e) => e.route === '/wp-json/rova/v1/auth/nonce')).toEqual([]);
    // the login itself is a write and stays an audit event
    expect(rows.find((e) => e.request_id === 'req-audit-login')).toMatchObject({
      method: 'POST',
      route: '/wp-json/rova/v1/auth/login',
      status: 200,
      outcome: 'success',
    });
  });

  it('an answered read with a session cookie but no nonce is not audited; a refused read is, and so is a wrong key on a public read', async () => {
    // browsers send the cookie with every request: on a public read it answers as for an anonymous caller
    const pub = await t.inject({
      method: 'GET',
      url: '/wp-json/rova-rental/v1/locations',
      cookies: { rova_session: 'not-a-session' },
      headers: { 'x-request-id': 'req-audit-r001' },
    });
    expect(pub.statusCode).toBe(200);
    const refused = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/users',
      cookies: { rova_session: 'not-a-session' },
      headers: { 'x-request-id': 'req-audit-r002' },
    });
    expect(refused.statusCode).toBe(401);
    // a key that does not exist is someone trying keys, answered or not
    const guess = await t.inject({
      method: 'GET',
      url: '/wp-json/rova-rental/v1/locations',
      headers: { 'x-rova-api-key': 'rova_not-a-key', 'x-request-id': 'req-audit-r003' },
    });
    expect(guess.statusCode).toBe(200);
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?per_page=100',
      headers: { 'x-rova-api-key': admin },
    });
    const ids = (log.json() as { request_id: string }[]).map((e) => e.request_id);
    expect(ids).not.toContain('req-audit-r001');
    expect(ids).toContain('req-audit-r002');
    expect(ids).toContain('req-audit-r003');
  });

  it('concurrent writes share INSERTs (group commit), yet each row is written before its response leaves', async () => {
    const writer = new AuditWriter(t.platform.db);
    // each batch is one INSERT in a transaction of its own (insertAuditBatch), on either driver
    const spy = vi.spyOn(t.platform.db, 'transaction');
    const entry = (i: number): AuditEntry => ({
      requestId: `req-group-${i}`,
      actorUserId: null,
      actorLogin: null,
      authMethod: 'none',
      apiKeyId: null,
      ip: null,
      method: 'POST',
      route: '/group',
      path: '/group',
      target: null,
      status: 201,
      outcome: 'success',
      details: i % 2 ? { n: i } : null,
    });
    try {
      const sent = await statementsDuring(async () => {
        await Promise.all(Array.from({ length: 40 }, (_, i) => writer.append(entry(i))));
      });
      const inserts = spy.mock.calls.length;
      expect(inserts).toBeGreaterThanOrEqual(1);
      expect(inserts).toBeLessThan(40);
      // on PostgreSQL, the statements sent say the same: one INSERT per batch
      if (sent.length > 0) expect(sent.filter((q) => q.includes('INSERT INTO rova_audit_log')).length).toBe(inserts);
    } finally {
      spy.mockRestore();
    }
    const [row] = await rows<{ n: number; details: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n, count(details)::int AS details FROM rova_audit_log WHERE request_id LIKE 'req-group-%'`,
    );
    expect(row).toEqual({ n: 40, details: 20 });
    // over HTTP: 30 writes at once, each finds its own row as soon as it has its answer
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const r = await t.inject({
          method: 'POST',
          url: '/wp-json/probe/v1/change',
          headers: { 'x-request-id': `req-group-http-${i}` },
        });
        const [seen] = await rows<{ n: number }>(
          t.platform.db,
          sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE request_id = ${`req-group-http-${i}`}`,
        );
        return `${r.statusCode}:${seen!.n}`;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 30 }, () => '200:1'));
  });

  it('a NUL or an unpaired surrogate (a path refused by the NUL guard) is stored as U+FFFD and fails no batch', async () => {
    const writer = new AuditWriter(t.platform.db);
    const base: AuditEntry = {
      requestId: 'req-odd-0',
      actorUserId: null,
      actorLogin: null,
      authMethod: 'none',
      apiKeyId: null,
      ip: null,
      method: 'POST',
      route: '/r/:id',
      path: '/r/x',
      target: 'x',
      status: 400,
      outcome: 'failure',
      details: null,
    };
    await Promise.all([
      writer.append(base),
      writer.append({ ...base, requestId: 'req-odd-1', target: 'a\u0000b', path: '/r/a\u0000b' }),
      writer.append({ ...base, requestId: 'req-odd-2', target: 'c\ud800', details: { note: 'd\udc00\u0000' } }),
    ]);
    const got = await rows<{ request_id: string; target: string; path: string; details: unknown }>(
      t.platform.db,
      sql`SELECT request_id, target, path, details FROM rova_audit_log WHERE request_id LIKE 'req-odd-%' ORDER BY request_id`,
    );
    expect(got).toEqual([
      { request_id: 'req-odd-0', target: 'x', path: '/r/x', details: null },
      { request_id: 'req-odd-1', target: 'a\uFFFDb', path: '/r/a\uFFFDb', details: null },
      { request_id: 'req-odd-2', target: 'c\uFFFD', path: '/r/x', details: { note: 'd\uFFFD\uFFFD' } },
    ]);
    // and over HTTP: a NUL in a path parameter of a write is a 400, audited
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-rental/v2/my/bookings/%00/cancel',
      headers: { 'x-rova-api-key': admin, 'x-request-id': 'req-odd-http' },
    });
    expect(r.statusCode).toBe(400);
    const [row] = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE request_id = 'req-odd-http'`,
    );
    expect(row!.n).toBe(1);
  });

  it('a failed group write fails every entry of its batch, and the next batch is written', async () => {
    const writer = new AuditWriter(t.platform.db);
    const bad = {
      requestId: 'x'.repeat(10),
      actorUserId: null,
      actorLogin: null,
      authMethod: 'none',
      apiKeyId: null,
      ip: null,
      method: 'POST',
      route: '/r',
      path: '/r',
      target: null,
      status: 201,
      outcome: 'nonsense' as AuditEntry['outcome'],
    };
    const good = { ...bad, requestId: 'req-after-failure', outcome: 'success' as const };
    const results = await Promise.allSettled([writer.append(good), writer.append(bad), writer.append(bad)]);
    // the first write starts alone; the two that queued behind it fail together (CHECK on outcome)
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await writer.append({ ...good, requestId: 'req-after-failure-2' });
    const [row] = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE request_id LIKE 'req-after-failure%'`,
    );
    expect(row!.n).toBe(2);
  });

  it('is append-only in the database', async () => {
    const cause = async (q: Promise<unknown>) => {
      try {
        await q;
        return 'no error';
      } catch (err) {
        const e = err as Error & { cause?: Error };
        return `${e.message} ${e.cause?.message ?? ''}`;
      }
    };
    expect(await cause(t.platform.db.execute(sql`UPDATE rova_audit_log SET status = 200`))).toMatch(/append-only/);
    expect(await cause(t.platform.db.execute(sql`DELETE FROM rova_audit_log`))).toMatch(/append-only/);
  });
});
