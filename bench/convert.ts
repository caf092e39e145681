/**
 * POST /rova-fx/v1/convert with 50 ids (simple, on-sale, variable products and variations of the demo
 * catalogue), rotating EUR / GBP / JPY / TRY, vs a bare route answering the same-size JSON.
 * The limiter stays ON with a huge limit, so its cost (one counter hit per request) is measured.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScenario, type BenchRequest } from './lib/harness.js';

interface WireProduct {
  id: number;
  type: string;
  status: string;
  password?: string;
  price: string;
  on_sale: boolean;
  variations?: number[];
}

await runScenario(
  {
    name: process.env.BENCH_DATABASE_URL ? 'convert-postgres' : 'convert-pglite',
    connections: 50,
    duration: 10,
    targets: { minRatio: 0.9, maxP99Ms: 20 },
    async setup() {
      // Imported here so the bare-route child does not load the application.
      const { buildApp, seedDemo } = await import('../src/app.js');
      const { loadConfig } = await import('../src/config.js');
      // PGlite with its data on disk, as a node runs it: in memory (tests' way) its files would sit in the heap
      const dataDir = process.env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(tmpdir(), 'rova-bench-'));
      const config = loadConfig(
        {
          LOG_LEVEL: 'silent',
          STORE_CURRENCY: 'USD',
          STORE_TIMEZONE: 'UTC',
          FX_CONVERT_RATE_LIMIT: '1000000000',
          ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
          ...(dataDir ? { DATA_DIR: dataDir, ROVA_SECRET: randomBytes(32).toString('hex'), ROVA_JOBS: 'false' } : {}),
        },
        { ephemeral: !dataDir },
      );
      const { app, platform } = await buildApp(config, { logger: false });
      await seedDemo(platform);
      const admin = await platform.auth.createUser({
        login: 'bench',
        email: 'bench@example.test',
        role: 'administrator',
        password: 'correct horse battery',
      });
      const { key } = await platform.auth.createApiKey({ userId: admin.id, scopes: ['read', 'write'], name: 'bench' });
      const headers = { 'x-rova-api-key': key };
      const list = (
        await app.inject({ method: 'GET', url: '/wp-json/wc/v3/products?per_page=100', headers })
      ).json() as WireProduct[];
      const pub = list.filter((p) => p.status === 'publish' && !p.password && p.price !== '');
      const simple = pub.filter((p) => p.type === 'simple' && !p.on_sale).map((p) => p.id);
      const sale = pub.filter((p) => p.type === 'simple' && p.on_sale).map((p) => p.id);
      const variable = pub.filter((p) => p.type === 'variable');
      const variations = variable.flatMap((p) => p.variations ?? []);
      // Top the catalogue up so 50 distinct public ids exist (a third each: simple, on sale, variable + variations).
      let n = 0;
      while (simple.length + sale.length + variable.length + variations.length < 50) {
        n += 1;
        const kind = n % 3;
        if (kind === 0) {
          simple.push(
            (
              await app.inject({
                method: 'POST',
                url: '/wp-json/wc/v3/products',
                headers,
                payload: { name: `Bench simple ${n}`, regular_price: `${10 + n}.50` },
              })
            ).json().id,
          );
        } else if (kind === 1) {
          sale.push(
            (
              await app.inject({
                method: 'POST',
                url: '/wp-json/wc/v3/products',
                headers,
                payload: { name: `Bench sale ${n}`, regular_price: `${40 + n}`, sale_price: `${30 + n}.99` },
              })
            ).json().id,
          );
        } else {
          const v = (
            await app.inject({
              method: 'POST',
              url: '/wp-json/wc/v3/products',
              headers,
              payload: { name: `Bench variable ${n}`, type: 'variable' },
            })
          ).json();
          for (const price of ['12.00', '18.00', '24.00']) {
            variations.push(
              (
                await app.inject({
                  method: 'POST',
                  url: `/wp-json/wc/v3/products/${v.id}/variations`,
                  headers,
                  payload: { regular_price: price },
                })
              ).json().id,
            );
          }
          variable.push(v);
        }
      }
      const ids: number[] = [];
      const pools = [simple, sale, variable.map((v) => v.id), variations];
      for (let i = 0; ids.length < 50; i++) {
        const pool = pools[i % pools.length]!;
        const next = pool.find((x) => !ids.includes(x));
        if (next !== undefined) ids.push(next);
        if (i > 1000) break;
      }
      const requests: BenchRequest[] = ['EUR', 'GBP', 'JPY', 'TRY'].map((currency) => ({
        method: 'POST',
        path: '/wp-json/rova-fx/v1/convert',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ currency, product_ids: ids }),
      }));
      const close = async () => {
        await app.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      };
      return { app, requests, close };
    },
  },
  import.meta.url,
);
