import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { migratedDataDir, rovaArgs } from '../helpers/rova-process.js';
import { start } from './spawn.js';
import { rmSync } from 'node:fs';

// Issue 20: one log line per request at info (method, route, status, duration, request id), details at debug; the
// probes stay quiet. A real server process with JSON logs, as production runs it.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  path?: string;
  status?: number;
  duration_ms?: number;
  req?: { url: string };
}

async function serverWith(level: string) {
  const d = migratedDataDir('rova-reqlog-');
  dirs.push(d);
  const run = start(process.execPath, rovaArgs('serve'), {
    DATA_DIR: d,
    HOME: d,
    PORT: '0',
    LOG_FORMAT: 'json',
    LOG_LEVEL: level,
    ROVA_JOBS: '0',
  });
  const base = await run.ready;
  const lines = () =>
    run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
  return { run, base, lines };
}

describe.skipIf(!!TEST_PG)('request log', () => {
  it('info: exactly one line per request with method, route pattern, status, duration and request id; probes and credentials stay out', async () => {
    const { run, base, lines } = await serverWith('info');
    try {
      await (await fetch(`${base}/wp-json/wc/v3/products?per_page=2&consumer_key=ck_SECRETSECRET`)).arrayBuffer();
      await (
        await fetch(`${base}/wp-json/wc/v3/products/12345`, { headers: { 'x-request-id': 'trace-abcdef-123' } })
      ).arrayBuffer();
      await (await fetch(`${base}/wp-json/nowhere?token=SECRETSECRET`)).arrayBuffer();
      await (await fetch(`${base}/readyz`)).arrayBuffer();
      await (await fetch(`${base}/livez`)).arrayBuffer();
      const until = Date.now() + 5_000;
      const requestLines = () => lines().filter((l) => /^(GET|POST|PUT|DELETE) /.test(l.msg));
      while (requestLines().length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      const got = requestLines();
      expect(got.map((l) => [l.method, l.route, l.status])).toEqual([
        ['GET', '/wp-json/wc/v3/products', 401],
        ['GET', '/wp-json/wc/v3/products/:id', 401],
        ['GET', null, 404],
      ]);
      expect(got[2]).toMatchObject({
        path: '/wp-json/nowhere',
        msg: `GET /wp-json/nowhere 404 ${got[2]!.duration_ms} ms`,
      });
      for (const l of got) {
        expect(l.level).toBe(30);
        expect(l.reqId).toBeTruthy();
        expect(l.duration_ms).toBeGreaterThanOrEqual(0);
        if (l.route) expect(l.msg).toBe(`${l.method} ${l.route} ${l.status} ${l.duration_ms} ms`);
      }
      expect(got[1]!.reqId).toBe('trace-abcdef-123');
      expect(run.output()).not.toMatch(/incoming request|request completed|request details/);
      expect(run.output()).not.toContain('SECRETSECRET');
      expect(run.output()).not.toContain('Deprecation'); // the logger is set up the supported way
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 120_000);

  it('debug: the details (redacted URL) as a second line of the same request id', async () => {
    const { run, base, lines } = await serverWith('debug');
    try {
      await (
        await fetch(`${base}/wp-json/wc/v3/products?consumer_key=ck_SECRETSECRET`, {
          headers: { 'x-request-id': 'trace-debug-000001' },
        })
      ).arrayBuffer();
      const until = Date.now() + 5_000;
      while (!lines().some((l) => l.reqId === 'trace-debug-000001' && /^GET /.test(l.msg)) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      const mine = lines().filter((l) => l.reqId === 'trace-debug-000001');
      expect(mine.map((l) => l.msg)).toEqual([
        'request details',
        'GET /wp-json/wc/v3/products 401 ' + mine[1]!.duration_ms + ' ms',
      ]);
      expect(mine[0]!.req!.url).toBe('/wp-json/wc/v3/products?consumer_key=[REDACTED]');
      expect(run.output()).not.toContain('SECRETSECRET');
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 120_000);
});
