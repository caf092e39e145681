import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, StorageUnavailableError, type ObjectStorage } from '../../src/platform/storage/index.js';
import { migrateStorage } from '../../src/platform/storage/migrate.js';
import { makeApp, TEST_PG, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/ports.js';
import { rovaInProcess } from '../helpers/cli.js';
import { migratedDataDir } from '../helpers/rova-process.js';
import { V1 } from '../rental/helpers.js';
import { APPLY_FIELDS, multipart, PDF, PNG } from '../rental/market/helpers.js';

// Shared file storage (issue 23 item 1): the same contract from the database, a directory and an S3-compatible server
// (s3rver, the outside world's stand-in, on a local port), a missing object → 404 and an outage → 503 through the
// document route, and `rova storage migrate` between them.

const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

let s3: S3rver;
let s3Port: number;
const startS3 = async () => {
  s3 = new S3rver({
    port: s3Port,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'rova-files', configs: [] }],
  });
  await s3.run();
};
let s3Dir: string;
const s3Url = (prefix = 'docs') => `s3://rova-files/${prefix}?endpoint=http://127.0.0.1:${s3Port}`;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

let t: TestApp;
beforeAll(async () => {
  // s3rver's fixed credentials, read by the AWS SDK's usual chain as they would be in production
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  s3Dir = tmp('rova-s3-');
  s3Port = await freePort();
  await startS3();
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await s3?.close().catch(() => undefined);
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const all = async (s: ObjectStorage, prefix = '') => {
  const out: string[] = [];
  for await (const k of s.keys(prefix)) out.push(k);
  return out;
};

const adapters: [string, () => ObjectStorage][] = [
  ['database', () => openStorage('database', t.platform.db)],
  ['file', () => openStorage(`file://${tmp('rova-files-')}`, t.platform.db)],
  ['s3', () => openStorage(s3Url(`contract-${Math.random().toString(16).slice(2)}`), t.platform.db)],
];

describe.each(adapters)('the %s adapter', (_name, open) => {
  it('stores, reads back with the media type, lists by prefix in key order, deletes (twice is fine); missing → null', async () => {
    const s = open();
    try {
      await s.put('vendor-documents/b0.pdf', PDF, 'application/pdf');
      await s.put('vendor-documents/a1.png', PNG, 'image/png');
      await s.put('statements/ps-2026-0001.pdf', PDF, 'application/pdf');
      const got = await s.get('vendor-documents/a1.png');
      expect(got?.data.equals(PNG)).toBe(true);
      expect(got?.contentType).toBe('image/png');
      expect(await all(s, 'vendor-documents/')).toEqual(['vendor-documents/a1.png', 'vendor-documents/b0.pdf']);
      expect(await all(s)).toEqual(
        expect.arrayContaining(['statements/ps-2026-0001.pdf', 'vendor-documents/a1.png', 'vendor-documents/b0.pdf']),
      );
      // overwrite: the new bytes
      await s.put('vendor-documents/b0.pdf', Buffer.from('%PDF-1.7 second'), 'application/pdf');
      expect((await s.get('vendor-documents/b0.pdf'))?.data.toString()).toBe('%PDF-1.7 second');
      expect(await s.get('vendor-documents/nothing.pdf')).toBeNull();
      await s.delete('vendor-documents/b0.pdf');
      await s.delete('vendor-documents/b0.pdf');
      expect(await s.get('vendor-documents/b0.pdf')).toBeNull();
      for (const k of ['statements/ps-2026-0001.pdf', 'vendor-documents/a1.png']) await s.delete(k);
    } finally {
      await s.close();
    }
  });

  it('refuses keys that could leave the store', async () => {
    const s = open();
    try {
      for (const bad of [
        '../etc/passwd',
        'vendor-documents/../../x',
        '/abs/key',
        'nofolder',
        'vendor-documents/',
        'Vendor/x.pdf',
      ]) {
        await expect(s.put(bad, PDF, 'application/pdf'), bad).rejects.toThrow(/not a storage key/);
      }
    } finally {
      await s.close();
    }
  });
});

describe('S3 outages and configuration', () => {
  it('an unreachable server is a StorageUnavailableError naming the store (not a missing object)', async () => {
    const s = openStorage(`s3://rova-files/x?endpoint=http://127.0.0.1:${await freePort()}`, t.platform.db);
    try {
      await expect(s.get('vendor-documents/a.pdf')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(s.put('vendor-documents/a.pdf', PDF, 'application/pdf')).rejects.toThrow(
        /S3 storage s3:\/\/rova-files\/x\/ at http:\/\/127\.0\.0\.1:\d+ failed/,
      );
    } finally {
      await s.close();
    }
  });

  it('a bad STORAGE_URL stops the start with exit 2 and says what is wrong', async () => {
    const d = migratedDataDir('rova-storage-cfg-');
    dirs.push(d);
    for (const [url, says] of [
      [
        'ftp://files.example.com/x',
        'STORAGE_URL must be "database", s3://bucket[/prefix]?endpoint=… or file:///absolute/dir',
      ],
      ['s3://key:secret@bucket', 'no credentials in the URL — set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY'],
      ['s3://bucket?endpont=http://x', 'unknown parameter "endpont"'],
    ] as const) {
      const r = await rovaInProcess(['storage', 'check'], { DATA_DIR: d, STORAGE_URL: url, LOG_LEVEL: 'warn' });
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toContain(says);
      expect(r.stderr, url).not.toContain('secret');
    }
  }, 120_000);
});

describe('vendor documents through the document route on S3', () => {
  let s3App: TestApp;
  beforeAll(async () => {
    s3App = await makeApp({ env: { STORAGE_URL: s3Url('route'), RENTAL_WRITE_RATE_LIMIT: '100000' } });
  }, 120_000);
  afterAll(async () => s3App?.close());

  it('upload → stored in the bucket, download 200 with the bytes; object gone → 404; server down → 503 with Retry-After, then 200 again', async () => {
    const customer = { 'x-rova-api-key': (await s3App.userWithKey('customer')).key };
    const admin = { 'x-rova-api-key': (await s3App.userWithKey('administrator')).key };
    const m = multipart(APPLY_FIELDS, [
      { field: 'document_id', name: 'passport.pdf', data: PDF },
      { field: 'document_license', name: 'licence.png', data: PNG },
    ]);
    const r = await s3App.inject({
      method: 'POST',
      url: `${V1}/vendor/application`,
      headers: { ...customer, ...m.headers },
      payload: m.payload,
    });
    expect(r.statusCode, r.body).toBe(201);
    const [pdf, png] = r.json().data.documents as { url: string }[];
    expect(s3App.platform.storage.kind).toBe('s3');
    const inBucket = await all(s3App.platform.storage, 'vendor-documents/');
    expect(inBucket).toHaveLength(2);

    const dl = await s3App.inject({ method: 'GET', url: pdf!.url, headers: admin });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.rawPayload.equals(PDF)).toBe(true);

    // the bucket lost the PNG (deleted by hand, never migrated): a 404 in the namespace's shape, not a 500
    const pngKey = inBucket.find((k) => k.endsWith('.png'))!;
    await s3App.platform.storage.delete(pngKey);
    const gone = await s3App.inject({ method: 'GET', url: png!.url, headers: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });
    expect(gone.json().message).toContain('rova storage migrate');

    await s3.close();
    try {
      const down = await s3App.inject({ method: 'GET', url: pdf!.url, headers: admin });
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toMatch(/^\d+$/);
      expect(down.json()).toMatchObject({
        success: false,
        message: 'The file storage is unavailable. Try again in a few seconds.',
      });
      // an application while the storage is down: 503, and nothing written
      const other = { 'x-rova-api-key': (await s3App.userWithKey('customer')).key };
      const m2 = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
      const refused = await s3App.inject({
        method: 'POST',
        url: `${V1}/vendor/application`,
        headers: { ...other, ...m2.headers },
        payload: m2.payload,
      });
      expect(refused.statusCode).toBe(503);
      const mine = await s3App.inject({ method: 'GET', url: `${V1}/vendor/application`, headers: other });
      expect(mine.statusCode).toBe(404);
    } finally {
      await startS3();
    }
    const back = await s3App.inject({ method: 'GET', url: pdf!.url, headers: admin });
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PDF)).toBe(true);
  }, 60_000);
});

describe('moving files between storages', () => {
  it('file → database → S3: every object copied and read back, a re-run copies nothing, --delete-source empties the source', async () => {
    const dir = tmp('rova-move-');
    const file = openStorage(`file://${dir}`, t.platform.db);
    const db = openStorage('database', t.platform.db);
    const bucket = openStorage(s3Url('moved'), t.platform.db);
    try {
      const names = Array.from({ length: 7 }, (_, i) => `vendor-documents/${String(i).repeat(32).slice(0, 32)}.pdf`);
      for (const [i, k] of names.entries())
        await file.put(k, Buffer.concat([PDF, Buffer.from(`#${i}`)]), 'application/pdf');
      writeFileSync(path.join(dir, 'README.txt'), 'not ours');
      const first = await migrateStorage(file, db);
      expect(first).toEqual({ copied: 7, unchanged: 0, deleted: 0, ignored: ['README.txt'] });
      expect(await migrateStorage(file, db)).toMatchObject({ copied: 0, unchanged: 7 });
      const second = await migrateStorage(db, bucket, { deleteSource: true });
      expect(second).toMatchObject({ copied: 7, deleted: 7 });
      expect(await all(db, 'vendor-documents/')).toEqual([]);
      expect(await all(bucket, 'vendor-documents/')).toEqual(names);
      expect((await bucket.get(names[3]!))?.data.toString()).toBe(`${PDF.toString()}#3`);
      for (const k of names) await bucket.delete(k);
    } finally {
      await bucket.close();
    }
  });
});

describe.skipIf(!!TEST_PG)('rova storage migrate (CLI, embedded database)', () => {
  it('moves the files an earlier version left in DATA_DIR/uploads into the database, once', async () => {
    const d = migratedDataDir('rova-storage-cli-');
    dirs.push(d);
    const legacy = path.join(d, 'uploads', 'vendor-documents');
    mkdirSync(legacy, { recursive: true });
    const names = ['0123456789abcdef0123456789abcdef.pdf', 'fedcba9876543210fedcba9876543210.png'];
    writeFileSync(path.join(legacy, names[0]!), PDF);
    writeFileSync(path.join(legacy, names[1]!), PNG);
    const run = (...args: string[]) => rovaInProcess(args, { HOME: d, DATA_DIR: d, LOG_LEVEL: 'warn' });

    const r = await run('storage', 'migrate', '--delete-source');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `copied vendor-documents/${names[0]}\ncopied vendor-documents/${names[1]}\n2 copied, 0 already there, 2 deleted from the source, 0 ignored\n`,
    );
    expect(r.stderr).toContain(`moving files from file://${path.join(d, 'uploads')} to database`);
    expect(readdirSync(legacy)).toEqual([]);
    const again = await run('storage', 'migrate');
    expect(again.stdout).toBe('0 copied, 0 already there, 0 deleted from the source, 0 ignored\n');
    const check = await run('storage', 'check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toBe('storage database: write, read back and delete ok\n');
    const same = await run('storage', 'migrate', '--from', 'database');
    expect(same.code).toBe(2);
    expect(same.stderr).toBe(
      'rova: --from and --to are the same storage (database); STORAGE_URL sets the default --to\n',
    );
    const usage = await run('storage', 'copy');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'rova: usage: rova storage migrate [--from URL] [--to URL] [--delete-source] | rova storage check\n',
    );
  }, 180_000);
});
