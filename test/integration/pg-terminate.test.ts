import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { TEST_PG, TEST_REDIS } from '../helpers/app.js';
import { rovaArgs } from '../helpers/rova-process.js';

// Issue 19 item 5: the server closes connections under a real server process (pg_terminate_backend) while requests
// run. The process must live, every request must get an answer (2xx, or 503 with Retry-After), and no write that was
// answered with an error may have been committed.
const ADMIN = `pgterm-admin-${randomBytes(8).toString('hex')}`;
const dbName = `rova_t_term_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-term-'));
let server: ChildProcess;
let log = '';
let base = '';
let exited = false;

async function sql<T extends pg.QueryResultRow>(db: string, text: string, params: unknown[] = []): Promise<T[]> {
  const u = new URL(TEST_PG);
  u.pathname = '/' + db;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  if (!TEST_PG || !TEST_REDIS) throw new Error('needs ROVA_TEST_DATABASE_URL and ROVA_TEST_REDIS_URL (npm run test:integration)');
  const template = inject('postgresTemplate') as string | undefined;
  await sql('postgres', template ? `CREATE DATABASE ${dbName} TEMPLATE ${template}` : `CREATE DATABASE ${dbName}`);
  const u = new URL(TEST_PG);
  u.pathname = '/' + dbName;
  server = spawn(process.execPath, rovaArgs('serve'), {
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, DATA_DIR: dataDir, DATABASE_URL: u.toString(), REDIS_URL: TEST_REDIS, REDIS_PREFIX: `rova-test:${dbName}:`,
      PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN, RENTAL_WRITE_RATE_LIMIT: '1000000', RENTAL_PUBLIC_RATE_LIMIT: '1000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (b: Buffer) => (log += b.toString()));
  server.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  server.on('exit', () => (exited = true));
  const until = Date.now() + 60_000;
  while (!base) {
    const m = /ready at (http:\/\/[^/\s]+)/.exec(log);
    if (m?.[1]) base = m[1];
    else if (exited || Date.now() > until) throw new Error(`the server did not start:\n${log.slice(-3000)}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  await sql('postgres', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  kind: 'read' | 'write';
  marker?: string;
  status: number;
  retryAfter: string | null;
  error?: string;
}

describe('PostgreSQL closes connections under load', () => {
  it('20 × pg_terminate_backend: the process lives, every request is answered 2xx or 503, no write answered with an error was committed', async () => {
    const answers: Answer[] = [];
    let stop = false;
    let n = 0;
    const worker = async (w: number) => {
      // bounded: at most 400 requests per loop, and only while the terminations run
      for (let i = 0; i < 400 && !stop; i++) {
        const write = i % 2 === 1;
        const marker = `term-${w}-${i}-${randomBytes(3).toString('hex')}`;
        try {
          const res = write
            // a write in a transaction: its connection is checked out of the pool while the server may close it
            ? await fetch(`${base}/wp-json/rova-rental/v1/customers`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rova-api-key': ADMIN },
              body: JSON.stringify({ name: marker, email: `${marker}@example.test` }) })
            : await fetch(`${base}/wp-json/rova-rental/v1/locations?city=Izmir&per_page=5`);
          await res.arrayBuffer();
          answers.push({ kind: write ? 'write' : 'read', marker: write ? marker : undefined, status: res.status, retryAfter: res.headers.get('retry-after') });
        } catch (err) {
          answers.push({ kind: write ? 'write' : 'read', marker: write ? marker : undefined, status: 0, retryAfter: null, error: String(err) });
        }
        n += 1;
      }
    };
    const loops = [0, 1, 2, 3].map(worker);
    let killed = 0;
    for (let round = 0; round < 20; round++) {
      await new Promise((r) => setTimeout(r, 150));
      const r = await sql<{ n: number }>('postgres', 'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);
      killed += r[0]?.n ?? 0;
      expect(exited, `the server exited after termination round ${round}:\n${log.slice(-3000)}`).toBe(false);
    }
    stop = true;
    await Promise.all(loops);
    expect(killed).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(40);
    expect(exited, log.slice(-3000)).toBe(false);

    const bad = answers.filter((a) => !(a.status >= 200 && a.status < 300) && !(a.status === 503 && a.retryAfter !== null));
    expect(bad, log.slice(-2000)).toEqual([]);
    const rows = await sql<{ name: string }>(dbName, "SELECT name FROM rental_customers WHERE name LIKE 'term-%'");
    const committed = new Set(rows.map((r) => r.name));
    const writes = answers.filter((a) => a.kind === 'write');
    const answeredOk = writes.filter((a) => a.status === 201).map((a) => a.marker);
    const answeredError = writes.filter((a) => a.status !== 201).map((a) => a.marker);
    expect(answeredOk.filter((m) => !committed.has(m!))).toEqual([]); // every 201 is in the database
    expect(answeredError.filter((m) => committed.has(m!))).toEqual([]); // no error answer for a committed write
    // and afterwards the server answers as before
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  }, 120_000);
});
