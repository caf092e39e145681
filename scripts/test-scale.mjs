// `npm run test:scale`: Rova as it runs on several machines, on this one — PostgreSQL + Redis + PgBouncer (transaction
// mode) + HAProxy (deploy/haproxy.cfg) + 3 nodes (dist/main.js serve) — under mixed load, with one node SIGKILLed and
// brought back and a rolling restart of every node; then it checks what must hold and prints a table. The load:
// bookings (Idempotency-Key, retries), availability, locations, vendor payouts (Idempotency-Key, retries) with an
// administrator and a payment processor settling them, and bursts against API keys with a quota plan; webhook
// deliveries go to a local receiver. The checks: see the end of this file (and docs/operators/several-nodes.md,
// "The scale test").
// Needs: PostgreSQL and Redis (ROVA_TEST_DATABASE_URL / ROVA_TEST_REDIS_URL, defaults as test:integration), Debian's
// pgbouncer and haproxy, a build (`npm run build`). SCALE_SECONDS (default 60) sets the length of the load.
// Every wait is bounded: a node not ready within SCALE_READY_TIMEOUT_S (default 120) after a start, or one that exits
// on its own, fails the run at once with the last lines of its stderr and stdout; the whole run is stopped after
// SCALE_SECONDS + 15 minutes whatever happens. SCALE_BREAK_RESTART=1 starts the SIGKILLed node again with a Redis
// that refuses connections (it cannot start): the run must fail quickly with its stderr (test/integration/scale-bounded.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { freePort, startPgBouncer } from './pgbouncer.mjs';
import { freeServerPort } from './ports.mjs';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pgUrl = process.env.ROVA_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.ROVA_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.SCALE_SECONDS || 60);
const HAPROXY = '/usr/sbin/haproxy';
const JOB_TICK_MS = 20_000;
/** Requests per minute of the quota plan each burst exhausts, and how many requests a burst sends. */
const QUOTA = 100;
const BURST = 150;
const READY_TIMEOUT_MS = Number(process.env.SCALE_READY_TIMEOUT_S || 120) * 1000;
const BREAK_RESTART = process.env.SCALE_BREAK_RESTART === '1';
/** How long a node may take to exit after SIGTERM: the drain, the shutdown timeout, and some slack. */
const EXIT_TIMEOUT_MS = 5_000 + 15_000 + 10_000;
const began = Date.now();
const say = (m) => console.log(`scale: ${((Date.now() - began) / 1000).toFixed(0)} s: ${m}`);
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
  PATH: process.env.PATH,
  HOME: dir,
  DATA_DIR: dir,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: `rova-scale:${dbName}:`,
  ROVA_SECRET: randomBytes(32).toString('hex'),
  TRUST_PROXY: 'loopback',
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'warn',
  SHUTDOWN_DRAIN_MS: '5000',
  SHUTDOWN_TIMEOUT_MS: '15000',
  ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  RENTAL_PUBLIC_RATE_LIMIT: '100000000',
  RENTAL_WRITE_RATE_LIMIT: '100000000',
  FX_RATE_LIMIT: '100000000',
  // jobs look every 20 s (default 30): leases of 80 s, longer than the minute job's period, so the SIGKILLed lease
  // holder's lease is what holds its jobs off the other nodes — and the run that follows lands inside the test
  ROVA_JOB_TICK_MS: String(JOB_TICK_MS),
};
const cli = (args, env = {}) => {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/main.js'), ...args], {
    env: { ...common, DATABASE_URL: direct.toString(), ...env },
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`rova ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout.trim();
};

let pooler;
let haproxy;
/** Set once HAProxy runs: its log lines for requests that ended abnormally. */
let abnormalAtLb = () => [];
/** An httplog line's termination state (`----`, `SH--`, …: the 4 letters before actconn/feconn/…), else null. */
const terminationState = (line) => / ([A-Za-z-]{4}) -?\d+\/-?\d+\/-?\d+\/-?\d+\/-?\d+ /.exec(line)?.[1] ?? null;
let db;
const receivers = [];
const nodes = [];
/** The last lines a node wrote, for the report when it exits or does not become ready. */
const TAIL_LINES = 30;
const keepTail = (lines) => {
  let partial = '';
  return (chunk) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l.trim()));
    if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
  };
};
const tailOf = (n) =>
  `  last lines of its stderr:\n${n.life.stderr.map((l) => `    ${l}`).join('\n') || '    (nothing)'}` +
  `\n  last lines of its stdout (log):\n${
    n.life.stdout
      .slice(-10)
      .map((l) => `    ${l.slice(0, 400)}`)
      .join('\n') || '    (nothing)'
  }`;
/** Nodes that exited without being told to: each fails the run with its report. */
const unexpectedExits = [];
// the bound on the whole run: whatever hangs, the run ends, says where it was and fails
const watchdog = setTimeout(
  () => {
    console.error(
      `\nscale: FAILED\n- the run did not finish within ${SECONDS} s + 15 min; nodes:\n${nodes.map((n, i) => `node ${i + 1}: ${n?.life.end}\n${n ? tailOf(n) : ''}`).join('\n')}`,
    );
    for (const n of nodes) n?.child?.kill('SIGKILL');
    haproxy?.kill('SIGKILL');
    process.exit(1);
  },
  (SECONDS + 900) * 1000,
);
watchdog.unref();
const cleanup = async () => {
  for (const n of nodes) {
    if (!n) continue;
    n.life.told = true;
    n.child.kill('SIGKILL');
  }
  for (const r of receivers) r.close();
  haproxy?.kill('SIGKILL');
  await db?.end().catch(() => undefined);
  await pooler?.stop();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  // SCALE_HAPROXY_LOG=<file>: keep HAProxy's request log (every request with its node, timings and termination state)
  if (process.env.SCALE_HAPROXY_LOG && existsSync(path.join(dir, 'haproxy.log')))
    writeFileSync(process.env.SCALE_HAPROXY_LOG, readFileSync(path.join(dir, 'haproxy.log')));
  rmSync(dir, { recursive: true, force: true });
};

try {
  say(`database ${dbName}: migrate and demo data`);
  cli(['migrate']);
  cli(['seed', '--demo']);
  const vehicles = [];
  const c = new pg.Client({ connectionString: direct.toString() });
  await c.connect();
  vehicles.push(
    ...(await c.query("SELECT id::int AS id FROM rental_vehicles WHERE status = 'active' ORDER BY id")).rows.map(
      (r) => r.id,
    ),
  );
  // the active demo vendors (money available from a year of completed bookings), each with an API key
  const vendors = (
    await c.query(
      "SELECT u.id::int AS id, u.login FROM rental_vendors v JOIN rova_users u ON u.id = v.user_id WHERE v.status = 'active' ORDER BY u.id",
    )
  ).rows;
  await c.end();

  pooler = await startPgBouncer(pgUrl);
  const pooled = new URL(pooler.url);
  pooled.pathname = `/${dbName}`;

  // below the ephemeral range: a node's port freed by a kill or a restart cannot be taken meanwhile as the local port
  // of one of the thousands of outgoing connections the load makes (the restarted node then exited with EADDRINUSE,
  // and this test, which discarded its stderr, waited for it forever)
  const ports = [await freeServerPort(), await freeServerPort(), await freeServerPort()];
  /** Every process a node ran as: pid → { node (1-3), how it ended }; job runs name the process (host:pid). */
  const incarnations = new Map();
  const start = (i, env = {}) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'dist/main.js'), 'serve'], {
      env: {
        ...SERVER_ENV,
        ...common,
        DATABASE_URL: pooled.toString(),
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const life = { node: i + 1, end: 'running', told: false, stderr: [], stdout: [] };
    child.stderr.on('data', keepTail(life.stderr));
    child.stdout.on('data', keepTail(life.stdout));
    incarnations.set(child.pid, life);
    const n = { child, life, port: ports[i] };
    n.exited = new Promise((r) =>
      child.once('exit', (code, signal) => {
        life.end = signal ?? `exit ${code}`;
        if (!life.told)
          unexpectedExits.push(`node ${i + 1} (pid ${child.pid}) exited on its own (${life.end})\n${tailOf(n)}`);
        r({ code, signal });
      }),
    );
    nodes[i] = n;
  };
  /** Stops node i with the signal and waits (bounded) until it is gone. */
  const stopNode = async (i, signal) => {
    const n = nodes[i];
    n.life.told = true;
    n.child.kill(signal);
    const exit = await Promise.race([n.exited, sleep(EXIT_TIMEOUT_MS).then(() => null)]);
    if (exit) return exit;
    n.child.kill('SIGKILL');
    throw new Error(`node ${i + 1} did not exit within ${EXIT_TIMEOUT_MS / 1000} s of ${signal}\n${tailOf(n)}`);
  };
  /** Resolves once node i answers /readyz 200; throws (with its stderr) when it exits first or takes too long. */
  const ready = async (i) => {
    const n = nodes[i];
    const t0 = Date.now();
    for (;;) {
      if (n.life.end !== 'running')
        throw new Error(`node ${i + 1} exited (${n.life.end}) before it was ready\n${tailOf(n)}`);
      if (Date.now() - t0 > READY_TIMEOUT_MS) {
        n.life.told = true;
        n.child.kill('SIGKILL');
        throw new Error(`node ${i + 1} not ready within ${READY_TIMEOUT_MS / 1000} s of its start\n${tailOf(n)}`);
      }
      const ok = await fetch(`http://127.0.0.1:${ports[i]}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      await sleep(200);
    }
  };
  // node 2 first, alone until it holds the job leases: the node SIGKILLed later is then the one holding them
  db = new pg.Client({ connectionString: direct.toString() });
  await db.connect();
  start(1);
  for (let t = Date.now(); Date.now() - t < 30_000; await sleep(250)) {
    if ((await db.query('SELECT count(*)::int AS n FROM rova_job_runs')).rows[0].n >= 3) break;
  }
  start(0);
  start(2);
  await Promise.all([0, 1, 2].map(ready));
  say('3 nodes ready (node 2 first: it holds the job leases)');

  const lbPort = await freePort();
  const statsPort = await freePort();
  const cfg = readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8')
    .replace('bind :8080', `bind 127.0.0.1:${lbPort}`)
    .replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${statsPort}`)
    .replace(/127\.0\.0\.1:808([123])/g, (_, n) => `127.0.0.1:${ports[Number(n) - 1]}`)
    // which node answered, for the per-node shares of each kind of request
    .replace('balance leastconn', 'balance leastconn\n    http-response set-header X-Served-By %s');
  writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
  // every request HAProxy passed, with its termination state: what a failed run's lost requests looked like there
  const haproxyLog = path.join(dir, 'haproxy.log');
  const logFd = openSync(haproxyLog, 'w');
  haproxy = spawn(HAPROXY, ['-f', path.join(dir, 'haproxy.cfg')], { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  /** HAProxy's log lines for requests that did not end normally (termination state other than ----). */
  abnormalAtLb = () =>
    readFileSync(haproxyLog, 'utf8')
      .split('\n')
      .filter((l) => (terminationState(l) ?? '----') !== '----');
  const LB = `http://127.0.0.1:${lbPort}`;
  for (
    const t = Date.now();
    !(await fetch(`${LB}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    ));
    await sleep(200)
  ) {
    if (Date.now() - t > 30_000) throw new Error('HAProxy did not answer /readyz within 30 s');
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
  const allow = await fetch(`${LB}/wp-json/rova/v1/webhooks/settings`, {
    method: 'PUT',
    signal: AbortSignal.timeout(30_000),
    headers: adminHeaders,
    body: JSON.stringify({ allow_private_urls: true }),
  });
  const hook = await fetch(`${LB}/wp-json/rova/v1/webhooks`, {
    method: 'POST',
    signal: AbortSignal.timeout(30_000),
    headers: adminHeaders,
    body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/rova`, events: ['booking.created'] }),
  });
  if (!allow.ok || !hook.ok) throw new Error(`webhook setup: ${allow.status} ${hook.status} ${await hook.text()}`);
  // 8 customers and the vendors, each with an API key (through the load balancer: quicker than 18 CLI runs)
  const setup = async (url, body) => {
    const r = await fetch(`${LB}/wp-json/rova/v1/${url}`, {
      method: 'POST',
      signal: AbortSignal.timeout(30_000),
      headers: adminHeaders,
      body: JSON.stringify(body),
    });
    if (r.status !== 201) throw new Error(`POST ${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const customers = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const u = await setup('users', {
        login: `scale-c${i}`,
        email: `scale-c${i}@example.test`,
        role: 'customer',
        password: 'scale test password',
      });
      return (await setup('api-keys', { user_id: u.id, name: 'scale', scopes: ['read', 'write'] })).key;
    }),
  );
  for (const v of vendors)
    v.key = (await setup('api-keys', { user: v.login, name: 'scale', scopes: ['read', 'write'] })).key;
  // a customer whose client sends its writes without an Idempotency-Key (bookings and messages, once each)
  const noKeyUser = await setup('users', {
    login: 'scale-nokey',
    email: 'scale-nokey@example.test',
    role: 'customer',
    password: 'scale test password',
  });
  const noKey = (await setup('api-keys', { user_id: noKeyUser.id, name: 'scale', scopes: ['read', 'write'] })).key;
  // the demo store asks for its rental terms (issue 36.4): the customers' clients accept the version it publishes, as
  // the booking widget does once its box is ticked (without, every booking would be refused 400 terms_not_accepted)
  const rules = await fetch(`${LB}/wp-json/rova-rental/v2/booking/driver-rules`, {
    signal: AbortSignal.timeout(30_000),
  });
  if (rules.status !== 200) throw new Error(`driver rules: ${rules.status} ${await rules.text()}`);
  const { terms } = (await rules.json()).data;
  const accepted = terms ? { terms_accepted: true, terms_version: terms.version } : {};
  say(
    `${vehicles.length} bookable vehicles, ${customers.length} customers, ${vendors.length} vendors; load for ${SECONDS} s`,
  );
  const hookedAt = (await db.query('SELECT now() AS t')).rows[0].t; // events from here on go to the receiver
  // the payment processor that settles approved payouts: signed callbacks (Standard Webhooks) with a secret of its own
  const secret = await fetch(`${LB}/wp-json/rova-rental/v2/payouts/webhook-secret`, {
    method: 'POST',
    signal: AbortSignal.timeout(30_000),
    headers: adminHeaders,
  });
  if (secret.status !== 201) throw new Error(`payout webhook secret: ${secret.status} ${await secret.text()}`);
  const processor = new Webhook((await secret.json()).data.secret);
  const ledgerFrom = (await db.query('SELECT coalesce(max(id), 0)::int AS id FROM ledger_entries')).rows[0].id;

  // --- load ---------------------------------------------------------------------------------------------------
  const stats = new Map(); // kind → { n, status: Map, errors: Map, ms: [], nodes: Map }
  const record = (kind, status, ms, error, node) => {
    const s = stats.get(kind) ?? { n: 0, status: new Map(), errors: new Map(), ms: [], nodes: new Map() };
    stats.set(kind, s);
    s.n += 1;
    s.ms.push(ms);
    if (error) s.errors.set(error, (s.errors.get(error) ?? 0) + 1);
    else s.status.set(status, (s.status.get(status) ?? 0) + 1);
    if (node) s.nodes.set(node, (s.nodes.get(node) ?? 0) + 1);
  };
  let phase = 'steady';
  const phaseErrors = new Map();
  /** An error answer's cause → where and when it first came, with the start of its body. */
  const errorSamples = new Map();
  /** phase → its errors in full (the first 20), with the wall-clock time to find them in HAProxy's log. */
  const errorDetails = new Map();
  const noteError = (text) => {
    const list = errorDetails.get(phase) ?? [];
    errorDetails.set(phase, list);
    const now = new Date();
    if (list.length < 20)
      list.push(`${((now.getTime() - began) / 1000).toFixed(1)} s (${now.toISOString().slice(11, 23)}): ${text}`);
  };
  /** kind → status → the first body: a 4xx the kind does not expect (every kind may get 409; quota bursts 429). */
  const unexpected = new Map();
  const call = async (kind, url, init, allowed = [409]) => {
    const t0 = performance.now();
    try {
      const r = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
      const body = await r.text();
      const node = r.headers.get('x-served-by') ?? '';
      // an error answer by its cause: the node's error code, or HAProxy's own page
      const cause =
        r.status < 500
          ? null
          : `${r.status} ${/"code":"([A-Za-z_]+)"/.exec(body)?.[1] ?? (/<h1>/.test(body) ? `HAProxy ${/<h1>([^<]*)<\/h1>/.exec(body)[1]}` : 'no error code')}${node ? ` (${node})` : ''}`;
      record(kind, r.status, performance.now() - t0, cause, node);
      if (cause && !errorSamples.has(cause))
        errorSamples.set(
          cause,
          `${kind}, ${phase}, ${((Date.now() - began) / 1000).toFixed(1)} s: ${body.slice(0, 160)}`,
        );
      if (r.status >= 500) {
        phaseErrors.set(phase, (phaseErrors.get(phase) ?? 0) + 1);
        noteError(`${kind}: ${init?.method ?? 'GET'} ${new URL(url).pathname} → ${cause}: ${body.slice(0, 160)}`);
      } else if (r.status >= 400 && !allowed.includes(r.status)) {
        const u = unexpected.get(kind) ?? new Map();
        unexpected.set(kind, u);
        if (!u.has(r.status)) u.set(r.status, body.slice(0, 300));
      }
      return { status: r.status, body, headers: r.headers, node };
    } catch (err) {
      const cause = err?.cause?.code ?? err?.name ?? 'error';
      record(kind, 0, performance.now() - t0, cause);
      // a request the client lost (no answer at all): which one, when, after how long, and what the socket said
      const lost = `${init?.method ?? 'GET'} ${new URL(url).pathname}, no answer after ${Math.round(performance.now() - t0)} ms`;
      const said = err?.cause?.message ?? err?.message ?? err;
      if (!errorSamples.has(cause))
        errorSamples.set(cause, `${kind}, ${phase}, ${((Date.now() - began) / 1000).toFixed(1)} s: ${lost} (${said})`);
      phaseErrors.set(phase, (phaseErrors.get(phase) ?? 0) + 1);
      noteError(`${kind}: ${lost} (${cause}: ${said})`);
      return { status: 0, body: '', headers: new globalThis.Headers(), node: '' };
    }
  };
  /** A client that retries with the same request (and Idempotency-Key) until it gets an answer, as the docs say to. */
  const withRetries = async (kind, url, init, allowed) => {
    let last = { status: 0, body: '' };
    for (let attempt = 0; attempt < 6; attempt++) {
      last = await call(kind, url, init, allowed);
      if (last.status !== 0 && last.status < 500 && last.status !== 429) break;
      await sleep(300 * (attempt + 1));
    }
    return last;
  };
  const pick = (a) => a[Math.floor(Math.random() * a.length)];
  const day = (offset) => new Date(Date.UTC(2031, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
  const reasonOf = (body) => /"reason":"([a-z_]+)"/.exec(body)?.[1] ?? null;
  /** Idempotency-Key → final answer: 201 with the booking id, 409 (taken), or the error the client gave up on. */
  const bookings = new Map();
  const bookOnce = async () => {
    const key = randomUUID();
    const from = Math.floor(Math.random() * 1400);
    const body = JSON.stringify({
      vehicle_id: pick(vehicles),
      pickup_date: day(from),
      return_date: day(from + 1 + Math.floor(Math.random() * 4)),
      payment_method: 'offline',
      payment_plan: 'deposit',
      ...accepted,
    });
    const headers = { 'content-type': 'application/json', 'x-rova-api-key': pick(customers), 'idempotency-key': key };
    const last = await withRetries('booking create', `${LB}/wp-json/rova-rental/v2/booking/create`, {
      method: 'POST',
      headers,
      body,
    });
    const id = last.status === 201 ? JSON.parse(last.body).data.booking.id : null;
    bookings.set(key, {
      status: last.status,
      id,
      body: last.status === 201 || last.status === 409 ? null : last.body.slice(0, 300),
    });
  };
  const availability = () => {
    const from = Math.floor(Math.random() * 1400);
    return call('availability', `${LB}/wp-json/rova-rental/v1/availability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vehicle_id: pick(vehicles), pickup_date: day(from), return_date: day(from + 3) }),
    });
  };
  const search = () => call('locations', `${LB}/wp-json/rova-rental/v1/locations`);

  // payouts: each vendor asks (two clients per vendor, an Idempotency-Key per request, retried with it); one open
  // payout at a time, so the other client mostly gets 409 pending_exists until the administrator decides
  /** One entry per Idempotency-Key: the final answer the vendor's client got. */
  const payouts = [];
  const payoutOnce = async (vendor) => {
    const key = randomUUID();
    const amount = 100 + Math.floor(Math.random() * 200);
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rova-api-key': vendor.key, 'idempotency-key': key },
      body: JSON.stringify({ amount }),
    };
    const last = await withRetries('payout request', `${LB}/wp-json/rova-rental/v2/ledger/payouts`, init);
    const answered = last.status === 201 || last.status === 200;
    payouts.push({
      vendor: vendor.id,
      key,
      amount,
      init,
      status: last.status,
      id: answered ? JSON.parse(last.body).data.payout.id : null,
      reason: last.status === 409 ? reasonOf(last.body) : null,
    });
    if (!answered) await sleep(150);
  };
  // the administrator approves (then the processor calls back paid or failed) or rejects each requested payout
  const decided = { approved: 0, rejected: 0, paid: 0, failed: 0 };
  const settle = async () => {
    const list = async (status) => {
      const r = await withRetries('payout admin', `${LB}/wp-json/rova-rental/v2/payouts?status=${status}&per_page=50`, {
        headers: adminHeaders,
      });
      return r.status === 200 ? JSON.parse(r.body).data.items : [];
    };
    for (const po of await list('requested')) {
      const reject = po.id % 3 === 2;
      const r = await withRetries(
        'payout admin',
        `${LB}/wp-json/rova-rental/v2/payouts/${po.id}/${reject ? 'reject' : 'approve'}`,
        { method: 'POST', headers: adminHeaders, body: reject ? JSON.stringify({ reason: 'scale test' }) : '{}' },
      );
      if (r.status === 200) decided[reject ? 'rejected' : 'approved'] += 1;
    }
    for (const po of await list('approved')) {
      const status = po.id % 3 === 0 ? 'paid' : 'failed';
      const body = JSON.stringify({
        payout_id: po.id,
        status,
        amount: po.amount,
        external_reference: `SCALE-${po.id}`,
      });
      const msg = `msg_scale_${po.id}`;
      const now = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': msg,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': processor.sign(msg, now, body),
      };
      const r = await withRetries('payout callback', `${LB}/wp-json/rova-rental/v2/payouts/${po.id}/callback`, {
        method: 'POST',
        headers,
        body,
      });
      if (r.status === 200 && !JSON.parse(r.body).data.idempotent) decided[status] += 1;
    }
    await sleep(100);
  };

  // quotas: a fresh API key with a plan of QUOTA requests a minute, then BURST requests through the load balancer
  // (10 at a time, so every node counts some): exactly QUOTA answered 200, the rest 429 with the IETF fields
  const bursts = [];
  const killWindow = { from: Infinity, to: Infinity };
  const quotaBurst = async () => {
    const made = await withRetries('quota setup', `${LB}/wp-json/rova/v1/api-keys`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ user: 'scale-c0', name: 'scale quota', scopes: ['read'] }),
    });
    if (made.status !== 201) return sleep(500);
    const {
      key,
      api_key: { id },
    } = JSON.parse(made.body);
    const plan = await withRetries('quota setup', `${LB}/wp-json/rova/v1/api-keys/${id}/plan`, {
      method: 'PUT',
      headers: adminHeaders,
      body: JSON.stringify({ name: 'scale', requests_per_minute: QUOTA }),
    });
    if (plan.status !== 200) return sleep(500);
    const b = {
      id,
      started: Date.now(),
      ended: 0,
      ok: 0,
      limited: 0,
      errors: 0,
      badHeaders: [],
      nodes: new Set(),
      used: null,
    };
    let sent = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < BURST) {
          sent += 1;
          const r = await call(
            'quota burst',
            `${LB}/wp-json/rova/v1/auth/me`,
            { headers: { 'x-rova-api-key': key } },
            [429],
          );
          if (r.status === 200) {
            b.ok += 1;
            b.nodes.add(r.node);
          } else if (r.status === 429) b.limited += 1;
          else b.errors += 1;
          if (r.status === 200 || r.status === 429) {
            const policy = r.headers.get('ratelimit-policy') ?? '';
            const limit = r.headers.get('ratelimit') ?? '';
            const fine =
              policy.includes(`"minute";q=${QUOTA};w=60`) &&
              /^"minute";r=\d+;t=\d+$/.test(limit) &&
              (r.status === 200 || (/;r=0;/.test(limit) && /^\d+$/.test(r.headers.get('retry-after') ?? '')));
            if (!fine)
              b.badHeaders.push(
                `${r.status} RateLimit-Policy: ${policy} RateLimit: ${limit} Retry-After: ${r.headers.get('retry-after')}`,
              );
          }
        }
      }),
    );
    b.ended = Date.now();
    const usage = await withRetries('quota setup', `${LB}/wp-json/rova/v1/api-keys/${id}/usage`, {
      headers: adminHeaders,
    });
    if (usage.status === 200) b.used = JSON.parse(usage.body).windows.find((w) => w.policy === 'minute')?.used ?? null;
    b.duringKill = b.started < killWindow.to && b.ended > killWindow.from;
    b.phase = b.duringKill ? 'kill' : phase;
    bursts.push(b);
    await sleep(1000);
  };

  // writes without an Idempotency-Key, sent once each: a booking on a slot nobody else asks for (from 2036 on, the
  // keyed bookings stay before 2035) and a message with a body of its own. Nothing may be played again behind the
  // client's back: no booking answered 409 for a slot this customer holds, no message stored twice.
  const unkeyed = { bookings: [], messages: [] };
  let unkeyedSeq = 0;
  const bookUnkeyed = async () => {
    const i = unkeyedSeq++;
    const slot = { vehicle_id: pick(vehicles), pickup_date: day(1830 + 2 * i), return_date: day(1831 + 2 * i) };
    const r = await call('booking create (no key)', `${LB}/wp-json/rova-rental/v2/booking/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rova-api-key': noKey },
      body: JSON.stringify({ ...slot, payment_method: 'offline', payment_plan: 'deposit', ...accepted }),
    });
    unkeyed.bookings.push({ ...slot, status: r.status });
  };
  const messageUnkeyed = async () => {
    const body = `scale message ${unkeyedSeq++}`;
    const r = await call('message (no key)', `${LB}/wp-json/rova-rental/v1/my/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rova-api-key': noKey },
      body: JSON.stringify({ subject: 'Scale', message: body }),
    });
    unkeyed.messages.push({ body, status: r.status });
  };

  const t0 = Date.now();
  const until = t0 + SECONDS * 1000;
  const elapsed = () => ((Date.now() - t0) / 1000).toFixed(0);
  let faultsDone = false;
  /** Why the faults stopped early (a node that did not come back): the load stops too, and the run fails with it. */
  let chaosError = null;
  // the load lasts SCALE_SECONDS and at least until the last restarted node is back in rotation
  const worker = async (fn) => {
    while (!chaosError && !unexpectedExits.length && (Date.now() < until || !faultsDone)) await fn();
  };
  const load = Promise.all([
    ...Array.from({ length: 6 }, () => worker(bookOnce)),
    ...Array.from({ length: 4 }, () => worker(availability)),
    ...Array.from({ length: 4 }, () => worker(search)),
    ...vendors.flatMap((v) => [worker(() => payoutOnce(v)), worker(() => payoutOnce(v))]),
    worker(settle),
    worker(quotaBurst),
    worker(bookUnkeyed),
    worker(messageUnkeyed),
  ]);

  // --- faults: one node SIGKILLed and brought back, then a rolling restart of every node ----------------------
  const events = [];
  const at = (s) => sleep(Math.max(0, t0 + s * 1000 - Date.now()));
  const chaos = (async () => {
    await at(SECONDS * 0.2);
    phase = 'kill';
    killWindow.from = Date.now();
    await stopNode(1, 'SIGKILL');
    events.push(`${elapsed()} s: node 2 SIGKILLed`);
    await sleep(3000);
    start(1, BREAK_RESTART ? { REDIS_URL: 'redis://127.0.0.1:1' } : {});
    await ready(1);
    await sleep(2500);
    killWindow.to = Date.now();
    events.push(`${elapsed()} s: node 2 back`);
    phase = 'steady';
    await at(SECONDS * 0.45);
    phase = 'rolling restart';
    for (const i of [0, 1, 2]) {
      const exit = await stopNode(i, 'SIGTERM');
      events.push(`${elapsed()} s: node ${i + 1} stopped (exit ${exit.code})`);
      start(i);
      await ready(i);
      await sleep(2500);
    }
    events.push(`${elapsed()} s: rolling restart done`);
    phase = 'after';
  })()
    .catch((err) => {
      chaosError = err;
    })
    .finally(() => {
      faultsDone = true;
    });
  await Promise.all([load, chaos]);
  if (chaosError) throw chaosError;
  if (unexpectedExits.length) throw new Error(unexpectedExits.join('\n'));
  const loadSeconds = (Date.now() - t0) / 1000;
  say('load over: checking');

  // --- what must hold -----------------------------------------------------------------------------------------
  const failures = [];
  const check = db;
  // bookings
  const created = [...bookings.values()].filter((b) => b.status === 201);
  const ids = created.map((b) => b.id);
  const found = new Set(
    (await check.query('SELECT id::int AS id FROM rental_bookings WHERE id = ANY($1::int[])', [ids])).rows.map(
      (r) => r.id,
    ),
  );
  const lost = ids.filter((id) => !found.has(id));
  if (lost.length) failures.push(`${lost.length} bookings answered 201 are missing: ${lost.slice(0, 10).join(', ')}`);
  const gaveUp = [...bookings.entries()].filter(([, b]) => b.status === 0 || b.status >= 500);
  const refused = [...bookings.values()].filter(
    (b) => b.status !== 201 && b.status !== 409 && b.status > 0 && b.status < 500,
  );
  if (refused.length)
    failures.push(
      `${refused.length} booking requests refused (${[...new Set(refused.map((b) => b.status))].join(', ')}): ${refused[0].body}`,
    );
  if (created.length === 0) failures.push('no booking was created');
  // a key the client gave up on (an error after every retry) must not have booked anything
  const committedWithError = gaveUp.length
    ? (
        await check.query(
          "SELECT key FROM rova_idempotent_requests WHERE key = ANY($1::text[]) AND (status = 'committed' OR response_status = 201)",
          [gaveUp.map(([k]) => k)],
        )
      ).rows
    : [];
  if (committedWithError.length)
    failures.push(`${committedWithError.length} bookings committed but answered with an error`);
  const doubles = (
    await check.query(`SELECT count(*)::int AS n FROM rental_bookings a JOIN rental_bookings b ON a.vehicle_id = b.vehicle_id AND a.id < b.id
      AND a.holds_slot AND b.holds_slot AND a.pickup_at < b.return_at AND b.pickup_at < a.return_at`)
  ).rows[0].n;
  if (doubles) failures.push(`${doubles} pairs of bookings overlap on one vehicle`);
  for (const [kind, u] of unexpected)
    for (const [status, body] of u) failures.push(`${kind}: answered ${status}: ${body}`);

  // writes without a key: nothing played again (HAProxy retries only a request whose connection failed)
  const held = new Set(
    (
      await check.query(
        `SELECT b.vehicle_id::int AS v, to_char(b.pickup_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d FROM rental_bookings b
      JOIN rental_customers c ON c.id = b.customer_id WHERE c.user_id = $1 AND b.holds_slot`,
        [noKeyUser.id],
      )
    ).rows.map((r) => `${r.v}:${r.d}`),
  );
  const toldTakenOwn = unkeyed.bookings.filter((b) => b.status === 409 && held.has(`${b.vehicle_id}:${b.pickup_date}`));
  if (toldTakenOwn.length)
    failures.push(
      `${toldTakenOwn.length} bookings without a key answered 409 for a slot the same customer holds (the request was played again)`,
    );
  const unkeyedLost = unkeyed.bookings.filter((b) => b.status === 201 && !held.has(`${b.vehicle_id}:${b.pickup_date}`));
  if (unkeyedLost.length) failures.push(`${unkeyedLost.length} bookings without a key answered 201 are missing`);
  const storedMessages = new Map(
    (
      await check.query(
        'SELECT body, count(*)::int AS n FROM rental_messages WHERE body = ANY($1::text[]) GROUP BY body',
        [unkeyed.messages.map((m) => m.body)],
      )
    ).rows.map((r) => [r.body, r.n]),
  );
  const messageDoubles = unkeyed.messages.filter((m) => (storedMessages.get(m.body) ?? 0) > 1);
  if (messageDoubles.length)
    failures.push(`${messageDoubles.length} messages sent once without a key are stored more than once`);
  const messageLost = unkeyed.messages.filter((m) => m.status === 201 && storedMessages.get(m.body) !== 1);
  if (messageLost.length) failures.push(`${messageLost.length} messages answered 201 are not stored exactly once`);
  const unkeyedLine =
    `writes without a key: ${unkeyed.bookings.length} bookings (${unkeyed.bookings.filter((b) => b.status === 201).length} × 201, ${toldTakenOwn.length} told 409 for their own slot), ` +
    `${unkeyed.messages.length} messages (${unkeyed.messages.filter((m) => m.status === 201).length} × 201, ${messageDoubles.length} stored twice); duplicates: ${toldTakenOwn.length + messageDoubles.length}`;

  // payouts: every payout answered 201 (or 200, the replay a retry got) exists once under its key; a key answered 409
  // or given up on committed nothing; every answered key replayed now gives the same payout
  const answered = payouts.filter((p) => p.status === 201 || p.status === 200);
  const stored = new Map();
  for (const r of (
    await check.query(
      'SELECT id::int AS id, idempotency_key AS key FROM vendor_payouts WHERE idempotency_key = ANY($1::text[])',
      [payouts.map((p) => p.key)],
    )
  ).rows) {
    stored.set(r.key, [...(stored.get(r.key) ?? []), r.id]);
  }
  const payoutLost = answered.filter((p) => (stored.get(p.key) ?? []).join() !== String(p.id));
  if (payoutLost.length)
    failures.push(
      `${payoutLost.length} payouts answered 201 are not stored exactly once under their key: ${payoutLost
        .slice(0, 5)
        .map((p) => `${p.id} → ${stored.get(p.key) ?? 'none'}`)
        .join(', ')}`,
    );
  const payoutErrorCommitted = payouts.filter((p) => !(p.status === 201 || p.status === 200) && stored.has(p.key));
  if (payoutErrorCommitted.length)
    failures.push(
      `${payoutErrorCommitted.length} payouts committed but answered ${[...new Set(payoutErrorCommitted.map((p) => p.status))].join(', ')}`,
    );
  if (!payouts.some((p) => p.status === 201)) failures.push('no payout was requested');
  const replayWrong = [];
  const replayQueue = [...answered];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let p = replayQueue.shift(); p; p = replayQueue.shift()) {
        const r = await withRetries('payout replay', `${LB}/wp-json/rova-rental/v2/ledger/payouts`, p.init);
        const id = r.status === 200 ? JSON.parse(r.body).data.payout.id : null;
        if (id !== p.id) replayWrong.push(`${p.key}: ${r.status} ${id ?? r.body.slice(0, 200)}`);
      }
    }),
  );
  if (replayWrong.length)
    failures.push(
      `${replayWrong.length} of ${answered.length} payout keys replayed gave another answer: ${replayWrong.slice(0, 3).join('; ')}`,
    );
  // no vendor paid out more than it had: replayed in ledger order, no vendor account ever went below 0 in the run
  const balance = new Map();
  const lowest = new Map();
  for (const e of (
    await check.query(`SELECT e.id::int AS id, a.code, e.amount::float8 AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.vendor_id IS NOT NULL ORDER BY e.id`)
  ).rows) {
    const b = (balance.get(e.code) ?? 0) + e.amount;
    balance.set(e.code, b);
    if (e.id > ledgerFrom) lowest.set(e.code, Math.min(lowest.get(e.code) ?? b, b));
  }
  const negative = [...lowest].filter(([code, b]) => /:(available|payout_hold)$/.test(code) && b < 0);
  if (negative.length)
    failures.push(`vendor balances below 0 during the run: ${negative.map(([c, b]) => `${c} ${b / 100}`).join(', ')}`);
  const paidOut = (
    await check.query(
      `SELECT vendor_id::int AS vendor, count(*)::int AS n, sum(amount)::float8 / 100 AS amount FROM vendor_payouts
      WHERE status = 'paid' AND idempotency_key = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
      [payouts.map((p) => p.key)],
    )
  ).rows;

  // quotas: a burst that met no error got exactly QUOTA 200s, the rest 429, and the key's counter agrees. A burst
  // with errors: a counted request may have been answered with the error (at most QUOTA 200s, at least QUOTA with
  // the errors); during the SIGKILL a request the killed node counted may also have died with it unseen (HAProxy
  // resends a request that got no answer at all): at most QUOTA 200s
  const exact = bursts.filter((b) => !b.duringKill && b.errors === 0);
  for (const b of bursts) {
    const want = b.duringKill
      ? b.ok <= QUOTA
      : b.errors
        ? b.ok <= QUOTA && b.ok + b.errors >= QUOTA
        : b.ok === QUOTA && b.limited === BURST - QUOTA && b.used === QUOTA;
    if (!want)
      failures.push(
        `quota burst on key ${b.id} (${b.phase}): ${b.ok} × 200, ${b.limited} × 429, ${b.errors} errors, usage ${b.used} (plan ${QUOTA}/min)`,
      );
    if (b.badHeaders.length)
      failures.push(
        `quota burst on key ${b.id}: ${b.badHeaders.length} answers without the RateLimit fields, e.g. ${b.badHeaders[0]}`,
      );
  }
  if (exact.length === 0) failures.push('no quota burst without errors');
  if (!exact.some((b) => b.phase === 'rolling restart'))
    failures.push('no quota burst (without errors) during the rolling restart');
  const quotaNodes = new Set(bursts.flatMap((b) => [...b.nodes]));
  if (quotaNodes.size < 3) failures.push(`quota bursts were answered by ${quotaNodes.size} node(s) only`);

  // every booking.created event reaches the receiver at least once (deliveries go on after the load: wait for them)
  const createdEvents = async () =>
    (
      await check.query("SELECT event_id AS id FROM rova_events WHERE type = 'booking.created' AND created_at > $1", [
        hookedAt,
      ])
    ).rows.map((r) => r.id);
  let expected = await createdEvents();
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !expected.every((id) => deliveries.includes(id))) {
    await sleep(1000);
    expected = await createdEvents();
  }
  const distinct = new Set(deliveries);
  const undelivered = expected.filter((id) => !distinct.has(id));
  if (undelivered.length)
    failures.push(`${undelivered.length} of ${expected.length} booking.created events not delivered within 90 s`);
  if (expected.length < created.length)
    failures.push(`${created.length} bookings created but ${expected.length} booking.created events`);
  const webhookLine = `webhooks: ${expected.length} booking.created events, ${deliveries.length} deliveries, ${distinct.size} distinct webhook-id (${deliveries.length - distinct.size} repeats)`;

  // scheduled jobs, from rova_job_runs (one row per run: job, process host:pid, start, lease, end). A job the killed
  // node held runs again only once its lease ran out: wait for that run (it lands within 2 ticks of the expiry)
  const jobRuns = async () =>
    (
      await check.query(`SELECT job, holder, node, interval_ms::float8 AS interval, extract(epoch FROM started_at)::float8 * 1000 AS started,
      extract(epoch FROM lease_expires_at)::float8 * 1000 AS lease, finished_at IS NOT NULL AS finished FROM rova_job_runs ORDER BY job, started_at`)
    ).rows;
  const lifeOf = (r) => incarnations.get(Number(r.node.split(':').pop()));
  let runs = await jobRuns();
  const waitFor = runs
    .filter((r) => lifeOf(r)?.end === 'SIGKILL')
    .map((r) => ({ job: r.job, after: r.started, due: Math.max(r.started + r.interval, r.lease ?? 0) }))
    .filter((w) => w.due < Date.now() + 60_000 && !runs.some((r) => r.job === w.job && r.started > w.after));
  for (const w of waitFor) {
    const until2 = w.due + 2 * JOB_TICK_MS + 5000;
    while (Date.now() < until2 && !runs.some((r) => r.job === w.job && r.started > w.after)) {
      await sleep(1000);
      runs = await jobRuns();
    }
    if (!runs.some((r) => r.job === w.job && r.started > w.after))
      failures.push(
        `job ${w.job}: the SIGKILLed node held it; no other node ran it within 2 ticks of its lease running out`,
      );
  }
  const jobs = new Map();
  for (const r of runs) jobs.set(r.job, [...(jobs.get(r.job) ?? []), r]);
  const nodeName = (r) => {
    const l = lifeOf(r);
    return l ? `node ${l.node}${l.end === 'SIGKILL' ? ' (killed)' : ''}` : r.node;
  };
  for (const name of ['rental-hold-expiry', 'ledger-clearing', 'audit-retention'])
    if (!jobs.has(name)) failures.push(`job ${name} never ran`);
  for (const [name, list] of jobs) {
    for (const [i, r] of list.entries()) {
      if (!lifeOf(r)) failures.push(`job ${name} ran in a process that is not one of the 3 nodes: ${r.node}`);
      if (!r.finished && lifeOf(r) && lifeOf(r).end !== 'SIGKILL' && lifeOf(r).end !== 'running')
        failures.push(`job ${name}: the run on ${nodeName(r)} never finished, though the node stopped gracefully`);
      if (i === 0) continue;
      const prev = list[i - 1];
      if (r.started - prev.started < r.interval - 1)
        failures.push(
          `job ${name} ran twice in one period (${r.interval / 1000} s): on ${nodeName(prev)} and ${(r.started - prev.started) / 1000} s later on ${nodeName(r)}`,
        );
      if (lifeOf(prev)?.end === 'SIGKILL' && r.holder !== prev.holder && prev.lease && r.started < prev.lease)
        failures.push(`job ${name} ran on ${nodeName(r)} before the killed holder's lease ran out`);
    }
  }
  const verify = spawnSync(process.execPath, [path.join(root, 'dist/main.js'), 'verify'], {
    env: { ...common, DATABASE_URL: direct.toString() },
    encoding: 'utf8',
  });
  if (verify.status !== 0) failures.push(`rova verify: exit ${verify.status}: ${verify.stdout}${verify.stderr}`);
  const rollingErrors = phaseErrors.get('rolling restart') ?? 0;
  if (rollingErrors) {
    const lb = abnormalAtLb();
    failures.push(
      `${rollingErrors} errors at the load balancer during the rolling restart:\n  ${errorDetails.get('rolling restart').join('\n  ')}` +
        `\n  HAProxy's log, requests that did not end normally (${lb.length}; the last 30):\n  ${lb.slice(-30).join('\n  ') || '(none)'}`,
    );
  }
  for (const e of unexpectedExits) failures.push(e);

  // per-node share from HAProxy's statistics (requests each server answered)
  const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`, { signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.text(),
    () => '',
  );
  const share = csv
    .split('\n')
    .filter((l) => l.startsWith('rova_nodes,node'))
    .map((l) => {
      const f = l.split(',');
      return `${f[1]} ${f[7]}`;
    });

  // --- table --------------------------------------------------------------------------------------------------
  const q = (a, p) => {
    const s = [...a].sort((x, y) => x - y);
    return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0;
  };
  const pct = (m, total) =>
    ['node1', 'node2', 'node3'].map((n) => `${Math.round((100 * (m.get(n) ?? 0)) / Math.max(1, total))}`).join(' / ');
  console.log(
    `\n${SECONDS} s of load (${loadSeconds.toFixed(0)} s with the faults), PostgreSQL + Redis + PgBouncer (transaction) + HAProxy + 3 nodes; ${events.join('; ')}`,
  );
  console.log('| requests | n | answers | errors (cause) | p50 ms | p99 ms | % per node (1 / 2 / 3) |');
  console.log('|---|---:|---|---|---:|---:|---|');
  for (const [kind, s] of stats) {
    const answers = [...s.status]
      .sort()
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ');
    const errors = [...s.errors].map(([k, v]) => `${v} × ${k}`).join(', ') || '0';
    console.log(
      `| ${kind} | ${s.n} | ${answers} | ${errors} | ${q(s.ms, 0.5).toFixed(0)} | ${q(s.ms, 0.99).toFixed(0)} | ${pct(s.nodes, s.n)} |`,
    );
  }
  console.log(
    `\nbookings: ${created.length} created (${bookings.size} keys; ${gaveUp.length} given up after retries); errors by phase: ${[...phaseErrors].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
  );
  for (const [cause, sample] of errorSamples) console.log(`first ${cause}: ${sample}`);
  for (const [ph, list] of errorDetails)
    if (ph !== 'rolling restart') console.log(`errors, ${ph}:\n  ${list.join('\n  ')}`);
  console.log(webhookLine);
  console.log(unkeyedLine);
  const reasons = new Map();
  for (const p of payouts) {
    const k = p.status === 409 ? `409 ${p.reason}` : String(p.status);
    reasons.set(k, (reasons.get(k) ?? 0) + 1);
  }
  console.log(
    `payouts: ${payouts.length} keys → ${[...reasons]
      .sort()
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ')}; decided ${Object.entries(decided)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}; ` +
      `${answered.length} keys replayed after the load: ${answered.length - replayWrong.length} gave the same payout; paid out ${paidOut.map((r) => `vendor ${r.vendor} ${r.amount.toFixed(2)} in ${r.n}`).join(', ') || 'nothing'}; ` +
      `lowest vendor balances in the run: ${[...lowest]
        .filter(([c]) => /available|payout_hold/.test(c))
        .map(([c, b]) => `${c} ${(b / 100).toFixed(2)}`)
        .join(', ')}`,
  );
  const byPhase = (list) =>
    [...new Set(list.map((b) => b.phase))].map((ph) => `${list.filter((b) => b.phase === ph).length} ${ph}`).join(', ');
  const other = bursts.filter((b) => !exact.includes(b));
  console.log(
    `quotas: ${bursts.length} bursts of ${BURST} requests, each on a fresh key with a plan of ${QUOTA}/min, 10 at a time: ` +
      `${exact.filter((b) => b.ok === QUOTA && b.used === QUOTA).length} of ${exact.length} without errors (${byPhase(exact)}) got exactly ${QUOTA} × 200 + ${BURST - QUOTA} × 429 (key usage ${QUOTA}); ` +
      `${other.length} with errors or during the SIGKILL: ${other.map((b) => `${b.ok} × 200${b.errors ? ` + ${b.errors} errors` : ''} (${b.phase})`).join(', ') || '-'}; 200s answered by ${[...quotaNodes].sort().join(', ')}`,
  );
  console.log('| job | period s | runs | run by | gaps s |');
  console.log('|---|---:|---:|---|---|');
  for (const [name, list] of jobs) {
    console.log(
      `| ${name} | ${list[0].interval / 1000} | ${list.length} | ${list.map(nodeName).join(', ')} | ${
        list
          .slice(1)
          .map((r, i) => ((r.started - list[i].started) / 1000).toFixed(0))
          .join(', ') || '-'
      } |`,
    );
  }
  console.log(`per node (HAProxy sessions): ${share.join(', ')}`);
  const states = new Map();
  for (const l of abnormalAtLb()) {
    const st = terminationState(l);
    states.set(st, (states.get(st) ?? 0) + 1);
  }
  console.log(
    `HAProxy: requests that did not end normally, by termination state: ${[...states].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
  );
  if (failures.length) {
    console.error(`\nscale: FAILED\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      '\nscale: 0 double bookings, every 201 booking and payout exists (payouts once, replays give the same one), no write committed and answered with an error, ' +
        "no vendor balance below 0, quotas exact across nodes, every job at most once per period (the killed holder's only after its lease), every booking.created delivered, rova verify clean, 0 errors in the rolling restart",
    );
  }
} catch (err) {
  // a node that exited or never became ready, a setup step that failed: say what, with the node's own words
  console.error(`\nscale: FAILED\n- ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
