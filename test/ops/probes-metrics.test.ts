// @integration: /readyz checks the database and Redis; pool metrics exist only on PostgreSQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/app.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { METRICS: 'token', METRICS_TOKEN: TOKEN } });
}, 240_000);
afterAll(async () => t?.close());

describe('probes', () => {
  it('GET /livez and /readyz answer 200 with the checks, public', async () => {
    const live = await t.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: t.config.redisUrl ? 'ok' : 'skipped', migrations: 'ok' },
      failed: [],
    });
  });
});

describe('metrics', () => {
  it('GET /metrics needs the bearer token; exposes request, pool, limiter and job series', async () => {
    await t.inject({ method: 'GET', url: '/wp-json/rova-fx/v1/currencies?code=EUR' });
    expect((await t.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(wrong.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(wrong.json()).toEqual({
      code: 'rova_metrics_unauthorized',
      message: 'Send Authorization: Bearer <METRICS_TOKEN>.',
      data: { status: 401 },
    });
    const r = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toContain(
      'rova_http_request_duration_seconds_count{method="GET",route="/readyz",status_code="200"}',
    );
    expect(r.body).toContain('route="/wp-json/rova-fx/v1/currencies",status_code="401"');
    expect(r.body).not.toContain('code=EUR');
    expect(r.body).toMatch(/rova_db_pool_connections\{state="total"\} \d+/);
    expect(r.body).toContain('# TYPE rova_rate_limit_hits_total counter');
    expect(r.body).toContain('# TYPE rova_job_runs_total counter');
  });
  it('METRICS unset: no /metrics route', async () => {
    const off = await makeApp();
    try {
      expect((await off.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  }, 240_000);
});

describe('graceful stop', () => {
  it('JobRunner.stop() waits for the run in progress', async () => {
    const runner = new JobRunner(t.platform.db, t.platform.log, 60_000);
    let started = false;
    let finished = false;
    runner.schedule({
      name: 'ops_test_slow',
      intervalMs: () => 1,
      run: async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 400));
        finished = true;
      },
    });
    const deadline = Date.now() + 60_000;
    while (!started && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(started).toBe(true);
    await runner.stop();
    expect(finished).toBe(true);
  }, 90_000);
});

describe('exchange-rate snapshot honesty', () => {
  it('demo rates keep the snapshot date and are stale in /currencies, the preview and the notices', async () => {
    await seedDemo(t.platform);
    const a = await t.userWithKey('administrator');
    const get = async (p: string) =>
      (await t.inject({ method: 'GET', url: `/wp-json/rova-fx/v1${p}`, headers: { 'x-rova-api-key': a.key } })).json();
    const cur = await get('/currencies');
    const snapshotTime = Date.parse('2023-05-30T00:00:00Z') / 1000;
    for (const c of cur.currencies) expect(c.rate.updated_at).toBe(snapshotTime);
    expect(cur.last_sync).toEqual({ time: snapshotTime, base: 'USD', source: 'file' });
    expect(cur.stale_rates).toEqual(['EUR', 'GBP', 'JPY', 'TRY'].map((code) => ({ code, rate_date: '2023-05-30' })));
    const preview = await get('/rates/preview');
    for (const r of preview.rates) expect(r).toMatchObject({ rate_date: '2023-05-30', stale: true });
    const notices = (await get('/cache-notice')).notices;
    expect(notices.find((n: { kind: string }) => n.kind === 'stale_rates')).toMatchObject({
      snoozed: false,
      signature: 'EUR@2023-05-30,GBP@2023-05-30,JPY@2023-05-30,TRY@2023-05-30',
    });
  });
});
