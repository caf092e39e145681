import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { createDatabase } from '../helpers/pg-admin.js';
import { rovaArgs } from '../helpers/rova-process.js';
import { start, type Running } from '../ops/spawn.js';

// A rolling upgrade, one release step: the newest released version's own code (from the commit its upgrade fixture
// names) and this code serve the same PostgreSQL database, migrated to this version, side by side — what happens
// while a load balancer moves traffic from old nodes to new ones. Each writes; the other reads and changes it.

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/upgrade');
const release = readdirSync(FIXTURES).sort().at(-1)!;
const { ref, version } = JSON.parse(readFileSync(path.join(FIXTURES, release, 'expected.json'), 'utf8')) as {
  ref: string;
  version: string;
};
const KEY = 'rolling-upgrade-admin-key-0123456789';
const SECRET = 'r'.repeat(64);

// The release's code is read from this repository's history; a shallow clone does not have it.
const haveRelease = (() => {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${ref}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(`rolling upgrade: commit ${ref} (Rova ${version}) is not in this clone's history; not run`);
    return false;
  }
})();

let work: string;
let tree: string;
let drop: (() => Promise<void>) | undefined;
let env: Record<string, string>;
const nodes: Running[] = [];
let oldBase: string;
let newBase: string;

beforeAll(async () => {
  if (!haveRelease) return;
  work = mkdtempSync(path.join(tmpdir(), 'rova-rolling-'));
  tree = path.join(work, 'release');
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', tree, ref], { stdio: 'ignore' });
  // The release's dependencies are this checkout's when its lock file asks for the same packages.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  const db = await createDatabase(TEST_PG, `rova_rolling_${randomBytes(5).toString('hex')}`);
  drop = db.drop;
  env = {
    DATABASE_URL: db.url,
    ROVA_SECRET: SECRET,
    ROVA_BOOTSTRAP_ADMIN_KEY: KEY,
    ROVA_DEMO: '1',
    STORE_CURRENCY: 'USD',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    RENTAL_WRITE_RATE_LIMIT: '100000',
  };
  // the new version first: it migrates the database (expand); the old one then starts on the new schema
  const fresh = start(process.execPath, rovaArgs('serve'), { ...env, DATA_DIR: path.join(work, 'new'), HOME: work });
  nodes.push(fresh);
  newBase = await fresh.ready;
  const old = start(process.execPath, [path.join(tree, 'scripts/rova.mjs'), 'serve'], {
    ...env,
    DATA_DIR: path.join(work, 'old'),
    HOME: work,
  });
  nodes.push(old);
  oldBase = await old.ready;
}, 300_000);

afterAll(async () => {
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => n.exited));
  await drop?.();
  if (tree && existsSync(tree)) execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', tree]);
  if (work) rmSync(work, { recursive: true, force: true });
});

const api = async (base: string, method: string, route: string, body?: unknown) => {
  const r = await fetch(`${base}/wp-json/rova-rental/v1${route}`, {
    method,
    headers: { 'x-rova-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as { data: Record<string, unknown> } };
};

describe.runIf(haveRelease)(`rolling upgrade from Rova ${version}`, () => {
  it('old and new nodes on the new schema: each books, the other reads, changes and cancels it; verify stays clean', async () => {
    const oldHealth = await fetch(`${oldBase}/readyz`);
    expect(oldHealth.status).toBe(200); // the old code accepts a schema with migrations it does not know
    const pairs: [string, string, string][] = [
      ['old', oldBase, newBase],
      ['new', newBase, oldBase],
    ];
    for (const [i, [who, writer, other]] of pairs.entries()) {
      const booked = await api(writer, 'POST', '/bookings', {
        vehicle_id: 1,
        customer: { name: `Rolling ${who}`, email: `rolling-${who}@example.test` },
        pickup_date: `2032-0${i + 3}-01`,
        return_date: `2032-0${i + 3}-04`,
      });
      expect(booked.status).toBe(201);
      const id = booked.body.data.id as number;
      const seen = await api(other, 'GET', `/bookings/${id}`);
      expect(seen.status).toBe(200);
      // the slot is taken for both
      const clash = await api(other, 'POST', '/bookings', {
        vehicle_id: 1,
        customer: { name: `Clash ${who}`, email: `clash-${who}@example.test` },
        pickup_date: `2032-0${i + 3}-02`,
        return_date: `2032-0${i + 3}-03`,
      });
      expect(clash.status).toBe(409);
      const moved = await api(other, 'PUT', `/bookings/${id}`, {
        pickup_date: `2032-0${i + 3}-05`,
        return_date: `2032-0${i + 3}-07`,
      });
      expect(moved.status).toBe(200);
      const cancelled = await api(writer, 'POST', `/bookings/${id}/status`, { status: 'cancelled' });
      expect(cancelled.status).toBe(200);
      expect(JSON.stringify((await api(other, 'GET', `/bookings/${id}`)).body.data)).toContain('"status":"cancelled"');
    }
    const verify = await rovaInProcess(['verify'], { ...env, DATA_DIR: work });
    expect(verify.stdout).toMatch(/^verify ok: /m);
    expect(verify.code).toBe(0);
  }, 300_000);
});
