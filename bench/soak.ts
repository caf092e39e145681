/**
 * `npm run bench -- soak [--minutes N] [--nodes 1|2] [--ramp-seconds S]`: a storefront's evening on PostgreSQL + Redis.
 * The built server (dist/main.js serve, with the V8 flags `npm start` gives it) answers a mix — 70 % search, 15 %
 * check, 8 % my bookings, 5 % create (with an Idempotency-Key), 2 % cancel — sent at a steady 70 % of the capacity
 * measured first in a short closed-loop ramp. Every minute it prints throughput, p50/p99, and per node RSS, heap and
 * external memory (the median of samples read from /metrics every 5 s: one reading lands anywhere in a garbage
 * collection's cycle, which moves RSS by ±15 % under this load) and event-loop delay p99 (prom-client's
 * monitorEventLoopDelay, which each read resets: the worst 5-s window of the minute), PostgreSQL connections and Redis
 * memory (INFO memory). Passes when the last minute's RSS is within 10 % of the second minute's, event-loop delay
 * p99 ≤ 50 ms in every minute, 0 errors, 0 overlapping bookings.
 * --nodes 2: the same through HAProxy (deploy/haproxy.cfg) and PgBouncer (transaction mode) to 2 nodes, after a ramp
 * of 1 node direct, and prints the capacity ratio. Needs BENCH_DATABASE_URL (a fresh database), Redis
 * (BENCH_REDIS_URL, default redis://127.0.0.1:6379), and for --nodes 2 Debian's haproxy and pgbouncer.
 * Exits non-zero when a target is missed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureBuilt, root } from '../scripts/ensure-built.mjs';
import { freePort, startPgBouncer } from '../scripts/pgbouncer.mjs';
import { benchServerEnv, benchServerFlags } from './lib/server-flags.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    nodes: { type: 'string' },
    'ramp-seconds': { type: 'string' },
    connections: { type: 'string' },
  },
  strict: true,
});
const MINUTES = Number(values.minutes ?? 10);
const NODES = Number(values.nodes ?? 1);
const RAMP_S = Number(values['ramp-seconds'] ?? 20);
/** Concurrent requests of the capacity ramp (closed loop) and the most in flight in the steady run. */
const CONNECTIONS = Number(values.connections ?? 64);
const MAX_IN_FLIGHT = 512;
const SHARE = 0.7;
const dbUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!dbUrl || !(MINUTES >= 1) || (NODES !== 1 && NODES !== 2) || !(RAMP_S >= 5)) {
  process.stderr.write(
    'usage: BENCH_DATABASE_URL=postgres://…/<fresh db> npm run bench -- soak [--minutes N ≥ 1] [--nodes 1|2] [--ramp-seconds S ≥ 5]\n',
  );
  process.exit(2);
}
const entry = ensureBuilt();
const began = Date.now();
const say = (m: string) => process.stdout.write(`soak: ${((Date.now() - began) / 1000).toFixed(0)} s: ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dbName = new URL(dbUrl).pathname.slice(1);
const dir = mkdtempSync(path.join(tmpdir(), 'rova-soak-'));
const ADMIN_KEY = `soak-admin-${randomBytes(12).toString('hex')}`;
const prefix = `rova-soak:${randomBytes(4).toString('hex')}:`;
const common: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  DATA_DIR: dir,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  ROVA_SECRET: randomBytes(32).toString('hex'),
  TRUST_PROXY: 'loopback',
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'warn',
  METRICS: 'public',
  STORE_CURRENCY: 'EUR',
  ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  RENTAL_PUBLIC_RATE_LIMIT: '100000000',
  RENTAL_WRITE_RATE_LIMIT: '100000000',
  FX_RATE_LIMIT: '100000000',
};

function cli(args: string[]): void {
  const r = spawnSync(process.execPath, [entry, ...args], {
    env: { ...common, DATABASE_URL: dbUrl! },
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`rova ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
}

interface RovaNode {
  child: ChildProcess;
  port: number;
  stderr: string[];
}
const running: RovaNode[] = [];
const others: { stop(): unknown }[] = [];

async function startNode(databaseUrl: string): Promise<RovaNode> {
  const port = await freePort();
  const child = spawn(process.execPath, [...benchServerFlags(), entry, 'serve'], {
    env: { ...benchServerEnv(), ...common, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const node: RovaNode = { child, port, stderr: [] };
  child.stderr!.on('data', (c: Buffer) => node.stderr.push(...c.toString().split('\n').slice(-20)));
  running.push(node);
  for (const t = Date.now(); ; await sleep(200)) {
    if (child.exitCode !== null) throw new Error(`a node exited (${child.exitCode}):\n${node.stderr.join('\n')}`);
    if (Date.now() - t > 120_000) throw new Error(`a node was not ready within 120 s:\n${node.stderr.join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return node;
  }
}

async function stopNode(node: RovaNode): Promise<void> {
  const gone = new Promise((r) => node.child.once('exit', r));
  node.child.kill('SIGTERM');
  await Promise.race([gone, sleep(30_000)]);
  if (node.child.exitCode === null) node.child.kill('SIGKILL');
  running.splice(running.indexOf(node), 1);
}

/** HAProxy with deploy/haproxy.cfg in front of the nodes; resolves with its port once every node is in rotation. */
async function startHaproxy(nodes: RovaNode[]): Promise<number> {
  const lb = await freePort();
  const stats = await freePort();
  const servers = nodes.map((n, i) => `    server node${i + 1} 127.0.0.1:${n.port} check`).join('\n');
  const cfg = readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8')
    .replace('log stdout format raw local0 info', 'log stdout format raw local0 warning')
    .replace('bind :8080', `bind 127.0.0.1:${lb}`)
    .replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${stats}`)
    .replace(/( {4}server node\d 127\.0\.0\.1:808\d check\n?)+/, `${servers}\n`);
  writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
  const proxy = spawn('/usr/sbin/haproxy', ['-f', path.join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  others.push({ stop: () => proxy.kill('SIGKILL') });
  for (const t = Date.now(); ; await sleep(200)) {
    if (Date.now() - t > 30_000) throw new Error('HAProxy did not answer /readyz within 30 s');
    if (
      await fetch(`http://127.0.0.1:${lb}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
  }
  await sleep(2500); // every node marked up (rise 2)
  return lb;
}

// ---- the mix ----

interface Answer {
  status: number;
  body: string;
}
// An idle kept-alive socket is closed here after 4 s (undici's default), before the other end does: HAProxy closes
// idle client connections after 10 s (deploy/haproxy.cfg, `timeout http-keep-alive`), and a request written on a
// socket at the moment its close arrives fails as "socket hang up" — 5 of them in a 10-minute 2-node soak, none the
// server's doing. Only free sockets are destroyed on this timeout; a slow answer is still waited for.
const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, timeout: 4000 });

function call(
  port: number,
  method: string,
  p: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, agent, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: 0, body: 'response error' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(body);
  });
}

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const pick = <T>(a: T[]): T => a[Math.floor(Math.random() * a.length)]!;
const SORTS = ['relevance', 'price_asc', 'price_desc', 'name', 'year_desc'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'TRY'];
type Kind = 'search' | 'check' | 'my bookings' | 'create' | 'cancel';
const MIX: [Kind, number][] = [
  ['search', 0.7],
  ['check', 0.15],
  ['my bookings', 0.08],
  ['create', 0.05],
  ['cancel', 0.02],
];

/** What a create body adds for the store's rental terms: their acceptance, or nothing when the store has none. */
type TermsAccepted = { terms_accepted: true; terms_version: string } | Record<string, never>;

interface Customer {
  key: string;
  /** Bookings this customer created and has not cancelled yet (the cancels pick from these). */
  booked: number[];
}

class Mix {
  constructor(
    private readonly port: number,
    private readonly vehicles: number[],
    private readonly customers: Customer[],
    /** The demo store asks for its terms (issue 36.4): every booking accepts them, as the widget does. */
    private readonly accepted: TermsAccepted,
  ) {}

  kind(): Kind {
    let r = Math.random();
    for (const [k, share] of MIX) if ((r -= share) < 0) return k;
    return 'search';
  }

  /** One request of `kind`; ok when its status is one the storefront expects (a taken slot's 409 included). */
  async one(kind: Kind): Promise<{ ok: boolean; status: number; body: string }> {
    const json = { 'content-type': 'application/json' };
    const rental = '/wp-json/rova-rental/v2';
    const from = 1 + Math.floor(Math.random() * 120);
    if (kind === 'search') {
      // a storefront's handful of date windows (its visitors ask the same few), all sorts and currencies
      const start = 1 + Math.floor(Math.random() * 30);
      const a = await call(
        this.port,
        'GET',
        `${rental}/vehicles/search?pickup_date=${day(start)}&return_date=${day(start + 1 + (start % 7))}&sort=${pick(SORTS)}&currency=${pick(CURRENCIES)}`,
        {},
      );
      return { ok: a.status === 200, ...a };
    }
    if (kind === 'check') {
      const a = await call(
        this.port,
        'POST',
        `${rental}/booking/check`,
        json,
        JSON.stringify({ vehicle_id: pick(this.vehicles), pickup_date: day(from), return_date: day(from + 3) }),
      );
      return { ok: a.status === 200, ...a };
    }
    const customer = pick(this.customers);
    const auth = { 'x-rova-api-key': customer.key };
    if (kind === 'my bookings') {
      const a = await call(this.port, 'GET', `${rental}/my/bookings`, auth);
      return { ok: a.status === 200, ...a };
    }
    if (kind === 'cancel' && customer.booked.length > 0) {
      const id = customer.booked.splice(Math.floor(Math.random() * customer.booked.length), 1)[0]!;
      const a = await call(this.port, 'POST', `${rental}/my/bookings/${id}/cancel`, auth);
      return { ok: a.status === 200, ...a };
    }
    // create (and a cancel of a customer with nothing to cancel yet books instead): slots over ~10 years
    const start = 200 + Math.floor(Math.random() * 3600);
    const a = await call(
      this.port,
      'POST',
      `${rental}/booking/create`,
      { ...json, ...auth, 'idempotency-key': randomUUID() },
      JSON.stringify({
        vehicle_id: pick(this.vehicles),
        pickup_date: day(start),
        return_date: day(start + 1 + Math.floor(Math.random() * 4)),
        payment_method: 'offline',
        payment_plan: 'deposit',
        ...this.accepted,
      }),
    );
    if (a.status === 201)
      customer.booked.push((JSON.parse(a.body) as { data: { booking: { id: number } } }).data.booking.id);
    return { ok: a.status === 201 || a.status === 409, ...a };
  }
}

/** Latencies (ms) and outcomes of a stretch of the run. */
class Tally {
  latencies: number[] = [];
  errors = 0;
  firstErrors: string[] = [];
  /** Per kind: answers and their summed latency (ms). */
  byKind = new Map<Kind, { n: number; ms: number }>();
  add(ms: number, r: { ok: boolean; status: number; body: string }, kind: Kind): void {
    this.latencies.push(ms);
    const k = this.byKind.get(kind) ?? { n: 0, ms: 0 };
    k.n += 1;
    k.ms += ms;
    this.byKind.set(kind, k);
    if (!r.ok) {
      this.errors += 1;
      if (this.firstErrors.length < 5) this.firstErrors.push(`${kind}: ${r.status} ${r.body.slice(0, 200)}`);
    }
  }
  /** `search 70 % 3.1 ms, check …`: each kind's share of the answers and mean latency. */
  kinds(): string {
    return [...this.byKind]
      .map(
        ([k, v]) =>
          `${k} ${Math.round((v.n / Math.max(1, this.latencies.length)) * 100)} % ${(v.ms / v.n).toFixed(1)} ms`,
      )
      .join(', ');
  }
  quantile(q: number): number {
    if (this.latencies.length === 0) return 0;
    const s = Float64Array.from(this.latencies).sort();
    return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  }
}

async function timed(mix: Mix, tally: Tally): Promise<void> {
  const kind = mix.kind();
  const t0 = performance.now();
  const r = await mix.one(kind);
  tally.add(performance.now() - t0, r, kind);
}

/** Closed loop: CONNECTIONS requests always in flight for `seconds` (after 3 s not counted); answers per second. */
async function capacity(mix: Mix, seconds: number): Promise<{ perSecond: number; tally: Tally }> {
  let counting = false;
  let tally = new Tally();
  const end = Date.now() + (seconds + 3) * 1000;
  setTimeout(() => {
    counting = true;
    tally = new Tally();
  }, 3000);
  let t0 = 0;
  const loop = async () => {
    while (Date.now() < end) await timed(mix, tally);
  };
  setTimeout(() => (t0 = performance.now()), 3000);
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  if (!counting) throw new Error('the ramp ended before it counted');
  return { perSecond: tally.latencies.length / ((performance.now() - t0) / 1000), tally };
}

// ---- what the nodes, PostgreSQL and Redis report ----

/** How often each node's /metrics is read within a minute. */
const SAMPLE_MS = 5_000;

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function metricsOf(node: RovaNode): Promise<Record<string, number>> {
  const text = await fetch(`http://127.0.0.1:${node.port}/metrics`).then((r) => r.text());
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(rova_\w+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (m) out[`${m[1]}${m[2] ?? ''}`] = Number(m[3]);
  }
  return out;
}

interface Minute {
  minute: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  rssMb: number[];
  heapMb: number[];
  externalMb: number[];
  loopP99Ms: number[];
  pgConnections: number;
  redisMb: number;
  /** Each kind's share of the answers and mean latency (Tally.kinds). */
  kinds: string;
}

async function main(): Promise<number> {
  say(`database ${dbName}: migrate and demo data (dist/main.js)`);
  cli(['migrate']);
  cli(['seed', '--demo']);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  others.push({ stop: () => db.end().catch(() => undefined) });
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  others.push({ stop: () => redis.quit().catch(() => undefined) });
  const vehicles = (
    await db.query<{ id: number }>(
      "SELECT id::int AS id FROM rental_vehicles WHERE status = 'active' AND service_type <> 'transfer' ORDER BY id",
    )
  ).rows.map((r) => r.id);

  const first = await startNode(dbUrl!);
  const admin = { 'content-type': 'application/json', 'x-rova-api-key': ADMIN_KEY };
  const setup = async (what: string, body: unknown) => {
    const a = await call(first.port, 'POST', `/wp-json/rova/v1/${what}`, admin, JSON.stringify(body));
    if (a.status !== 201) throw new Error(`POST ${what}: ${a.status} ${a.body}`);
    return JSON.parse(a.body) as { id: number; key: string };
  };
  const customers: Customer[] = [];
  for (let i = 0; i < 20; i++) {
    const u = await setup('users', {
      login: `soak-c${i}`,
      email: `soak-c${i}@example.test`,
      role: 'customer',
      password: 'soak test password',
    });
    customers.push({
      key: (await setup('api-keys', { user_id: u.id, name: 'soak', scopes: ['read', 'write'] })).key,
      booked: [],
    });
  }
  // the rental terms the store publishes (the demo's), accepted by every customer's booking
  const rules = await call(first.port, 'GET', '/wp-json/rova-rental/v2/booking/driver-rules', {});
  if (rules.status !== 200) throw new Error(`GET driver-rules: ${rules.status} ${rules.body}`);
  const { terms } = (JSON.parse(rules.body) as { data: { terms: { version: string } | null } }).data;
  const accepted: TermsAccepted = terms ? { terms_accepted: true, terms_version: terms.version } : {};
  say(
    `${vehicles.length} vehicles, ${customers.length} customers; capacity ramp of 1 node direct (${RAMP_S} s, ${CONNECTIONS} in flight)`,
  );
  const direct = await capacity(new Mix(first.port, vehicles, customers, accepted), RAMP_S);
  say(
    `1 node direct: ${Math.round(direct.perSecond)} req/s, p99 ${direct.tally.quantile(0.99).toFixed(1)} ms, ${direct.tally.errors} errors (${direct.tally.kinds()})`,
  );
  for (const e of direct.tally.firstErrors) say(`  error: ${e}`);

  let port = first.port;
  let nodes = [first];
  let cap = direct.perSecond;
  const lines: string[] = [];
  if (NODES === 2) {
    await stopNode(first);
    const pooler = await startPgBouncer(dbUrl!.replace(/\/[^/]*$/, '/postgres'));
    others.push(pooler);
    const pooled = new URL(pooler.url);
    pooled.pathname = `/${dbName}`;
    nodes = [await startNode(pooled.toString()), await startNode(pooled.toString())];
    port = await startHaproxy(nodes);
    say(`2 nodes through HAProxy + PgBouncer: capacity ramp (${RAMP_S} s)`);
    const two = await capacity(new Mix(port, vehicles, customers, accepted), RAMP_S);
    cap = two.perSecond;
    const ratio = `2 nodes through HAProxy + PgBouncer: ${Math.round(two.perSecond)} req/s (p99 ${two.tally.quantile(0.99).toFixed(1)} ms) = ${(two.perSecond / direct.perSecond).toFixed(2)} × 1 node direct (${Math.round(direct.perSecond)} req/s, p99 ${direct.tally.quantile(0.99).toFixed(1)} ms)`;
    say(ratio);
    lines.push(ratio);
  }
  const rate = SHARE * cap;
  lines.unshift(
    `capacity ${Math.round(cap)} req/s (closed loop, ${CONNECTIONS} in flight); steady rate ${Math.round(rate)} req/s (${SHARE * 100} %)`,
  );
  say(`steady ${Math.round(rate)} req/s for ${MINUTES} min`);
  const mix = new Mix(port, vehicles, customers, accepted);
  for (const n of nodes) await metricsOf(n); // resets the event-loop histograms: minute 1 starts clean
  const minutes: Minute[] = [];
  const header =
    '| minute | req/s | p50 (ms) | p99 (ms) | errors | RSS (MB, median) | heap used (MB, median) | external (MB, median) | event-loop p99 (ms, worst 5 s) | PG connections | Redis used (MB) |';
  process.stdout.write(`\n${header}\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n`);
  let inFlight = 0;
  let refused = 0;
  const t0 = performance.now();
  let sent = 0;
  for (let m = 1; m <= MINUTES; m++) {
    const tally = new Tally();
    const minuteEnd = t0 + m * 60_000;
    const samples: Promise<Record<string, number>[]>[] = [];
    let nextSample = performance.now() + SAMPLE_MS;
    while (performance.now() < minuteEnd) {
      if (performance.now() >= nextSample) {
        nextSample += SAMPLE_MS;
        samples.push(Promise.all(nodes.map(metricsOf)));
      }
      // open loop: as many requests as the rate owes by now, whatever the answers' pace
      const owed = Math.floor(((performance.now() - t0) / 1000) * rate) - sent;
      for (let i = 0; i < owed; i++) {
        sent += 1;
        if (inFlight >= MAX_IN_FLIGHT) {
          refused += 1;
          tally.errors += 1;
          continue;
        }
        inFlight += 1;
        void timed(mix, tally).finally(() => (inFlight -= 1));
      }
      await sleep(5);
    }
    samples.push(Promise.all(nodes.map(metricsOf)));
    const read = await Promise.all(samples);
    const median = (i: number, name: string) => medianOf(read.map((r) => r[i]![name] ?? 0));
    const [conns] = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName])
    ).rows;
    const info = await redis.info('memory');
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
    const row: Minute = {
      minute: m,
      requests: tally.latencies.length,
      perSecond: tally.latencies.length / 60,
      p50: tally.quantile(0.5),
      p99: tally.quantile(0.99),
      errors: tally.errors,
      rssMb: nodes.map((_, i) => median(i, 'rova_process_resident_memory_bytes') / 1048576),
      heapMb: nodes.map((_, i) => median(i, 'rova_nodejs_heap_size_used_bytes') / 1048576),
      externalMb: nodes.map((_, i) => median(i, 'rova_nodejs_external_memory_bytes') / 1048576),
      loopP99Ms: nodes.map((_, i) =>
        Math.max(...read.map((r) => (r[i]!.rova_nodejs_eventloop_lag_p99_seconds ?? 0) * 1000)),
      ),
      pgConnections: conns!.n,
      redisMb: used / 1048576,
      kinds: tally.kinds(),
    };
    minutes.push(row);
    const f = (a: number[], d = 0) => a.map((x) => x.toFixed(d)).join(' / ');
    process.stdout.write(
      `| ${m} | ${Math.round(row.perSecond)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.errors} | ${f(row.rssMb)} | ${f(row.heapMb)} | ${f(row.externalMb)} | ${f(row.loopP99Ms, 1)} | ${row.pgConnections} | ${row.redisMb.toFixed(1)} |\n`,
    );
    for (const e of tally.firstErrors) process.stdout.write(`  error: ${e}\n`);
  }
  // which kind of request made a minute slow
  process.stdout.write(`\n${minutes.map((m) => `minute ${m.minute}: ${m.kinds}`).join('\n')}\n`);
  for (let t = Date.now(); inFlight > 0 && Date.now() - t < 30_000;) await sleep(50);
  const [overlap] = (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rental_bookings a JOIN rental_bookings b ON a.vehicle_id = b.vehicle_id AND a.id < b.id
        AND a.holds_slot AND b.holds_slot AND a.slot && b.slot`,
    )
  ).rows;
  const second = minutes[Math.min(1, minutes.length - 1)]!;
  const last = minutes[minutes.length - 1]!;
  const errors = minutes.reduce((a, m) => a + m.errors, 0);
  const worstLoop = Math.max(...minutes.flatMap((m) => m.loopP99Ms));
  const verdicts: [string, boolean][] = [
    ...nodes.map((_, i): [string, boolean] => [
      `node ${i + 1} RSS in the last minute within 10 % of the second minute's (${last.rssMb[i]!.toFixed(0)} MB vs ${second.rssMb[i]!.toFixed(0)} MB)`,
      Math.abs(last.rssMb[i]! - second.rssMb[i]!) <= 0.1 * second.rssMb[i]!,
    ]),
    [`event-loop delay p99 ≤ 50 ms in every minute (worst ${worstLoop.toFixed(1)} ms)`, worstLoop <= 50],
    [`0 errors (${errors}${refused ? `, ${refused} not sent: ${MAX_IN_FLIGHT} already in flight` : ''})`, errors === 0],
    [`0 overlapping holding bookings at the end (${overlap!.n})`, overlap!.n === 0],
    [
      `steady rate held (${Math.round(last.perSecond)} req/s in the last minute, ≥ 95 % of ${Math.round(rate)})`,
      last.perSecond >= 0.95 * rate,
    ],
  ];
  const notes = [...lines, ...verdicts.map(([t, met]) => `target ${t}: ${met ? 'MET' : 'MISSED'}`)];
  process.stdout.write(`\n${notes.join('\n')}\n`);
  const outDir = path.join(root, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const name = NODES === 2 ? 'soak-2-nodes' : 'soak';
  writeFileSync(
    path.join(outDir, `${name}.json`),
    JSON.stringify({ at: new Date().toISOString(), minutes, notes }, null, 2),
  );
  const passed = verdicts.every(([, met]) => met);
  process.stdout.write(`\nsoak: ${passed ? 'PASSED' : 'FAILED'}\n`);
  return passed ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  process.stderr.write(`soak: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
} finally {
  for (const n of [...running]) await stopNode(n);
  for (const o of others.reverse()) await o.stop();
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
