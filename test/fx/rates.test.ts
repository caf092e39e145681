// @integration: a rate sync invalidates every node cache through the bus
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/platform/jobs.js';
import { SYNC_JOB } from '../../src/modules/fx/admin-service.js';
import { scheduleRateSync } from '../../src/modules/fx/index.js';
import { fxRuntime } from '../../src/modules/fx/state.js';
import { parseEcb, parseExchangeRateApi, snapshotRates, sourceTime } from '../../src/modules/fx/rates/sources.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { capturedIo } from '../helpers/cli.js';
import { adminOf, FIXTURES, serve, type Admin } from './helpers.js';

const ECB_XML = readFileSync(`${FIXTURES}/ecb-eurofxref-daily-2022-07-08.xml`, 'utf8');
const ERA_JSON = readFileSync(`${FIXTURES}/exchangerate-api-v4-latest-CNY-2023-05-30.json`, 'utf8');

describe('source parsers', () => {
  it('ECB cross rates to a USD base match the worked example', () => {
    const r = parseEcb(ECB_XML, 'USD');
    expect(r.EUR).toBeCloseTo(1 / 1.0163, 9);
    expect(r.EUR).toBeCloseTo(0.983961, 6);
    expect(r.GBP).toBeCloseTo(0.832284, 6);
    expect(r.JPY).toBeCloseTo(135.835875, 6);
    expect(r).not.toHaveProperty('USD');
    expect(Object.keys(r)).toHaveLength(31); // 30 others + EUR
  });
  it('ECB with base EUR passes through; a base missing from the feed yields nothing', () => {
    expect(parseEcb(ECB_XML, 'EUR').USD).toBe(1.0163);
    expect(parseEcb(ECB_XML, 'KWD')).toEqual({});
  });
  it('ECB garbage is an error', () => {
    expect(() => parseEcb('<html>nope</html>', 'USD')).toThrow();
    expect(() => parseEcb(ECB_XML.replace(/rate='[^']*'/g, "rate='abc'"), 'USD')).toThrow(/no rates/);
  });
  it("each source's own date: time_last_updated (else date), the ECB Cube time; junk or none → null", () => {
    expect(sourceTime('exchangerate-api', ERA_JSON)).toBe(1685404802);
    expect(sourceTime('exchangerate-api', '{"date":"2024-02-29","rates":{}}')).toBe(
      Date.parse('2024-02-29T00:00:00Z') / 1000,
    );
    expect(sourceTime('exchangerate-api', '{"date":"yesterday","time_last_updated":-5}')).toBeNull();
    expect(sourceTime('exchangerate-api', 'not json')).toBeNull();
    expect(sourceTime('ecb', ECB_XML)).toBe(Date.parse('2022-07-08T00:00:00Z') / 1000);
    expect(sourceTime('ecb', "<Cube time='2022-13-45'>")).toBeNull();
    expect(sourceTime('file', ECB_XML)).toBeNull();
  });

  it('ExchangeRate-API JSON: numbers kept, junk skipped, base dropped', () => {
    const r = parseExchangeRateApi(ERA_JSON, 'CNY');
    expect(r.EUR).toBe(0.132);
    expect(r).not.toHaveProperty('CNY');
    expect(parseExchangeRateApi('{"rates":{"usd":0.029,"EUR":"x","GBP":null,"JPY":-1,"TRY":0}}', 'CNY')).toEqual({
      USD: 0.029,
    });
    expect(parseExchangeRateApi('{"rates":{}}', 'CNY')).toEqual({});
    expect(() => parseExchangeRateApi('{"result":"error"}', 'CNY')).toThrow();
    expect(() => parseExchangeRateApi('<html>', 'CNY')).toThrow();
  });
  it('the bundled snapshot is crossed to any base it quotes', () => {
    const usd = snapshotRates('USD');
    expect(usd.EUR).toBeCloseTo(0.132 / 0.141, 8);
    expect(usd.JPY).toBeGreaterThan(100);
    expect(snapshotRates('XXX')).toEqual({});
  });
});

describe('POST /rates/sync against local servers', () => {
  let t: TestApp;
  let a: Admin;
  let mode: 'ok' | 'garbage' | 'error' | 'slow' = 'ok';
  let era: Awaited<ReturnType<typeof serve>>;
  let ecb: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    era = await serve((req, res) => {
      if (mode === 'slow') return void setTimeout(() => res.end('{}'), 4000);
      if (mode === 'error') return void res.writeHead(500).end('oops');
      if (mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('not json');
      // Real format, re-based on the requested base (the fixture is CNY-based).
      const base = (req.url ?? '').split('/').pop() ?? '';
      const j = JSON.parse(ERA_JSON) as { rates: Record<string, number> };
      const b = j.rates[base];
      if (!b) return void res.writeHead(404).end('{"result":"error"}');
      const rates = Object.fromEntries(Object.entries(j.rates).map(([k, v]) => [k, Number((v / b).toPrecision(6))]));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...j, base, rates }));
    });
    ecb = await serve((_req, res) => {
      if (mode === 'error' || mode === 'garbage') return void res.writeHead(mode === 'error' ? 503 : 200).end('<html>');
      if (mode === 'slow') return void setTimeout(() => res.end(ECB_XML), 4000);
      res.writeHead(200, { 'content-type': 'text/xml' }).end(ECB_XML);
    });
    t = await makeApp({
      env: {
        FX_EXCHANGERATE_API_URL: `${era.url}/v4`,
        FX_ECB_URL: `${ecb.url}/stats/eurofxref/eurofxref-daily.xml`,
        FX_RATE_TIMEOUT_MS: '1500',
      },
    });
    a = await adminOf(t);
  });
  afterAll(async () => {
    await t?.close();
    await era?.close();
    await ecb?.close();
  });

  it('updates auto rows only, rejects a factor-10 jump, writes last_sync after the rows', async () => {
    mode = 'ok';
    await a.post('/currencies', {
      currencies: [
        { code: 'EUR', enabled: true, rate: { type: 'auto', value: 0 } },
        { code: 'GBP', enabled: true, rate: { type: 'manual', value: 0.5 } },
        { code: 'JPY', enabled: true, rate: { type: 'auto', value: 1.4 } },
        { code: 'CHF', enabled: false, rate: { type: 'auto', value: 0.9 } },
      ],
    });
    const before = Math.floor(Date.now() / 1000);
    const r = await a.post('/rates/sync');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.success).toBe(true);
    expect(body.source).toBe('exchangerate-api');
    expect(era.hits.at(-1)).toBe('/v4/latest/USD');
    expect(Object.keys(body.rates).length).toBeGreaterThan(100);
    expect(body.rates.EUR).toBeCloseTo(0.936, 3);
    expect(body.updated).toEqual(['EUR', 'CHF']);
    expect(body.rejected).toEqual([{ code: 'JPY', stored: 1.4, fetched: body.rates.JPY }]);
    const cur = (await a.get('/currencies')).json();
    const by = Object.fromEntries(cur.currencies.map((c: { code: string }) => [c.code, c]));
    expect(by.EUR.rate.value).toBe(body.rates.EUR);
    // the rate is as old as the source says (the fixture's time_last_updated, 2023-05-30), not the day of the sync
    expect(by.EUR.rate.updated_at).toBe(1685404802);
    expect(cur.stale_rates).toContainEqual({ code: 'EUR', rate_date: '2023-05-30' });
    expect(by.GBP.rate).toEqual({ type: 'manual', value: 0.5, updated_at: null });
    expect(by.JPY.rate.value).toBe(1.4);
    expect(cur.last_sync.base).toBe('USD');
    expect(cur.last_sync.time).toBeGreaterThanOrEqual(before);
  });

  it('falls back to the ECB feed in the configured order', async () => {
    mode = 'garbage';
    // ECB also garbage → try 'file'
    await a.post('/settings', { rate_sources: ['exchangerate-api', 'ecb', 'file'] });
    const r = await a.post('/rates/sync');
    expect(r.json().source).toBe('file');
    mode = 'ok';
    await a.post('/settings', { rate_sources: ['ecb', 'exchangerate-api'] });
    const e = await a.post('/rates/sync');
    expect(e.json().source).toBe('ecb');
    expect(e.json().rates.EUR).toBeCloseTo(0.983961, 6);
    const eur = (await a.get('/currencies')).json().currencies.find((c: { code: string }) => c.code === 'EUR');
    expect(eur.rate.updated_at).toBe(Date.parse('2022-07-08T00:00:00Z') / 1000); // the feed's <Cube time='2022-07-08'>
    await a.post('/settings', { rate_sources: ['exchangerate-api', 'ecb'] });
  });

  it('every source failing → 502 with attempts; rates and last_sync unchanged', async () => {
    const before = (await a.get('/currencies')).json();
    for (const m of ['error', 'garbage', 'slow'] as const) {
      mode = m;
      const r = await a.post('/rates/sync');
      expect(r.statusCode, m).toBe(502);
      const body = r.json();
      expect(body.code).toBe('rova_fx_rates_unavailable');
      expect(body.data.status).toBe(502);
      expect(body.data.attempts.map((x: { source: string }) => x.source)).toEqual(['exchangerate-api', 'ecb']);
      if (m === 'error') expect(body.data.attempts[0].error).toBe('HTTP 500');
      if (m === 'slow') expect(body.data.attempts[0].error).toMatch(/timed out after 1500 ms/);
      if (m === 'garbage') expect(body.data.attempts[0].error).toMatch(/not JSON/);
    }
    mode = 'ok';
    expect((await a.get('/currencies')).json()).toEqual(before);
  });

  it('a failing store write answers 500 and leaves rates and last_sync as they were', async () => {
    mode = 'ok';
    await a.post('/currencies', { currencies: [{ code: 'EUR', enabled: true, rate: { type: 'auto', value: 0.5 } }] });
    const before = (await a.get('/currencies')).json();
    const platform = t.platform as { transaction: typeof t.platform.transaction };
    const original = platform.transaction;
    platform.transaction = (() => Promise.reject(new Error('disk full'))) as typeof original;
    try {
      const r = await a.post('/rates/sync');
      expect(r.statusCode).toBe(500);
      expect(r.body).not.toContain('disk full');
    } finally {
      platform.transaction = original;
    }
    expect((await a.get('/currencies')).json()).toEqual(before);
  });

  it('CLI `rova rates sync` syncs through the module command (exit 0), and reports failures (exit 1)', async () => {
    const { fxModule } = await import('../../src/modules/fx/index.js');
    const rates = fxModule.commands!.rates!;
    const c = capturedIo();
    const out = () => c.stdout() + c.stderr();
    const ctx = (args: string[]) => ({
      config: t.config,
      args,
      io: c.io,
      open: async () => ({ ...t, app: { close: async () => undefined } as unknown as TestApp['app'] }),
    });
    try {
      mode = 'ok';
      expect(await rates(ctx(['sync']))).toBe(0);
      expect(out()).toMatch(/rates from exchangerate-api: \d+ quoted/);
      mode = 'error';
      expect(await rates(ctx(['sync']))).toBe(1);
      expect(out()).toMatch(/exchangerate-api: HTTP 500/);
      expect(await rates(ctx(['nope']))).toBe(2);
    } finally {
      mode = 'ok';
    }
  });

  it('the scheduled sync runs through the job runner once the interval is not manual', async () => {
    mode = 'ok';
    await a.post('/currencies', { currencies: [{ code: 'EUR', enabled: true, rate: { type: 'auto', value: 0 } }] });
    const runner = new JobRunner(t.platform.db, t.platform.log, 100);
    try {
      scheduleRateSync(runner, fxRuntime(t.platform));
      await new Promise((r) => setTimeout(r, 1400));
      expect((await a.get('/currencies')).json().currencies[0].rate.value).toBe(0); // manual interval: paused
      await a.post('/settings', { rate_update_interval: 'hourly' });
      const deadline = Date.now() + 5000;
      let value = 0;
      while (Date.now() < deadline && value === 0) {
        await new Promise((r) => setTimeout(r, 100));
        value = (await a.get('/currencies')).json().currencies[0].rate.value;
      }
      expect(value).toBeCloseTo(0.936, 3);
    } finally {
      runner.stop();
      await a.post('/settings', { rate_update_interval: 'manual' });
    }
  });

  it('the scheduled sync runs on one node only: two runners sharing the database fetch once', async () => {
    mode = 'ok';
    await a.post('/currencies', { currencies: [{ code: 'EUR', enabled: true, rate: { type: 'auto', value: 0 } }] });
    await t.platform.db.execute(sql`DELETE FROM rova_options WHERE name = ${'job_last_run:' + SYNC_JOB}`);
    await t.platform.db.execute(sql`DELETE FROM rova_job_leases WHERE name = ${'job:' + SYNC_JOB}`);
    await a.post('/settings', { rate_update_interval: 'hourly' });
    const hitsBefore = era.hits.length;
    const runners = [
      new JobRunner(t.platform.db, t.platform.log, 100),
      new JobRunner(t.platform.db, t.platform.log, 100),
    ];
    try {
      for (const r of runners) scheduleRateSync(r, fxRuntime(t.platform));
      const deadline = Date.now() + 5000;
      let value = 0;
      while (Date.now() < deadline && value === 0) {
        await new Promise((r) => setTimeout(r, 100));
        value = (await a.get('/currencies')).json().currencies[0].rate.value;
      }
      expect(value).toBeCloseTo(0.936, 3);
      await new Promise((r) => setTimeout(r, 800)); // several more ticks of both runners
      expect(era.hits.length - hitsBefore).toBe(1);
    } finally {
      for (const r of runners) r.stop();
      await a.post('/settings', { rate_update_interval: 'manual' });
    }
  });
});
