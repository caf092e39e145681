import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from '../helpers/app.js';
import { appDatabaseUrl } from '../helpers/pg-admin.js';
import { V1 } from '../rental/helpers.js';
import { APPLY_FIELDS, multipart, PDF } from '../rental/market/helpers.js';

// Two nodes on one PostgreSQL database and one Redis behave as one (ARCHITECTURE.md "Scale-out").
const dbName = `rova_t_scale_${randomBytes(4).toString('hex')}`;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!TEST_PG || !TEST_REDIS)
    throw new Error('integration tests need ROVA_TEST_DATABASE_URL and ROVA_TEST_REDIS_URL (npm run test:integration)');
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  // one secret, two machines: each node has a DATA_DIR of its own, as on two hosts
  const env = {
    DATABASE_URL: appDatabaseUrl(TEST_PG, dbName),
    REDIS_URL: TEST_REDIS,
    REDIS_PREFIX: `rova-test:${dbName}:`,
    ROVA_SECRET: randomBytes(32).toString('hex'),
  };
  a = await makeApp({ env: { ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rova-node-a-')) } });
  b = await makeApp({ env: { ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rova-node-b-')) } });
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const n of [a, b]) if (n) rmSync(n.platform.config.dataDir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('scale-out', () => {
  it('a setting written on one node is seen by the other within a second', async () => {
    await a.platform.options.set('shared_setting', 1);
    expect(await b.platform.options.get('shared_setting')).toBe(1); // cached on b now
    await a.platform.options.set('shared_setting', 2);
    const deadline = Date.now() + 1000;
    let seen: unknown;
    while (Date.now() < deadline) {
      seen = await b.platform.options.get('shared_setting');
      if (seen === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe(2);
  });

  it('bus messages reach the other node', async () => {
    const got: string[] = [];
    b.platform.bus.subscribe('scale-topic', (p) => got.push(p));
    await a.platform.bus.publish('scale-topic', 'from-a');
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual(['from-a']);
  });

  it('a vendor document uploaded to one node downloads from the other (shared storage; was a 500 from node-local disk)', async () => {
    expect(a.platform.config.dataDir).not.toBe(b.platform.config.dataDir);
    const customer = { 'x-rova-api-key': (await a.userWithKey('customer')).key };
    const admin = { 'x-rova-api-key': (await a.userWithKey('administrator')).key };
    const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
    const r = await a.inject({
      method: 'POST',
      url: `${V1}/vendor/application`,
      headers: { ...customer, ...m.headers },
      payload: m.payload,
    });
    expect(r.statusCode, r.body).toBe(201);
    const url = (r.json().data.documents as { url: string }[])[0]!.url;
    for (const [node, who] of [
      [b, admin],
      [b, customer],
      [a, admin],
    ] as const) {
      const dl = await node.inject({ method: 'GET', url, headers: who });
      expect(dl.statusCode).toBe(200);
      expect(dl.headers['content-type']).toBe('application/pdf');
      expect(dl.rawPayload.equals(PDF)).toBe(true);
    }
  });

  it('rate limits are counted across nodes', async () => {
    for (let i = 0; i < 3; i++) await a.platform.limits.hit('scale', 'k', 5, 60);
    for (let i = 0; i < 2; i++) await b.platform.limits.hit('scale', 'k', 5, 60);
    expect((await a.platform.limits.hit('scale', 'k', 5, 60)).allowed).toBe(false);
  });

  it('transients are shared', async () => {
    await a.platform.transients.set('t1', { x: 1 }, 60);
    expect(await b.platform.transients.get('t1')).toEqual({ x: 1 });
  });

  it('a job lease is held by one node at a time', async () => {
    const [x, y] = await Promise.all([
      a.platform.jobs.acquireLease('scale-job', 5000),
      b.platform.jobs.acquireLease('scale-job', 5000),
    ]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
  });
});
