// @integration: a backup taken from PostgreSQL under writes, restored into an empty PostgreSQL database
import { execFile } from 'node:child_process';
import S3rver from 's3rver';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, seedDemo, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { BackupManifest } from '../../src/platform/backup/manifest.js';
import { pruneBackups, scheduleBackups } from '../../src/platform/backup/job.js';
import { takeBackup, type TakenBackup } from '../../src/platform/backup/take.js';
import type { JobSpec } from '../../src/platform/jobs.js';
import type { Platform } from '../../src/platform/context.js';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, TEST_PG, type TestApp } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { adminQuery, createDatabase } from '../helpers/pg-admin.js';
import { freePort } from '../helpers/ports.js';
import { migratedDataDir, rovaArgs } from '../helpers/rova-process.js';
import { cleanEnv, start } from '../ops/spawn.js';
import { V1, vehicle } from '../rental/helpers.js';
import { APPLY_FIELDS, multipart, PDF } from '../rental/market/helpers.js';

// A backup taken while bookings are written, restored into an empty target (a fresh DATA_DIR on the embedded
// database, an empty database under `npm run test:integration`), started again.

const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(path.join(tmpdir(), p));
  dirs.push(d);
  return d;
};
const drops: (() => Promise<void>)[] = [];

let t: TestApp;
let key: string;
let backupDir: string;
let manifest: BackupManifest;
/** A vendor application's document, uploaded before the backup. */
let documentId: number;
/** Bookings answered 201, with when the answer came. */
const answered: { id: number; at: number }[] = [];

/** An empty target: a fresh DATA_DIR, and under integration an empty PostgreSQL database. */
async function emptyTarget(): Promise<Record<string, string>> {
  const env: Record<string, string> = { DATA_DIR: tmp('rova-restore-'), ROVA_SECRET: t.config.secret };
  if (TEST_PG) {
    const db = await createDatabase(TEST_PG, `rova_restore_${randomBytes(5).toString('hex')}`);
    drops.push(db.drop);
    env.DATABASE_URL = db.url;
  }
  return env;
}

beforeAll(async () => {
  t = await makeApp({ demo: true, env: { RENTAL_WRITE_RATE_LIMIT: '1000000' } });
  key = (await t.userWithKey('administrator')).key;
  await t.platform.storage.put('vendor-documents/backup-probe.pdf', Buffer.from('%PDF-1.4 probe'), 'application/pdf');
  const upload = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
  const applied = await t.inject({
    method: 'POST',
    url: `${V1}/vendor/application`,
    headers: { 'x-rova-api-key': (await t.userWithKey('customer')).key, ...upload.headers },
    payload: upload.payload,
  });
  if (applied.statusCode !== 201) throw new Error(`application answered ${applied.statusCode}: ${applied.body}`);
  documentId = (applied.json() as { data: { documents: { id: number }[] } }).data.documents[0]!.id;
  const vehicles = await Promise.all(Array.from({ length: 8 }, () => vehicle(t, { price_per_day: '50.00' })));
  // eight clients book day after day until the backup is done
  let writing = true;
  const writers = vehicles.map(async (v, i) => {
    for (let day = 0; writing; day++) {
      const from = new Date(Date.UTC(2031, 0, 1 + day * 2)).toISOString().slice(0, 10);
      const to = new Date(Date.UTC(2031, 0, 2 + day * 2)).toISOString().slice(0, 10);
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/bookings`,
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          customer: { name: `Writer ${i}`, email: `w${i}@example.test` },
          pickup_date: from,
          return_date: to,
        },
      });
      if (r.statusCode === 201) answered.push({ id: (r.json() as { data: { id: number } }).data.id, at: Date.now() });
      else throw new Error(`booking answered ${r.statusCode}: ${r.body}`);
    }
  });
  // some bookings answered before the snapshot, however loaded the machine (then writes go on during the backup)
  while (answered.length < vehicles.length) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  const taken = await takeBackup(t.platform.dbHandle, t.platform.storage, {
    into: tmp('rova-backups-'),
    secret: t.config.secret,
  });
  writing = false;
  await Promise.all(writers);
  backupDir = taken.dir;
  manifest = taken.manifest;
}, 300_000);

afterAll(async () => {
  await t?.close();
  for (const d of drops) await d();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function openRestored(env: Record<string, string>): Promise<BuiltApp> {
  return buildApp(loadConfig({ LOG_LEVEL: 'silent', ROVA_JOBS: 'false', STORE_CURRENCY: 'USD', ...env }), {
    logger: false,
  });
}

/** The tables of a PostgreSQL database (an empty target has none). */
async function tablesIn(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ name: string }>(
      `SELECT relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    return r.rows.map((x) => x.name);
  } finally {
    await c.end();
  }
}

const ledgerOf = (db: BuiltApp['platform']['db']) =>
  rows<{ account: string; balance: string }>(
    db,
    sql`SELECT code AS account, balance::text AS balance FROM ledger_accounts ORDER BY 1`,
  );

describe('rova backup and rova restore', () => {
  it('the backup holds every booking answered before its snapshot, and restores into an empty target that starts and verifies', async () => {
    const snapshot = Date.parse(manifest.taken_at);
    const before = answered.filter((a) => a.at < snapshot).map((a) => a.id);
    expect(before.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThan(before.length); // writes went on during the backup
    if (TEST_PG) {
      // PostgreSQL: one pg_dump custom-format archive, the manifest counting every table in the same snapshot
      expect(manifest.format).toBe(2);
      expect(manifest.dump?.file.path).toBe('database.dump');
      expect(readFileSync(path.join(backupDir, 'database.dump')).subarray(0, 5).toString()).toBe('PGDMP');
      expect(readdirSync(backupDir)).not.toContain('tables');
    } else {
      expect(manifest.format).toBe(1);
      expect(manifest.tables.every((x) => x.file?.path === `tables/${x.name}.ndjson`)).toBe(true);
    }
    const env = await emptyTarget();
    const r = await rovaInProcess(['restore', backupDir], env);
    expect(r.stdout).toMatch(/^verify ok: /m);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/restored the backup of .*: \d+ tables, \d+ rows/);
    const restored = await openRestored(env);
    try {
      const ids = new Set(
        (await rows<{ id: number }>(restored.platform.db, sql`SELECT id::int AS id FROM rental_bookings`)).map(
          (x) => x.id,
        ),
      );
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      // nothing the source never had
      const source = new Set(
        (await rows<{ id: number }>(t.platform.db, sql`SELECT id::int AS id FROM rental_bookings`)).map((x) => x.id),
      );
      expect([...ids].filter((id) => !source.has(id))).toEqual([]);
      expect(ids.size).toBe(manifest.tables.find((x) => x.name === 'rental_bookings')!.rows);
      // the writers moved no money: the ledger equals the source's
      expect(await ledgerOf(restored.platform.db)).toEqual(await ledgerOf(t.platform.db));
      expect((await restored.platform.storage.get('vendor-documents/backup-probe.pdf'))?.data.toString()).toBe(
        '%PDF-1.4 probe',
      );
      // the old API key works: same secret, same hashed key
      await restored.app.ready();
      const list = await restored.app.inject({
        method: 'GET',
        url: `${V1}/bookings?per_page=1`,
        headers: { 'x-rova-api-key': key },
      });
      expect(list.statusCode).toBe(200);
      // the application's document downloads from the restored storage
      const doc = await restored.app.inject({
        method: 'GET',
        url: `${V1}/vendor-documents/${documentId}`,
        headers: { 'x-rova-api-key': key },
      });
      expect(doc.statusCode).toBe(200);
      expect(doc.rawPayload.equals(PDF)).toBe(true);
      // a new booking after the restore gets a fresh id (sequences restored past the restored rows)
      const v = (
        await rows<{ id: number }>(restored.platform.db, sql`SELECT max(id)::int AS id FROM rental_vehicles`)
      )[0]!.id;
      const created = await restored.app.inject({
        method: 'POST',
        url: `${V1}/bookings`,
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          customer: { name: 'After Restore', email: 'after@example.test' },
          pickup_date: '2033-05-01',
          return_date: '2033-05-03',
        },
      });
      expect(created.statusCode).toBe(201);
      expect(ids.has((created.json() as { data: { id: number } }).data.id)).toBe(false);
    } finally {
      await restored.app.close();
    }
  }, 300_000);

  it('refuses a target that already holds data, and names it', async () => {
    const env = await emptyTarget();
    expect((await rovaInProcess(['restore', backupDir], env)).code).toBe(0);
    const again = await rovaInProcess(['restore', backupDir], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/restore refused: .*already holds/);
  }, 300_000);

  it('refuses a damaged backup by its checksum, before writing anything', async () => {
    const copy = path.join(tmp('rova-damaged-'), path.basename(backupDir));
    cpSync(backupDir, copy, { recursive: true });
    // on PostgreSQL the pg_dump archive, on the embedded database a table's NDJSON
    const damaged = TEST_PG ? 'database.dump' : 'tables/rental_bookings.ndjson';
    const file = path.join(copy, damaged);
    const text = readFileSync(file);
    const at = Math.floor(text.length / 2);
    text[at] = text[at]! ^ 1;
    writeFileSync(file, text);
    const env = await emptyTarget();
    const r = await rovaInProcess(['restore', copy], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${damaged} does not match its checksum`);
    expect(readdirSync(env.DATA_DIR!)).not.toContain('pgdata');
    if (env.DATABASE_URL) expect(await tablesIn(env.DATABASE_URL)).toEqual([]);
  });

  it('refuses another ROVA_SECRET (sealed IBANs and keys would be unreadable)', async () => {
    const env = { ...(await emptyTarget()), ROVA_SECRET: 'f'.repeat(64) };
    const r = await rovaInProcess(['restore', backupDir], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sealed with another ROVA_SECRET/);
  });

  it('the scheduled job keeps exactly BACKUP_KEEP backups', async () => {
    const into = tmp('rova-scheduled-');
    let spec: JobSpec | undefined;
    const p = {
      ...t.platform,
      config: { ...t.platform.config, backupDir: into, backupKeep: 2, backupEveryMs: 3_600_000 },
      jobs: { schedule: (s: JobSpec) => (spec = s) },
      log: { info: () => undefined },
    } as unknown as Platform;
    scheduleBackups({ ...p, config: { ...p.config, backupEveryMs: null } } as Platform);
    expect(spec).toBeUndefined(); // BACKUP_SCHEDULE unset: no job
    scheduleBackups(p);
    expect(spec?.name).toBe('backup');
    expect(await spec!.intervalMs()).toBe(3_600_000);
    for (let i = 0; i < 4; i++) await spec!.run();
    const left = readdirSync(into).sort();
    expect(left).toHaveLength(2);
    expect(left.every((n) => /^rova-backup-\d{8}T\d{6}Z(-\d+)?$/.test(n))).toBe(true);
    expect(await pruneBackups(into, 5)).toEqual([]);
  }, 300_000);
});

describe.skipIf(!!TEST_PG)('rova backup beside a running server on the embedded database', () => {
  it('the server takes the backup in its own snapshot when asked, and keeps serving', async () => {
    const dir = migratedDataDir('rova-online-');
    dirs.push(dir);
    const env = { DATA_DIR: dir, HOME: dir, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info' };
    const run = start(process.execPath, rovaArgs('serve'), env);
    try {
      const base = await run.ready;
      const into = tmp('rova-online-backups-');
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          rovaArgs('backup', '--to', into),
          { env: cleanEnv({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), timeout: 120_000 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(r.stderr).toMatch(/in use by the server \(pid \d+\): asking it to take the backup/);
      expect(r.code).toBe(0);
      const made = r.stdout.trim();
      expect(path.dirname(made)).toBe(into);
      const m = JSON.parse(readFileSync(path.join(made, 'manifest.json'), 'utf8')) as BackupManifest;
      expect(m.engine).toBe('pglite');
      expect(m.tables.map((x) => x.name)).toContain('rental_bookings');
      expect(run.output()).toContain('backup taken on request (rova backup)');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 180_000);
});

describe.skipIf(!!TEST_PG)('a backup in S3', () => {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  let s3: S3rver;
  afterAll(async () => {
    await s3?.close().catch(() => undefined);
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('rova backup --to s3://… uploads it; rova restore from the printed address restores it', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    const port = await freePort();
    s3 = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory: tmp('rova-s3-'),
      configureBuckets: [{ name: 'rova-backups', configs: [] }],
    });
    await s3.run();
    const source = { DATA_DIR: migratedDataDir('rova-s3-source-'), ROVA_SECRET: t.config.secret };
    dirs.push(source.DATA_DIR);
    const made = await rovaInProcess(
      ['user', 'create', '--login', 'keeper', '--email', 'keeper@example.test', '--role', 'administrator'],
      source,
    );
    expect(made.code).toBe(0);
    const up = await rovaInProcess(
      ['backup', '--to', `s3://rova-backups/shop?endpoint=http://127.0.0.1:${port}`],
      source,
    );
    expect(up.stderr).toMatch(/^backup taken at .*\nuploaded rova-backup-\d{8}T\d{6}Z to s3:\/\/rova-backups\/shop/);
    expect(up.code).toBe(0);
    const address = up.stdout.trim();
    expect(address).toMatch(/^s3:\/\/rova-backups\/shop\/backups\/rova-backup-\d{8}T\d{6}Z$/);
    const target = { DATA_DIR: tmp('rova-s3-target-'), ROVA_SECRET: t.config.secret };
    const down = await rovaInProcess(['restore', `${address}?endpoint=http://127.0.0.1:${port}`], target);
    expect(down.stdout).toMatch(/^verify ok: /m);
    expect(down.code).toBe(0);
    const restored = await openRestored(target);
    try {
      const users = await rows<{ login: string }>(
        restored.platform.db,
        sql`SELECT login FROM rova_users WHERE login = 'keeper'`,
      );
      expect(users).toHaveLength(1);
    } finally {
      await restored.app.close();
    }
  }, 180_000);
});

/** A backup of a demo-seeded embedded database (format 1, NDJSON), taken once. */
let embeddedBackup: Promise<TakenBackup> | undefined;
function takeEmbeddedBackup(): Promise<TakenBackup> {
  embeddedBackup ??= (async () => {
    const embedded = await buildApp(
      loadConfig({ LOG_LEVEL: 'silent', STORE_CURRENCY: 'USD', ROVA_SECRET: t.config.secret }, { ephemeral: true }),
      { logger: false },
    );
    try {
      expect(embedded.platform.dbHandle.kind).toBe('pglite');
      await seedDemo(embedded.platform);
      return await takeBackup(embedded.platform.dbHandle, embedded.platform.storage, {
        into: tmp('rova-embedded-backups-'),
        secret: t.config.secret,
      });
    } finally {
      await embedded.app.close();
    }
  })();
  return embeddedBackup;
}

describe.runIf(!!TEST_PG)('from the embedded database to PostgreSQL', () => {
  it('a backup of an embedded database restores into an empty PostgreSQL database', async () => {
    const taken = await takeEmbeddedBackup();
    expect(taken.manifest.engine).toBe('pglite');
    expect(taken.manifest.format).toBe(1);
    const env = await emptyTarget();
    const r = await rovaInProcess(['restore', taken.dir], env);
    expect(r.stdout).toMatch(/^verify ok: /m);
    expect(r.code).toBe(0);
    const restored = await openRestored(env);
    try {
      expect(restored.platform.dbHandle.kind).not.toBe('pglite');
      const n = await rows<{ n: number }>(restored.platform.db, sql`SELECT count(*)::int AS n FROM rental_bookings`);
      expect(n[0]!.n).toBe(taken.manifest.tables.find((x) => x.name === 'rental_bookings')!.rows);
      expect(n[0]!.n).toBeGreaterThan(0);
    } finally {
      await restored.app.close();
    }
  }, 300_000);
});

describe.runIf(!!TEST_PG)('restoring as the store’s own PostgreSQL role (no superuser)', () => {
  /** An empty database owned by a new role that is no superuser, and that role's DATABASE_URL. */
  async function ownedTarget(): Promise<Record<string, string>> {
    const suffix = randomBytes(5).toString('hex');
    const role = `rova_owner_${suffix}`;
    const name = `rova_owned_${suffix}`;
    await adminQuery(TEST_PG, `CREATE ROLE ${role} LOGIN NOSUPERUSER`);
    await adminQuery(TEST_PG, `CREATE DATABASE ${name} OWNER ${role}`);
    drops.push(async () => {
      await adminQuery(TEST_PG, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminQuery(TEST_PG, `DROP ROLE IF EXISTS ${role}`);
    });
    const url = new URL(TEST_PG);
    url.username = role;
    url.password = '';
    url.pathname = `/${name}`;
    return { DATA_DIR: tmp('rova-owned-'), ROVA_SECRET: t.config.secret, DATABASE_URL: url.toString() };
  }

  it('pg_restore owns everything by that role (--no-owner), skips what only a superuser may do, and verifies', async () => {
    const env = await ownedTarget();
    const r = await rovaInProcess(['restore', backupDir], env);
    expect(r.stdout).toMatch(/^verify ok: /m);
    expect(r.code).toBe(0);
    const restored = await openRestored(env);
    try {
      expect(await ledgerOf(restored.platform.db)).toEqual(await ledgerOf(t.platform.db));
      const n = await rows<{ n: number }>(restored.platform.db, sql`SELECT count(*)::int AS n FROM rental_bookings`);
      expect(n[0]!.n).toBe(manifest.tables.find((x) => x.name === 'rental_bookings')!.rows);
    } finally {
      await restored.app.close();
    }
  }, 300_000);

  it('an NDJSON backup (embedded, or Rova 0.2.0) loads in foreign-key order with the triggers on, and verifies', async () => {
    const taken = await takeEmbeddedBackup();
    const env = await ownedTarget();
    const r = await rovaInProcess(['restore', taken.dir], env);
    expect(r.stdout).toMatch(/^verify ok: /m);
    expect(r.code).toBe(0);
    const restored = await openRestored(env);
    try {
      const n = await rows<{ n: number }>(restored.platform.db, sql`SELECT count(*)::int AS n FROM rental_bookings`);
      expect(n[0]!.n).toBe(taken.manifest.tables.find((x) => x.name === 'rental_bookings')!.rows);
    } finally {
      await restored.app.close();
    }
  }, 300_000);
});

describe.runIf(!!TEST_PG)('a pg_dump archive and its target', () => {
  it('refuses to restore a PostgreSQL backup into the embedded database, before writing anything', async () => {
    const env = { DATA_DIR: tmp('rova-to-embedded-'), ROVA_SECRET: t.config.secret };
    const r = await rovaInProcess(['restore', backupDir], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/restore refused: this backup is a pg_dump archive .* \(set DATABASE_URL\)/);
    expect(readdirSync(env.DATA_DIR)).not.toContain('pgdata');
  });

  it('refuses a non-empty PostgreSQL target before pg_restore writes anything', async () => {
    const env = await emptyTarget();
    await adminQuery(env.DATABASE_URL!, 'CREATE TABLE someone_elses (id int)');
    const r = await rovaInProcess(['restore', backupDir], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/restore refused: the database at DATABASE_URL already holds tables/);
    expect(await tablesIn(env.DATABASE_URL!)).toEqual(['someone_elses']);
  });

  it('rova backup on PostgreSQL writes the archive and says so', async () => {
    const into = tmp('rova-cli-pgdump-');
    const r = await rovaInProcess(['backup', '--to', into], {
      DATA_DIR: tmp('rova-cli-data-'),
      ROVA_SECRET: t.config.secret,
      DATABASE_URL: t.config.databaseUrl!,
    });
    expect(r.stderr).toMatch(/^backup taken at .* \(pg_dump archive, pg_dump \(PostgreSQL\) \d+/);
    expect(r.code).toBe(0);
    const m = JSON.parse(readFileSync(path.join(r.stdout.trim(), 'manifest.json'), 'utf8')) as BackupManifest;
    expect(m.format).toBe(2);
    expect(m.tables.find((x) => x.name === 'rental_bookings')!.rows).toBeGreaterThan(0);
  }, 120_000);
});
