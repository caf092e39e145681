// `npm run test:smoke`: the README quick start on whatever Node runs this script (CI runs it on the machine's own
// Node 20 while every suite runs on Node 24). Starts the server as `npm start` does (scripts/start.mjs: dist/, demo
// data, embedded database in a temporary DATA_DIR), waits for /readyz, sends one request per namespace, stops it with
// SIGTERM, then runs the CLI against the same data. Prints one line per check and a closing "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-smoke-'));
const adminKey = `smoke-admin-${process.pid}-${Date.now()}`;
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: dataDir,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_FORMAT: 'json',
  ROVA_BOOTSTRAP_ADMIN_KEY: adminKey,
  // Offline: the rate sources refuse at once, so the first sync falls back to the bundled file.
  FX_EXCHANGERATE_API_URL: 'http://127.0.0.1:9/',
  FX_ECB_URL: 'http://127.0.0.1:9/ecb.xml',
};
let passed = 0;
let failed = 0;
const check = (name, ok, detail = '') => {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : ` — ${detail}`}`);
};

console.log(`smoke on node ${process.version}`);
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  env: { ...SERVER_ENV, ...env },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let log = '';
server.stdout.on('data', (b) => (log += b));
server.stderr.on('data', (b) => (log += b));
const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));

try {
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within 240 s:\n${log.slice(-3000)}`)), 240_000);
    const look = () => {
      const m = /ready at (http:\/\/[^/\s]+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on('data', look);
    server.stderr.on('data', look);
    void exited.then((code) => reject(new Error(`exited with ${code} before ready:\n${log.slice(-3000)}`)));
  });
  check('start (scripts/start.mjs, demo data)', true);
  const get = async (url, headers = {}) => {
    const res = await fetch(base + url, { headers });
    const body = await res.text();
    return { status: res.status, body };
  };
  const ready = await get('/readyz');
  check('GET /readyz → 200', ready.status === 200, `${ready.status} ${ready.body.slice(0, 200)}`);
  const requests = [
    [
      'wc/v3',
      '/wp-json/wc/v3/products?per_page=1',
      { 'x-rova-api-key': adminKey },
      (b) => Array.isArray(JSON.parse(b)),
    ],
    [
      'rova-fx/v1',
      '/wp-json/rova-fx/v1/currencies',
      { 'x-rova-api-key': adminKey },
      (b) => 'currencies' in JSON.parse(b),
    ],
    ['rova-rental/v1', '/wp-json/rova-rental/v1/health', {}, (b) => JSON.parse(b).success === true],
    [
      'rova-rental/v2',
      '/wp-json/rova-rental/v2/vehicles/search?pickup_date=2030-01-10&return_date=2030-01-12',
      {},
      (b) => JSON.parse(b).success === true,
    ],
    [
      'rova/v1',
      '/wp-json/rova/v1/webhooks/event-types',
      { 'x-rova-api-key': adminKey },
      (b) => JSON.parse(b).length > 0,
    ],
  ];
  for (const [ns, url, headers, shape] of requests) {
    const r = await get(url, headers);
    let ok = r.status === 200;
    try {
      ok &&= shape(r.body);
    } catch {
      ok = false;
    }
    check(`${ns}: GET ${url.split('?')[0]} → 200`, ok, `${r.status} ${r.body.slice(0, 200)}`);
  }
  // the demo store asks for its rental terms before booking (issue 36.4): the widget shows them with a required box
  const rules = await get('/wp-json/rova-rental/v2/booking/driver-rules');
  let terms = null;
  try {
    terms = JSON.parse(rules.body).data.terms;
  } catch {
    terms = null;
  }
  check(
    'demo data: GET /booking/driver-rules → rental terms to accept, with their version',
    rules.status === 200 && Boolean(terms?.version) && Boolean(terms?.text || terms?.url),
    `${rules.status} ${rules.body.slice(0, 200)}`,
  );
  server.kill('SIGTERM');
  check('SIGTERM → exit 0', (await exited) === 0, log.slice(-1000));

  const cli = (args) =>
    spawnSync(process.execPath, [path.join(root, 'scripts/rova.mjs'), ...args], {
      cwd: root,
      env: { ...env, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 120_000,
    });
  const v = cli(['--version']);
  check('rova --version', v.status === 0 && /^rova \d+\.\d+\.\d+/.test(v.stdout), v.stderr);
  const k = cli(['apikey', 'create', '--user', 'admin', '--name', 'smoke', '--scopes', 'read']);
  check(
    'rova apikey create (only the key on stdout)',
    k.status === 0 && /^rova_[A-Za-z0-9_-]{40,}\n$/.test(k.stdout),
    `${k.status} ${k.stdout} ${k.stderr}`,
  );
  const l = cli(['ledger', 'verify']);
  check('rova ledger verify', l.status === 0, `${l.status} ${l.stdout} ${l.stderr}`);
} catch (err) {
  check('smoke', false, err instanceof Error ? err.message : String(err));
} finally {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
