import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { expect } from 'vitest';
import { rovaArgs } from './rova-process.js';

/** A `rova serve` child process; `exited` turns true when it ends. */
export interface RovaServer {
  base: string;
  log(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

/** Starts `rova serve` against DATABASE_URL and waits for "ready at". */
export async function startRovaServer(env: Record<string, string>): Promise<RovaServer> {
  let log = '';
  let exited = false;
  const child: ChildProcess = spawn(process.execPath, rovaArgs('serve'), {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  child.on('exit', () => (exited = true));
  const until = Date.now() + 90_000;
  let base = '';
  while (!base) {
    const m = /ready at (http:\/\/[^/\s]+)/.exec(log);
    if (m?.[1]) base = m[1];
    else if (exited || Date.now() > until) throw new Error(`the server did not start:\n${log.slice(-3000)}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    log: () => log,
    exited: () => exited,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 2000));
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** One statement on its own connection (the test's view of the database, outside the server's pool). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

interface Answer {
  kind: 'read' | 'write';
  marker?: string;
  status: number;
  retryAfter: string | null;
  error?: string;
}

/**
 * Reads and writes (customer creates, each with a unique marker) from four loops while `fault` runs; then checks what
 * issue 19 item 5 asks: the process lives, every request is answered 2xx or 503 with Retry-After, every 201 is
 * committed and no write answered with an error is, and the server answers as before afterwards.
 */
export async function underLoad(
  server: RovaServer,
  adminKey: string,
  dbUrl: string,
  fault: () => Promise<void>,
  prefix: string,
): Promise<{ requests: number }> {
  const answers: Answer[] = [];
  let stop = false;
  let n = 0;
  const loop = async (w: number) => {
    for (let i = 0; i < 400 && !stop; i++) {
      const write = i % 2 === 1;
      const marker = `${prefix}-${w}-${i}-${randomBytes(3).toString('hex')}`;
      try {
        const res = write
          ? await fetch(`${server.base}/wp-json/rova-rental/v1/customers`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-rova-api-key': adminKey },
              body: JSON.stringify({ name: marker, email: `${marker}@example.test` }),
            })
          : await fetch(`${server.base}/wp-json/rova-rental/v1/locations?city=Izmir&per_page=5`);
        await res.arrayBuffer();
        answers.push({
          kind: write ? 'write' : 'read',
          marker: write ? marker : undefined,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
        });
      } catch (err) {
        answers.push({
          kind: write ? 'write' : 'read',
          marker: write ? marker : undefined,
          status: 0,
          retryAfter: null,
          error: String(err),
        });
      }
      n += 1;
    }
  };
  const loops = [0, 1, 2, 3].map(loop);
  try {
    await fault();
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  expect(n).toBeGreaterThan(40);
  expect(server.exited(), server.log().slice(-3000)).toBe(false);
  const bad = answers.filter(
    (a) => !(a.status >= 200 && a.status < 300) && !(a.status === 503 && a.retryAfter !== null),
  );
  expect(bad, server.log().slice(-2000)).toEqual([]);
  const rows = await query<{ name: string }>(dbUrl, 'SELECT name FROM rental_customers WHERE name LIKE $1', [
    `${prefix}-%`,
  ]);
  const committed = new Set(rows.map((r) => r.name));
  const writes = answers.filter((a) => a.kind === 'write');
  expect(writes.filter((a) => a.status === 201 && !committed.has(a.marker!)).map((a) => a.marker)).toEqual([]); // every 201 is in the database
  expect(writes.filter((a) => a.status !== 201 && committed.has(a.marker!)).map((a) => a.marker)).toEqual([]); // no error answer for a committed write
  // and afterwards the server answers as before (a restarted database may take a moment to accept connections)
  const until = Date.now() + 30_000;
  let ready = { status: 0, body: '' };
  while (ready.status !== 200 && Date.now() < until) {
    const res = await fetch(`${server.base}/readyz`);
    ready = { status: res.status, body: await res.text() };
    if (ready.status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  const connections = await query<{ n: number }>(dbUrl, 'SELECT count(*)::int AS n FROM pg_stat_activity').catch(
    (err: unknown) => [{ n: String(err) }],
  );
  expect(
    ready.status,
    `readyz ${ready.body}; server connections in use: ${JSON.stringify(connections)}\n${server.log().slice(-2000)}`,
  ).toBe(200);
  expect((await fetch(`${server.base}/wp-json/rova-rental/v1/locations?per_page=1`)).status).toBe(200);
  return { requests: n };
}
