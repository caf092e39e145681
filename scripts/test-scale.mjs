// `npm run test:scale`: Rova as it runs on several machines, on this one — PostgreSQL + Redis + PgBouncer (transaction
// mode) + HAProxy (deploy/haproxy.cfg) + 3 nodes (dist/main.js serve) — under mixed load, with one node SIGKILLed and
// brought back and a rolling restart of every node; then it checks what must hold and prints a table.
// Needs: PostgreSQL and Redis (ROVA_TEST_DATABASE_URL / ROVA_TEST_REDIS_URL, defaults as test:integration), Debian's
// pgbouncer and haproxy, a build (`npm run build`). SCALE_SECONDS (default 60) sets the length of the load.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { freePort, startPgBouncer } from './pgbouncer.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pgUrl = process.env.ROVA_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.ROVA_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.SCALE_SECONDS || 60);
const HAPROXY = '/usr/sbin/haproxy';
const say = (m) => console.log(`scale: ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!existsSync(HAPROXY)) throw new Error('haproxy is not installed: apt-get install haproxy');
if (!existsSync(path.join(root, 'dist/main.js'))) {
  say('building dist/ (npm run build)');
  if (spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
}

const dbName = `rova_scale_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const direct = new URL(pgUrl);
direct.pathname = `/${dbName}`;
const dir = mkdtempSync(path.join(tmpdir(), 'rova-scale-'));
const ADMIN_KEY = `scale-admin-${randomBytes(12).toString('hex')}`;
const common = {
  PATH: process.env.PATH, HOME: dir, DATA_DIR: dir, REDIS_URL: redisUrl, REDIS_PREFIX: `rova-scale:${dbName}:`,
  ROVA_SECRET: randomBytes(32).toString('hex'), TRUST_PROXY: 'loopback', LOG_FORMAT: 'json', LOG_LEVEL: 'warn',
  SHUTDOWN_DRAIN_MS: '2500', SHUTDOWN_TIMEOUT_MS: '15000', ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  RENTAL_PUBLIC_RATE_LIMIT: '100000000', RENTAL_WRITE_RATE_LIMIT: '100000000', FX_RATE_LIMIT: '100000000',
};
const cli = (args, env = {}) => {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/main.js'), ...args], { env: { ...common, DATABASE_URL: direct.toString(), ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`rova ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout.trim();
};

let pooler;
let haproxy;
const receivers = [];
const nodes = [];
const cleanup = async () => {
  for (const n of nodes) n.child?.kill('SIGKILL');
  for (const r of receivers) r.close();
  haproxy?.kill('SIGKILL');
  await pooler?.stop();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
};

try {
  say(`database ${dbName}: migrate and demo data`);
  cli(['migrate']);
  cli(['seed', '--demo']);
  const customers = [];
  for (let i = 0; i < 8; i++) {
    cli(['user', 'create', '--login', `scale-c${i}`, '--email', `scale-c${i}@example.test`, '--role', 'customer', '--password', 'scale test password']);
    customers.push(cli(['apikey', 'create', '--user', `scale-c${i}`, '--name', 'scale', '--scopes', 'read,write']));
  }
  const vehicles = [];
  const c = new pg.Client({ connectionString: direct.toString() });
  await c.connect();
  vehicles.push(...(await c.query("SELECT id::int AS id FROM rental_vehicles WHERE status = 'active' ORDER BY id")).rows.map((r) => r.id));
  await c.end();
  say(`${vehicles.length} bookable vehicles, ${customers.length} customers`);

  pooler = await startPgBouncer(pgUrl);
  const pooled = new URL(pooler.url);
  pooled.pathname = `/${dbName}`;

  const ports = [await freePort(), await freePort(), await freePort()];
  const start = (i) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/main.js'), 'serve'], {
      env: { ...common, DATABASE_URL: pooled.toString(), PORT: String(ports[i]), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', () => undefined);
    nodes[i] = { child, port: ports[i], exited: new Promise((r) => child.once('exit', (code, signal) => r({ code, signal }))) };
  };
  const ready = async (i) => {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${ports[i]}/readyz`).then((r) => r.status === 200, () => false);
      if (ok) return;
      await sleep(200);
    }
  };
  for (let i = 0; i < 3; i++) start(i);
  await Promise.all([0, 1, 2].map(ready));

  const lbPort = await freePort();
  const statsPort = await freePort();
  const cfg = readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8')
    .replace('log stdout format raw local0 info', 'log stdout format raw local0 warning')
    .replace('bind :8080', `bind 127.0.0.1:${lbPort}`)
    .replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${statsPort}`)
    .replace(/127\.0\.0\.1:808([123])/g, (_, n) => `127.0.0.1:${ports[Number(n) - 1]}`);
  writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
  haproxy = spawn(HAPROXY, ['-f', path.join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  const LB = `http://127.0.0.1:${lbPort}`;
  for (;;) {
    if (await fetch(`${LB}/readyz`).then((r) => r.ok, () => false)) break;
    await sleep(200);
  }
  await sleep(2500); // every node marked up (rise 2)

  // a webhook receiver on this machine: every delivery's webhook-id (the event id, the same on every retry)
  const deliveries = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  receivers.push(receiver);
  const adminHeaders = { 'content-type': 'application/json', 'x-rova-api-key': ADMIN_KEY };
  const allow = await fetch(`${LB}/wp-json/rova/v1/webhooks/settings`, { method: 'PUT', headers: adminHeaders, body: JSON.stringify({ allow_private_urls: true }) });
  const hook = await fetch(`${LB}/wp-json/rova/v1/webhooks`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/rova`, events: ['booking.created'] }) });
  if (!allow.ok || !hook.ok) throw new Error(`webhook setup: ${allow.status} ${hook.status} ${await hook.text()}`);
  const clock = new pg.Client({ connectionString: direct.toString() });
  await clock.connect();
  const hookedAt = (await clock.query('SELECT now() AS t')).rows[0].t; // events from here on go to the receiver
  await clock.end();

  // --- load ---------------------------------------------------------------------------------------------------
  const stats = new Map(); // kind → { n, status: Map, errors: Map, ms: [] }
  const record = (kind, status, ms, error) => {
    const s = stats.get(kind) ?? { n: 0, status: new Map(), errors: new Map(), ms: [] };
    stats.set(kind, s);
    s.n += 1;
    s.ms.push(ms);
    if (error) s.errors.set(error, (s.errors.get(error) ?? 0) + 1);
    else s.status.set(status, (s.status.get(status) ?? 0) + 1);
  };
  let phase = 'steady';
  const phaseErrors = new Map();
  const call = async (kind, url, init) => {
    const t0 = performance.now();
    try {
      const r = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
      const body = await r.text();
      record(kind, r.status, performance.now() - t0);
      if (r.status >= 500) phaseErrors.set(phase, (phaseErrors.get(phase) ?? 0) + 1);
      return { status: r.status, body };
    } catch (err) {
      const cause = err?.cause?.code ?? err?.name ?? 'error';
      record(kind, 0, performance.now() - t0, cause);
      phaseErrors.set(phase, (phaseErrors.get(phase) ?? 0) + 1);
      return { status: 0, body: '' };
    }
  };
  const pick = (a) => a[Math.floor(Math.random() * a.length)];
  const day = (offset) => new Date(Date.UTC(2031, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
  /** Idempotency-Key → final answer: 201 with the booking id, 409 (taken), or the error the client gave up on. */
  const bookings = new Map();
  const bookOnce = async () => {
    const key = randomUUID();
    const from = Math.floor(Math.random() * 1400);
    const body = JSON.stringify({ vehicle_id: pick(vehicles), pickup_date: day(from), return_date: day(from + 1 + Math.floor(Math.random() * 4)), payment_method: 'offline', payment_plan: 'deposit' });
    const headers = { 'content-type': 'application/json', 'x-rova-api-key': pick(customers), 'idempotency-key': key };
    let last = { status: 0, body: '' };
    // a client that retries with the same key until it gets an answer (as the README tells integrators to)
    for (let attempt = 0; attempt < 6; attempt++) {
      last = await call('booking create', `${LB}/wp-json/rova-rental/v2/booking/create`, { method: 'POST', headers, body });
      if (last.status === 201 || last.status === 409 || (last.status >= 400 && last.status < 500 && last.status !== 429)) break;
      await sleep(300 * (attempt + 1));
    }
    const id = last.status === 201 ? JSON.parse(last.body).data.booking.id : null;
    bookings.set(key, { status: last.status, id, body: last.status === 201 || last.status === 409 ? null : last.body.slice(0, 300) });
  };
  const availability = () => {
    const from = Math.floor(Math.random() * 1400);
    return call('availability', `${LB}/wp-json/rova-rental/v1/availability`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ vehicle_id: pick(vehicles), pickup_date: day(from), return_date: day(from + 3) }) });
  };
  const search = () => call('locations', `${LB}/wp-json/rova-rental/v1/locations`);
  const until = Date.now() + SECONDS * 1000;
  let faultsDone = false;
  // the load lasts SCALE_SECONDS and at least until the last restarted node is back in rotation
  const worker = async (fn) => {
    while (Date.now() < until || !faultsDone) await fn();
  };
  const load = Promise.all([
    ...Array.from({ length: 6 }, () => worker(bookOnce)),
    ...Array.from({ length: 4 }, () => worker(availability)),
    ...Array.from({ length: 4 }, () => worker(search)),
  ]);

  // --- faults: one node SIGKILLed and brought back, then a rolling restart of every node ----------------------
  const events = [];
  const at = (s) => sleep(Math.max(0, until - SECONDS * 1000 + s * 1000 - Date.now()));
  const chaos = (async () => {
    await at(SECONDS * 0.2);
    phase = 'kill';
    nodes[1].child.kill('SIGKILL');
    events.push(`${((Date.now() - (until - SECONDS * 1000)) / 1000).toFixed(0)} s: node 2 SIGKILLed`);
    await nodes[1].exited;
    await sleep(3000);
    start(1);
    await ready(1);
    await sleep(2500);
    events.push(`${((Date.now() - (until - SECONDS * 1000)) / 1000).toFixed(0)} s: node 2 back`);
    phase = 'steady';
    await at(SECONDS * 0.45);
    phase = 'rolling restart';
    for (const i of [0, 1, 2]) {
      nodes[i].child.kill('SIGTERM');
      const exit = await nodes[i].exited;
      events.push(`${((Date.now() - (until - SECONDS * 1000)) / 1000).toFixed(0)} s: node ${i + 1} stopped (exit ${exit.code})`);
      start(i);
      await ready(i);
      await sleep(2500);
    }
    events.push(`${((Date.now() - (until - SECONDS * 1000)) / 1000).toFixed(0)} s: rolling restart done`);
    phase = 'after';
    faultsDone = true;
  })();
  await Promise.all([load, chaos]);

  // --- what must hold -----------------------------------------------------------------------------------------
  const failures = [];
  const check = new pg.Client({ connectionString: direct.toString() });
  await check.connect();
  const created = [...bookings.values()].filter((b) => b.status === 201);
  const ids = created.map((b) => b.id);
  const found = new Set((await check.query('SELECT id::int AS id FROM rental_bookings WHERE id = ANY($1::int[])', [ids])).rows.map((r) => r.id));
  const lost = ids.filter((id) => !found.has(id));
  if (lost.length) failures.push(`${lost.length} bookings answered 201 are missing: ${lost.slice(0, 10).join(', ')}`);
  const gaveUp = [...bookings.entries()].filter(([, b]) => b.status === 0 || b.status >= 500);
  const refused = [...bookings.values()].filter((b) => b.status !== 201 && b.status !== 409 && b.status > 0 && b.status < 500);
  if (refused.length) failures.push(`${refused.length} booking requests refused (${[...new Set(refused.map((b) => b.status))].join(', ')}): ${refused[0].body}`);
  if (created.length === 0) failures.push('no booking was created');
  // a key the client gave up on (an error after every retry) must not have booked anything
  const committedWithError = gaveUp.length
    ? (await check.query("SELECT key FROM rova_idempotent_requests WHERE key = ANY($1::text[]) AND (status = 'committed' OR response_status = 201)", [gaveUp.map(([k]) => k)])).rows
    : [];
  if (committedWithError.length) failures.push(`${committedWithError.length} bookings committed but answered with an error`);
  const doubles = (await check.query(`SELECT count(*)::int AS n FROM rental_bookings a JOIN rental_bookings b ON a.vehicle_id = b.vehicle_id AND a.id < b.id
      AND a.holds_slot AND b.holds_slot AND a.pickup_at < b.return_at AND b.pickup_at < a.return_at`)).rows[0].n;
  if (doubles) failures.push(`${doubles} pairs of bookings overlap on one vehicle`);
  // every booking.created event reaches the receiver at least once (deliveries go on after the load: wait for them)
  const createdEvents = async () => (await check.query("SELECT event_id AS id FROM rova_events WHERE type = 'booking.created' AND created_at > $1", [hookedAt])).rows.map((r) => r.id);
  let expected = await createdEvents();
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !expected.every((id) => deliveries.includes(id))) {
    await sleep(1000);
    expected = await createdEvents();
  }
  const distinct = new Set(deliveries);
  const undelivered = expected.filter((id) => !distinct.has(id));
  if (undelivered.length) failures.push(`${undelivered.length} of ${expected.length} booking.created events not delivered within 90 s`);
  if (expected.length < created.length) failures.push(`${created.length} bookings created but ${expected.length} booking.created events`);
  const webhookLine = `webhooks: ${expected.length} booking.created events, ${deliveries.length} deliveries, ${distinct.size} distinct webhook-id (${deliveries.length - distinct.size} repeats)`;
  await check.end();
  const verify = spawnSync(process.execPath, [path.join(root, 'dist/main.js'), 'verify'], { env: { ...common, DATABASE_URL: direct.toString() }, encoding: 'utf8' });
  if (verify.status !== 0) failures.push(`rova verify: exit ${verify.status}: ${verify.stdout}${verify.stderr}`);
  const rollingErrors = phaseErrors.get('rolling restart') ?? 0;
  if (rollingErrors) failures.push(`${rollingErrors} errors at the load balancer during the rolling restart`);

  // per-node share from HAProxy's statistics (requests each server answered)
  const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then((r) => r.text(), () => '');
  const share = csv.split('\n').filter((l) => l.startsWith('rova_nodes,node')).map((l) => { const f = l.split(','); return `${f[1]} ${f[7]}`; });

  // --- table --------------------------------------------------------------------------------------------------
  const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0; };
  console.log(`\n${SECONDS} s, PostgreSQL + Redis + PgBouncer (transaction) + HAProxy + 3 nodes; ${events.join('; ')}`);
  console.log('| requests | n | answers | errors (cause) | p50 ms | p99 ms |');
  console.log('|---|---:|---|---|---:|---:|');
  for (const [kind, s] of stats) {
    const answers = [...s.status].sort().map(([k, v]) => `${v} × ${k}`).join(', ');
    const errors = [...s.errors].map(([k, v]) => `${v} × ${k}`).join(', ') || '0';
    console.log(`| ${kind} | ${s.n} | ${answers} | ${errors} | ${q(s.ms, 0.5).toFixed(0)} | ${q(s.ms, 0.99).toFixed(0)} |`);
  }
  console.log(`\nbookings: ${created.length} created (${bookings.size} keys; ${gaveUp.length} given up after retries); errors by phase: ${[...phaseErrors].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  console.log(webhookLine);
  console.log(`per node (HAProxy sessions): ${share.join(', ')}`);
  if (failures.length) {
    console.error(`\nscale: FAILED\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nscale: 0 double bookings, every 201 booking exists, no write committed and answered with an error, every booking.created delivered, rova verify clean, 0 errors in the rolling restart');
  }
} finally {
  await cleanup();
}
