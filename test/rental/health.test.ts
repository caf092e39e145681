// @integration: health reads the database and the migration state
import { afterAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { platformModule } from '../../src/platform/module.js';
import { createRentalModule } from '../../src/modules/rental/module.js';
import { listMigrations } from '../../src/platform/db/migrate.js';
import { VERSION } from '../../src/version.js';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { V1 } from './helpers.js';

describe('GET /health', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close().catch(() => undefined);
  });

  // the first app of a worker also loads PGlite: allow for a slow, shared machine
  it('200 {status: ok, version} when the database answers and nothing is pending', { timeout: 90_000 }, async () => {
    const t = await makeApp();
    apps.push(t);
    await expect.poll(() => holdingIndexOf(t.platform).ready, { timeout: 20_000 }).toBe(true);
    const r = await t.inject({ method: 'GET', url: `${V1}/health` });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      success: true,
      data: { status: 'ok', version: '4.52.0', rova_version: VERSION, availability_from: 'index' },
      message: '',
    });
  });

  it('503 degraded when a migration is pending', async () => {
    const fake = () => [...listMigrations(), { name: '9999_future.sql', sql: 'SELECT 1', checksum: 'x' }];
    const t = await makeApp({ modules: [platformModule, createRentalModule({ health: { migrations: fake } })] });
    apps.push(t);
    const r = await t.inject({ method: 'GET', url: `${V1}/health` });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'SERVICE_UNAVAILABLE',
      data: { status: 'degraded', version: '4.52.0', rova_version: VERSION, failed: ['migrations'] },
    });
  });

  it('503 degraded when the database is gone', async () => {
    const t = await makeApp();
    const key = (await t.userWithKey('administrator')).key;
    await t.platform.dbHandle.close();
    const r = await t.inject({ method: 'GET', url: `${V1}/health` });
    expect(r.statusCode).toBe(503);
    expect(r.json().data).toMatchObject({ status: 'degraded', failed: ['database'] });
    // and a database-backed route answers 503 with Retry-After in the rental shape (issue 14), without a stack
    const boom = await t.inject({ method: 'GET', url: `${V1}/vehicles`, headers: { 'x-rova-api-key': key } });
    expect(boom.statusCode).toBe(503);
    expect(boom.headers['retry-after']).toBe('5');
    expect(boom.json()).toEqual({ success: false, error_code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    expect(boom.body).not.toMatch(/at .*\.ts:\d+/);
    apps.push(t);
  });
});
