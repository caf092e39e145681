// @integration: the append-only trigger and the purge function are server-side SQL
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { AuthFailureAudit, INDIVIDUAL_PER_MINUTE } from '../../src/platform/audit/auth-failures.js';
import { queryAudit, type AuditEntry } from '../../src/platform/audit/log.js';
import { archiveAndPurgeAudit } from '../../src/platform/audit/retention.js';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let dir = '';
beforeAll(async () => {
  t = await makeApp();
  dir = mkdtempSync(path.join(tmpdir(), 'rova-audit-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('audit log growth', () => {
  it('300 bogus-key requests from one address add 10 entries and one counted entry, not 300 rows', async () => {
    for (let i = 0; i < 300; i++) {
      const r = await t.inject({
        method: 'GET',
        url: '/wp-json/rova/v1/users',
        headers: { 'x-rova-api-key': `rova_bogus${i}` },
        remoteAddress: '203.0.113.200',
      });
      expect(r.statusCode).toBe(401);
    }
    await t.authFailures.flush();
    const { items } = await queryAudit(t.platform.db, { outcome: 'denied', page: 1, perPage: 100 });
    const mine = items.filter((e) => e.ip === '203.0.113.200');
    // A minute boundary may fall inside the loop: then there are two windows (each ≤ 10 single + 1 counted).
    expect(mine.length).toBeLessThanOrEqual(2 * (INDIVIDUAL_PER_MINUTE + 1));
    const counted = mine.filter((e) => e.details?.collapsed === true);
    const single = mine.filter((e) => e.details?.collapsed !== true);
    expect(single.length + counted.reduce((n, e) => n + Number(e.details!.count), 0)).toBe(300);
    expect(counted[0]!.details).toMatchObject({
      collapsed: true,
      auth_failures: { invalid_api_key: expect.any(Number) },
      statuses: { '401': expect.any(Number) },
    });
  });

  it('counts per address and per minute', async () => {
    const written: AuditEntry[] = [];
    let now = Date.UTC(2030, 0, 1, 12, 0, 5);
    const c = new AuthFailureAudit(
      async (e) => void written.push(e),
      () => undefined,
      () => now,
    );
    const entry = (ip: string): AuditEntry => ({
      requestId: 'r',
      actorUserId: null,
      actorLogin: null,
      authMethod: 'anonymous',
      apiKeyId: null,
      ip,
      method: 'GET',
      route: '/x',
      path: '/x',
      target: null,
      status: 401,
      outcome: 'denied',
      details: { auth_failure: 'invalid_api_key' },
    });
    for (let i = 0; i < 25; i++) await c.record(entry('192.0.2.1'));
    await c.record(entry('192.0.2.2'));
    expect(written).toHaveLength(INDIVIDUAL_PER_MINUTE + 1);
    await c.flush(false); // the minute is not over: nothing yet
    expect(written).toHaveLength(INDIVIDUAL_PER_MINUTE + 1);
    now += 60_000;
    await c.flush(false);
    expect(written).toHaveLength(INDIVIDUAL_PER_MINUTE + 2);
    expect(written.at(-1)).toMatchObject({
      ip: '192.0.2.1',
      requestId: 'collapsed:2030-01-01T12:00:00.000Z',
      details: {
        collapsed: true,
        count: 15,
        window_start: '2030-01-01T12:00:00.000Z',
        window_end: '2030-01-01T12:01:00.000Z',
        auth_failures: { invalid_api_key: 15 },
      },
    });
  });
});

describe('audit retention', () => {
  const insertAt = (daysAgo: number, requestId: string) =>
    t.platform.db
      .execute(sql`INSERT INTO rova_audit_log (at, request_id, auth_method, method, route, path, status, outcome)
      VALUES (now() - make_interval(days => ${daysAgo}), ${requestId}, 'api_key', 'POST', '/r', '/r', 201, 'success')`);
  const ids = async (prefix: string) =>
    (
      await rows<{ request_id: string }>(
        t.platform.db,
        sql`SELECT request_id FROM rova_audit_log WHERE request_id LIKE ${prefix + '%'} ORDER BY id`,
      )
    ).map((r) => r.request_id);

  it('archives rows past AUDIT_RETENTION_DAYS to gzipped NDJSON, then drops exactly those', async () => {
    await insertAt(400, 'ret-old-1');
    await insertAt(366, 'ret-old-2');
    await insertAt(364, 'ret-recent');
    await insertAt(0, 'ret-today');
    const r = await archiveAndPurgeAudit(t.platform.db, { retentionDays: 365, dir });
    expect(r.archived).toBe(2);
    expect(readdirSync(dir).filter((f) => f.endsWith('.ndjson.gz'))).toHaveLength(1);
    const lines = gunzipSync(readFileSync(r.files[0]!))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.request_id)).toEqual(['ret-old-1', 'ret-old-2']);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      route: '/r',
      status: 201,
      outcome: 'success',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(await ids('ret-')).toEqual(['ret-recent', 'ret-today']);
    expect((await archiveAndPurgeAudit(t.platform.db, { retentionDays: 365, dir })).archived).toBe(0);
  });

  it('the append-only trigger still refuses ad-hoc deletes and updates', async () => {
    await insertAt(500, 'adhoc-old');
    await expect(
      t.platform.db.execute(sql`DELETE FROM rova_audit_log WHERE request_id = 'adhoc-old'`),
    ).rejects.toThrow();
    await expect(
      t.platform.db.execute(sql`UPDATE rova_audit_log SET status = 200 WHERE request_id = 'adhoc-old'`),
    ).rejects.toThrow();
    // Even with the job's setting forged, a recent row cannot go.
    await expect(
      t.platform.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT set_config('rova.audit_purge_before', ${new Date(Date.now() + 86_400_000).toISOString()}, true)`,
        );
        await tx.execute(sql`DELETE FROM rova_audit_log WHERE request_id = 'ret-today'`);
      }),
    ).rejects.toThrow();
    expect(await ids('adhoc-')).toEqual(['adhoc-old']);
    expect(await ids('ret-today')).toEqual(['ret-today']);
  });

  it('AUDIT_RETENTION_DAYS defaults to 365 and must be a whole number of days ≥ 1', () => {
    expect(loadConfig({}, { ephemeral: true }).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }, { ephemeral: true }).auditRetentionDays).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'forever']) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad }, { ephemeral: true })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' }, { ephemeral: true })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
