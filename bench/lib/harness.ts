/**
 * Load-test harness: runs a scenario's real app and a bare Fastify route answering a same-size JSON body, each
 * in its own child process on a real socket, drives both with autocannon in the same run, and prints a
 * markdown table (req/s, p50, p99, RSS, ratio to bare, CPU per request of the server and of a local PostgreSQL).
 *
 * A scenario file calls `runScenario(spec, import.meta.url)`; the same file runs as parent (load generator)
 * and, forked with BENCH_CHILD=app|bare, as the server under test.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { root } from '../../scripts/ensure-built.mjs';
import { benchServerEnv, benchServerFlags } from './server-flags.js';

/** bench/results/ of the repository (this file runs from .bench-build/bench/lib/, built by bench/run.mjs). */
const RESULTS = `${root}/bench/results/`;

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ScenarioSpec {
  name: string;
  /** Runs in the app child: builds the real app (not listening yet) and the requests to cycle through. */
  setup(): Promise<{
    app: FastifyInstance;
    /** The requests to cycle through, or (with `requests` below) what the parent builds them from. */
    requests: BenchRequest[] | { seed: unknown };
    close?: () => Promise<void>;
  }>;
  /**
   * Builds the requests in the parent from the seed `setup` returned: a long list (600,000 bodies in
   * booking-throughput) made in the server under test and sent over IPC left ~900 MB of its resident memory
   * behind, which the server's own memory figure then carried.
   */
  requests?(seed: unknown): BenchRequest[];
  connections?: number;
  /** Seconds per target. */
  duration?: number;
  /** Each request picks a random variant (instead of every connection walking the list in order). */
  random?: boolean;
  /** Each request takes the next variant, shared by all connections: no two requests send the same one. */
  once?: boolean;
  /** Pass/fail targets printed under the table. */
  targets?: { minRatio?: number; maxP99Ms?: number };
  /** Runs in the parent before the servers start (e.g. a reference measurement); its lines are printed. */
  before?(): Promise<{ lines: string[]; figures: Record<string, number> }>;
  /** Further targets from the app's row, the bare row and `before`'s figures: printed as met/MISSED. */
  verdicts?(ctx: {
    app: Row;
    bare: Row;
    duration: number;
    figures: Record<string, number>;
  }): { target: string; met: boolean }[];
}

interface Ready {
  type: 'ready';
  port: number;
  requests: BenchRequest[] | { seed: unknown };
  random?: boolean;
  once?: boolean;
}
type Msg =
  | Ready
  | { type: 'rss'; rss: number }
  | { type: 'memory'; memory: MemoryFigures }
  | { type: 'cpu'; us: number }
  | { type: 'profile-start' | 'profile-stop'; us: number };

/** The server's memory at the end of its measured run (MB). */
export interface MemoryFigures {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

export interface Row {
  target: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  rssMb: number;
  memory: MemoryFigures;
  non2xx: number;
  errors: number;
  /** Answers by HTTP status (what the non-2xx were). */
  statuses: Record<string, number>;
  /** CPU time the server process spent per answered request in the measured run (µs): steadier than req/s on a busy machine. */
  cpuUsPerReq: number;
  /** The same for the local PostgreSQL server's processes (µs), when one runs on this machine (Linux /proc). */
  dbCpuUsPerReq: number | null;
}

function send(msg: Msg): void {
  process.send?.(msg);
}

async function childApp(spec: ScenarioSpec): Promise<void> {
  const { app, requests, close } = await spec.setup();
  await app.listen({ port: 0, host: '127.0.0.1' });
  send({
    type: 'ready',
    port: (app.server.address() as { port: number }).port,
    requests,
    random: spec.random,
    once: spec.once,
  });
  // process.send serialised the list synchronously; emptied, the server under test does not carry the variants
  // in its heap, where every major GC would mark them
  if (Array.isArray(requests)) requests.length = 0;
  answerParent(`${spec.name}-app`, () => (close ? close() : app.close()));
}

/** A server child's side of the parent's questions: memory, CPU time, the profile of the measured run, stop. */
function answerParent(profileName: string, close: () => Promise<unknown>): void {
  process.on('message', (m: { type: string }) => {
    if (m.type === 'rss') send({ type: 'rss', rss: process.memoryUsage().rss });
    if (m.type === 'memory') send({ type: 'memory', memory: memoryFigures() });
    if (m.type === 'heap-snapshot') writeHeapSnapshotOf(profileName);
    if (m.type === 'cpu') send({ type: 'cpu', us: cpuUs() });
    if (m.type === 'profile-start' || m.type === 'profile-stop') void profile(m.type, profileName);
    if (m.type === 'stop') void close().finally(() => process.exit(0));
  });
}

async function childBare(): Promise<void> {
  const body = process.env.BENCH_BARE_BODY ?? '{}';
  const headers = JSON.parse(process.env.BENCH_BARE_HEADERS ?? '{}') as Record<string, string>;
  const app = Fastify({ logger: false });
  app.all('/*', async (_req, reply) => reply.headers(headers).type('application/json; charset=utf-8').send(body));
  await app.listen({ port: 0, host: '127.0.0.1' });
  send({ type: 'ready', port: (app.server.address() as { port: number }).port, requests: [] });
  answerParent(`${process.env.BENCH_NAME ?? 'bench'}-bare`, () => app.close());
}

function memoryFigures(): MemoryFigures {
  const m = process.memoryUsage();
  const mb = (n: number) => n / 1048576;
  return {
    rssMb: mb(m.rss),
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
  };
}

/** BENCH_HEAP_SNAPSHOT=1: the app's V8 heap at the end of the measured run, in bench/results/<scenario>-app.heapsnapshot. */
function writeHeapSnapshotOf(name: string): void {
  const outDir = RESULTS;
  mkdirSync(outDir, { recursive: true });
  writeHeapSnapshot(`${outDir}${name}.heapsnapshot`);
  send({ type: 'memory', memory: memoryFigures() });
}

let profiler: Session | null = null;

/**
 * BENCH_CPU_PROF: the V8 CPU profile of the measured run only (not the set-up, not the warm-up), written to
 * bench/results/<scenario>-app.cpuprofile (open it in Chrome DevTools); BENCH_CPU_PROF=all: the bare route's too.
 */
async function profile(step: 'profile-start' | 'profile-stop', name: string): Promise<void> {
  if (step === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  } else if (profiler) {
    const { profile: p } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    profiler = null;
    const outDir = RESULTS;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(`${outDir}${name}.cpuprofile`, JSON.stringify(p));
  }
  send({ type: step, us: 0 });
}

function profiled(role: 'app' | 'bare'): boolean {
  return process.env.BENCH_CPU_PROF === 'all' || (role === 'app' && !!process.env.BENCH_CPU_PROF);
}

function start(
  file: string,
  role: 'app' | 'bare',
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  // both servers with the V8 flags `npm start` gives the real one, in plain Node (bench/run.mjs built the files)
  const child = fork(file, [], {
    execArgv: benchServerFlags(),
    env: { ...benchServerEnv(process.env), ...env, BENCH_CHILD: role },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
    child.on('message', (m: Msg) => {
      if (m.type === 'ready') resolve({ child, ready: m });
    });
  });
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** The server child's memory figures (`heap-snapshot`: after writing its heap snapshot). */
export function askMemory(child: ChildProcess, type: 'memory' | 'heap-snapshot' = 'memory'): Promise<MemoryFigures> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if (m.type === 'memory') {
        child.off('message', on);
        resolve(m.memory);
      }
    };
    child.on('message', on);
    child.send({ type });
  });
}

function ask<K extends 'rss' | 'cpu' | 'profile-start' | 'profile-stop'>(
  child: ChildProcess,
  type: K,
): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m.type === 'rss' ? m.rss : m.type === 'cpu' ? m.us : 0);
      }
    };
    child.on('message', on);
    child.send({ type });
  });
}

/** CPU time (µs) of every `postgres` process on this machine so far, or null where /proc cannot tell. */
function postgresCpuUs(): number | null {
  try {
    const tick = 1e6 / 100; // USER_HZ is 100 on Linux
    let total = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      total += (Number(f[11]) + Number(f[12])) * tick;
    }
    return total > 0 ? total : null;
  } catch {
    return null;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 5000);
    child.removeAllListeners('exit');
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ type: 'stop' });
  });
}

async function load(
  target: string,
  port: number,
  variants: BenchRequest[],
  connections: number,
  duration: number,
  child: ChildProcess,
  pick: Pick<Ready, 'random' | 'once'> = {},
  prof = false,
): Promise<Row> {
  const url = `http://127.0.0.1:${port}`;
  // autocannon walks `requests` in the same order on every connection: for write scenarios that means 100
  // connections sending the same body at once, so a random scenario draws a variant per request and a `once`
  // scenario hands each request the next unused one
  let next = 0;
  const draw = pick.once
    ? () => variants[next++ % variants.length]!
    : () => variants[Math.floor(Math.random() * variants.length)]!;
  const requests =
    pick.random || pick.once ? [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, ...draw() }) }] : variants;
  // Warm-up (JIT, caches) before measuring.
  await autocannon({ url, connections, duration: Math.min(2, duration), requests });
  if (prof) await ask(child, 'profile-start');
  const [cpu0, db0] = [await ask(child, 'cpu'), postgresCpuUs()];
  const r = await autocannon({ url, connections, duration, requests });
  const [cpu1, db1] = [await ask(child, 'cpu'), postgresCpuUs()];
  if (prof) await ask(child, 'profile-stop');
  const answered = Math.max(1, r.requests.total);
  const memory = await askMemory(child);
  return {
    target,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rssMb: memory.rssMb,
    memory,
    cpuUsPerReq: (cpu1 - cpu0) / answered,
    dbCpuUsPerReq: db0 !== null && db1 !== null ? (db1 - db0) / answered : null,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses: Object.fromEntries(
      Object.entries(
        (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {},
      ).map(([k, v]) => [k, v.count]),
    ),
  };
}

export function markdownTable(rows: Row[]): string {
  const bare = rows[0]!;
  const lines = [
    '| target | req/s | p50 (ms) | p99 (ms) | RSS (MB) | ratio to bare | non-2xx | server CPU µs/req | PostgreSQL CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.target} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${r.rssMb.toFixed(0)} | ${(r.reqPerSec / bare.reqPerSec).toFixed(2)} | ${r.non2xx + r.errors} | ${Math.round(r.cpuUsPerReq)} | ${r.dbCpuUsPerReq === null ? '–' : Math.round(r.dbCpuUsPerReq)} |`,
    );
  }
  return lines.join('\n');
}

async function parent(spec: ScenarioSpec, file: string): Promise<void> {
  const { values } = parseArgs({
    options: { duration: { type: 'string' }, connections: { type: 'string' } },
    strict: true,
  });
  const duration = Number(values.duration ?? spec.duration ?? 10);
  const connections = Number(values.connections ?? spec.connections ?? 50);
  process.stdout.write(`bench ${spec.name}: ${connections} connections, ${duration} s per target\n`);
  const reference = spec.before ? await spec.before() : { lines: [], figures: {} };
  for (const line of reference.lines) process.stdout.write(`${line}\n`);
  const app = await start(file, 'app');
  const made = app.ready.requests;
  const requests = Array.isArray(made) ? made : (spec.requests?.(made.seed) ?? []);
  if (requests.length === 0) throw new Error('the scenario produced no requests');
  // Sample the real answer so the bare route sends a body of the same size.
  // (a `once` scenario samples its last variant, which its run reaches only after all the others)
  const first = app.ready.once ? requests[requests.length - 1]! : requests[0]!;
  const sample = await fetch(`http://127.0.0.1:${app.ready.port}${first.path}`, {
    method: first.method,
    headers: first.headers,
    body: first.body,
  });
  const body = await sample.text();
  if (!sample.ok) throw new Error(`the scenario's first request answered ${sample.status}: ${body.slice(0, 300)}`);
  const bare = await start(file, 'bare', {
    BENCH_NAME: spec.name,
    BENCH_BARE_BODY: body,
    BENCH_BARE_HEADERS: JSON.stringify({ 'cache-control': sample.headers.get('cache-control') ?? 'no-store' }),
  });
  try {
    const rows: Row[] = [];
    rows.push(
      await load(
        'bare Fastify route (same-size JSON)',
        bare.ready.port,
        requests,
        connections,
        duration,
        bare.child,
        app.ready,
        profiled('bare'),
      ),
    );
    rows.push(
      await load(
        `${spec.name} (real app)`,
        app.ready.port,
        requests,
        connections,
        duration,
        app.child,
        app.ready,
        profiled('app'),
      ),
    );
    const table = markdownTable(rows);
    const appRow = rows[1]!;
    const ratio = appRow.reqPerSec / rows[0]!.reqPerSec;
    const notes: string[] = [
      `response body ${Buffer.byteLength(body)} bytes; ${requests.length} request variants; app answers by status ${JSON.stringify(appRow.statuses)}, errors/timeouts ${appRow.errors}`,
    ];
    if (spec.targets?.minRatio !== undefined)
      notes.push(`target ratio ≥ ${spec.targets.minRatio}: ${ratio >= spec.targets.minRatio ? 'met' : 'MISSED'}`);
    if (spec.targets?.maxP99Ms !== undefined)
      notes.push(`target p99 ≤ ${spec.targets.maxP99Ms} ms: ${appRow.p99 <= spec.targets.maxP99Ms ? 'met' : 'MISSED'}`);
    for (const v of spec.verdicts?.({ app: appRow, bare: rows[0]!, duration, figures: reference.figures }) ?? [])
      notes.push(`target ${v.target}: ${v.met ? 'met' : 'MISSED'}`);
    notes.push(memoryVerdict(appRow.memory, spec.name));
    if (process.env.BENCH_HEAP_SNAPSHOT) {
      const m = await askMemory(app.child, 'heap-snapshot');
      notes.push(`heap snapshot: bench/results/${spec.name}-app.heapsnapshot (RSS ${m.rssMb.toFixed(0)} MB after it)`);
    }
    notes.push(...reference.lines);
    process.stdout.write(`\n${table}\n\n${notes.join('; ')}\n`);
    const outDir = RESULTS;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(`${outDir}${spec.name}.md`, `${table}\n\n${notes.join('; ')}\n`);
    writeFileSync(
      `${outDir}${spec.name}.json`,
      JSON.stringify({ at: new Date().toISOString(), connections, duration, rows, notes }, null, 2),
    );
  } finally {
    await stop(bare.child);
    await stop(app.child);
  }
}

/** Resident memory a server may hold at the end of a bench: 256 MB on PostgreSQL, 384 MB on PGlite (its WASM heap). */
export function memoryTargetMb(name: string): number {
  return name.endsWith('-pglite') ? 384 : 256;
}

/** `memory at the end: RSS … MB (target ≤ … MB: met), heap used …, external …`. */
export function memoryVerdict(m: MemoryFigures, name: string): string {
  const target = memoryTargetMb(name);
  return `memory at the end: RSS ${m.rssMb.toFixed(0)} MB, heap used ${m.heapUsedMb.toFixed(0)} MB of ${m.heapTotalMb.toFixed(0)} MB, external ${m.externalMb.toFixed(0)} MB (array buffers ${m.arrayBuffersMb.toFixed(0)} MB); target RSS ≤ ${target} MB: ${m.rssMb <= target ? 'met' : 'MISSED'}`;
}

export async function runScenario(spec: ScenarioSpec, fileUrl: string): Promise<void> {
  const role = process.env.BENCH_CHILD;
  if (role === 'app') return childApp(spec);
  if (role === 'bare') return childBare();
  return parent(spec, fileURLToPath(fileUrl));
}
