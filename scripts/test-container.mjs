// `npm run test:container`: the Containerfile's image, built and run here with real containers (podman with runc).
// 1. A local base, since no image registry is reachable here: Debian trixie by `debootstrap --variant=minbase`,
//    slimmed as Debian's slim images are (no apt lists or caches, docs, man pages, locales), with Node 24 (the running
//    node when it is 24, else the npm package node@24) and npm in /usr/local as in the official node images.
// 2. The image (`podman build --format docker`, so HEALTHCHECK is kept): size printed, ≤ 400 MB; only package.json,
//    migrations/, the production dependencies and dist/ in /app; user 10001.
// 3. The README's "Run in a container": the embedded database in a volume — /readyz, the quick start's curl steps as
//    documented, the health check, a non-root PID 1 node with the server's flags; a product written, the container
//    stopped (exit 0) and a new one on the same volume still has it.
// 4. This machine's PostgreSQL and Redis (host network): /readyz 200 within 30 s, the migrations applied once; a second
//    container on the same database starts without migrating again; SIGTERM → /readyz 503 while draining → exit 0.
// 5. deploy/kube/ with `podman kube play`: the migration Job's pod, then the Deployment; /readyz through the port.
// Everything it made (containers, pods, volumes, secrets, images, databases) is removed at the end, whatever happened.
// Needs root, podman, runc and debootstrap (apt-get install podman runc debootstrap). ROVA_CONTAINER_BASE_CACHE=DIR
// keeps the debootstrap tree in DIR between a developer's runs (CI builds it every time).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import YAML from 'yaml';
import { freeServerPort } from './ports.mjs';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pgUrl = process.env.ROVA_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.ROVA_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const MIRROR = process.env.ROVA_CONTAINER_MIRROR || 'http://deb.debian.org/debian';
const BASE_CACHE = process.env.ROVA_CONTAINER_BASE_CACHE || '';
// The Containerfile's base is Debian trixie: its PostgreSQL 17 client, the Compose file's PostgreSQL major version.
const SUITE = 'trixie';
const SUITE_VERSION_PREFIX = '13';
const MAX_IMAGE_BYTES = 400e6; // as podman prints sizes: MB of 10^6 bytes
const RUN_TIMEOUT_MS = 28 * 60_000;
const DRAIN_MS = 3000;
const SHUTDOWN_TIMEOUT_MS = 10_000;

const began = Date.now();
const say = (m) => console.log(`container: ${((Date.now() - began) / 1000).toFixed(0)} s: ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const id = randomBytes(4).toString('hex');
const work = mkdtempSync(path.join(tmpdir(), 'rova-container-'));
const confFile = path.join(work, 'containers.conf');
// crun refuses this machine's cgroup layout and the default ulimits are refused: runc, and no default ulimits.
writeFileSync(confFile, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
const env = { ...process.env, CONTAINERS_CONF: confFile };
const ADMIN_KEY = `container-admin-${randomBytes(12).toString('hex')}`;
// For a developer going over the checks again: ROVA_CONTAINER_KEEP_IMAGES=1 keeps the base and the image (their
// tags are printed), ROVA_CONTAINER_REUSE=BASE_TAG,IMAGE_TAG uses them instead of building. CI sets neither.
const reuse = process.env.ROVA_CONTAINER_REUSE?.split(',') ?? null;
const keepImages = process.env.ROVA_CONTAINER_KEEP_IMAGES === '1';
const baseTag = reuse?.[0] ?? `localhost/rova-test-base-${id}:24`;
const imageTag = reuse?.[1] ?? `localhost/rova-test-${id}:latest`;

const made = {
  containers: [],
  volumes: [],
  secrets: [],
  kubeFiles: [],
  databases: [],
  servers: [],
  imagesBefore: null,
};
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}

/** Runs a command; resolves with its exit code and output; rejects after timeoutMs (the process is killed). */
function run(cmd, args, { timeoutMs = 120_000, input, logFile } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')}: no answer within ${timeoutMs / 1000} s\n${tail(stderr + stdout)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (logFile) writeFileSync(logFile, stdout + stderr);
      resolve({ code, stdout, stderr });
    });
    // a command that exits before reading its (empty) input makes this write fail with EPIPE: not an error of the
    // command (its exit code says how it went), and unhandled it would end this script without cleaning up
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}
const tail = (s, n = 30) => s.trim().split('\n').slice(-n).join('\n');
// podman's own complaints about systemd timers for health checks (no systemd here) are noise, not failures
const noise = (s) =>
  s
    .split('\n')
    .filter((l) => l.trim() && !/systemd|failed to connect to syslog/.test(l))
    .join('\n');

async function podman(args, opts = {}) {
  const r = await run('podman', ['--runtime', 'runc', ...args], opts);
  if (r.code !== 0 && !opts.allowFail)
    throw new Error(`podman ${args.join(' ')} exited ${r.code}:\n${tail(noise(r.stderr) || r.stdout)}`);
  return r;
}

async function sh(script, opts = {}) {
  const r = await run('bash', ['-euo', 'pipefail', '-c', script], opts);
  if (r.code !== 0) throw new Error(`${script.slice(0, 200)}: exit ${r.code}\n${tail(r.stderr + r.stdout)}`);
  return r.stdout;
}

/** GET a URL; the status and body, or status 0 when nothing answered. */
async function get(url, headers = {}) {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

/** Waits until GET url answers 200, at most timeoutMs; fails early when the container has exited. */
async function waitReady(url, container, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    const r = await get(url);
    if (r.status === 200) return Date.now() - t0;
    if (container) {
      const s = await podman(['inspect', '--format', '{{.State.Status}}', container], { allowFail: true });
      if (s.code === 0 && s.stdout.trim() === 'exited') {
        const logs = await podman(['logs', container], { allowFail: true });
        throw new Error(`${container} exited before ${url} answered 200:\n${tail(logs.stdout + logs.stderr)}`);
      }
    }
    if (Date.now() - t0 > timeoutMs) {
      const logs = container ? await podman(['logs', container], { allowFail: true }) : { stdout: '', stderr: '' };
      throw new Error(
        `${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${r.status})\n${tail(logs.stdout + logs.stderr)}`,
      );
    }
    await sleep(500);
  }
}

async function logsOf(container) {
  const r = await podman(['logs', container], { allowFail: true });
  return r.stdout + r.stderr;
}

async function cleanup() {
  for (const f of made.kubeFiles)
    await podman(['kube', 'down', f], { allowFail: true, timeoutMs: 60_000 }).catch(() => {});
  if (made.containers.length)
    await podman(['rm', '-f', '-v', '--ignore', '-t', '0', ...made.containers], {
      allowFail: true,
      timeoutMs: 60_000,
    }).catch(() => {});
  if (made.volumes.length) await podman(['volume', 'rm', '-f', ...made.volumes], { allowFail: true }).catch(() => {});
  if (made.secrets.length) await podman(['secret', 'rm', ...made.secrets], { allowFail: true }).catch(() => {});
  // every image this run made: the base, the build stage (untagged) and the image
  if (made.imagesBefore && keepImages) {
    const keep = [baseTag, imageTag].map(async (t) =>
      (await podman(['image', 'inspect', '--format', '{{.Id}}', t], { allowFail: true })).stdout.trim(),
    );
    for (const i of await Promise.all(keep)) made.imagesBefore.add(`sha256:${i.replace(/^sha256:/, '')}`);
    console.log(`container: kept ${baseTag} and ${imageTag} (ROVA_CONTAINER_KEEP_IMAGES=1)`);
  }
  if (made.imagesBefore) {
    const now = await podman(['images', '-a', '-q', '--no-trunc'], { allowFail: true }).catch(() => ({ stdout: '' }));
    const mine = now.stdout.split('\n').filter((i) => i && !made.imagesBefore.has(i));
    if (mine.length)
      await podman(['rmi', '-f', ...new Set(mine)], { allowFail: true, timeoutMs: 120_000 }).catch(() => {});
  }
  for (const s of made.servers) s.close();
  if (made.databases.length) {
    const admin = new pg.Client({ connectionString: pgUrl });
    try {
      await admin.connect();
      for (const db of made.databases) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    } catch (err) {
      console.log(`container: could not drop ${made.databases.join(', ')}: ${err.message}`);
    } finally {
      await admin.end().catch(() => {});
    }
  }
  rmSync(work, { recursive: true, force: true });
}

/** A new database on this machine's PostgreSQL (dropped at the end), or on another server (gone with its container). */
async function createDatabase(prefix, server = pgUrl) {
  const name = `${prefix}_${id}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  if (server === pgUrl) made.databases.push(name);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

async function sqlOne(url, text) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows[0];
  } finally {
    await c.end();
  }
}

// ---- 1. the local base ----------------------------------------------------------------------------------------

async function node24() {
  if (process.versions.node.split('.')[0] === '24') return process.execPath;
  say(`this is node ${process.version}: installing the npm package node@24 for the base`);
  await sh(`npm install --no-audit --no-fund --no-save --prefix ${work}/node24 node@24 >/dev/null`, {
    timeoutMs: 300_000,
  });
  return realpathSync(path.join(work, 'node24/node_modules/node/bin/node'));
}

function hostNpmDir() {
  const bin = spawnSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (!bin) throw new Error('npm not found on PATH');
  const cli = realpathSync(bin); // …/npm/bin/npm-cli.js
  const dir = path.dirname(path.dirname(cli));
  if (!existsSync(path.join(dir, 'bin/npm-cli.js'))) throw new Error(`cannot find npm's package directory from ${bin}`);
  return dir;
}

async function buildBase() {
  let rootfs = path.join(work, 'rootfs');
  // a tree cached by an older run of this script may be another release (bookworm before the PostgreSQL client)
  const versionFile = path.join(BASE_CACHE, 'rootfs/etc/debian_version');
  const cached =
    BASE_CACHE && existsSync(versionFile) && readFileSync(versionFile, 'utf8').startsWith(SUITE_VERSION_PREFIX);
  if (cached) {
    say(`base: the debootstrap tree cached in ${BASE_CACHE} (ROVA_CONTAINER_BASE_CACHE)`);
    // cp -a, not fs.cpSync: the tree has device nodes (dev/ptmx, dev/null), which cpSync cannot copy
    await sh(`cp -a ${path.join(BASE_CACHE, 'rootfs')} ${rootfs}`);
  } else {
    const t0 = Date.now();
    say(`base: debootstrap --variant=minbase ${SUITE} (${MIRROR})`);
    const target = BASE_CACHE ? path.join(BASE_CACHE, 'rootfs') : rootfs;
    if (BASE_CACHE) rmSync(target, { recursive: true, force: true });
    if (BASE_CACHE) mkdirSync(BASE_CACHE, { recursive: true });
    const r = await run('debootstrap', ['--variant=minbase', SUITE, target, MIRROR], {
      timeoutMs: 15 * 60_000,
      logFile: path.join(work, 'debootstrap.log'),
    });
    if (r.code !== 0) throw new Error(`debootstrap exited ${r.code}:\n${tail(r.stdout + r.stderr)}`);
    say(`base: debootstrap took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    if (BASE_CACHE) await sh(`cp -a ${target} ${rootfs}`);
  }
  const node = await node24();
  const npmDir = hostNpmDir();
  // the egress of this machine may need its own CA (npm's cafile): the base's npm gets the same, for the build only
  // (asked of npm, else the CA bundle Node itself is told about: .ci/run puts another node's npm prefix first)
  const configured = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout.trim();
  const cafile = [configured, process.env.npm_config_cafile, process.env.NODE_EXTRA_CA_CERTS].find(
    (f) => f && f !== 'null' && f !== 'undefined' && existsSync(f),
  );
  const withCa = Boolean(cafile);
  await sh(`cd ${rootfs}
    rm -rf var/lib/apt/lists/* var/cache/apt/* usr/share/man/* usr/share/info/* usr/share/locale/* usr/share/groff \
      usr/share/lintian var/log/*.log
    find usr/share/doc -type f ! -name copyright -delete
    mkdir -p usr/local/bin usr/local/lib/node_modules usr/local/etc
    cp ${node} usr/local/bin/node
    cp -a ${npmDir} usr/local/lib/node_modules/npm
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js usr/local/bin/npm
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js usr/local/bin/npx
    ${withCa ? `cp ${cafile} usr/local/etc/build-ca.crt && echo cafile=/usr/local/etc/build-ca.crt > usr/local/etc/npmrc` : 'true'}`);
  await sh(
    `tar -C ${rootfs} -c . | podman --runtime runc import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]' - ${baseTag} >/dev/null`,
    { timeoutMs: 300_000 },
  );
  rmSync(rootfs, { recursive: true, force: true });
  const v = await podman(['run', '--rm', baseTag, 'node', '--version']);
  say(`base: ${baseTag} (node ${v.stdout.trim()})`);
}

// ---- PostgreSQL 17, as the Compose file runs it -----------------------------------------------------------------

/**
 * Starts PostgreSQL 17 (Debian trixie's, the major version of deploy/compose.yaml's and of the image's pg_dump and
 * pg_restore) in a container of the base on the host network, on a free port, trust auth on 127.0.0.1; resolves with
 * a function that waits until it answers and gives its URL. This machine's own PostgreSQL is 15: pg_dump 17 dumps it,
 * but pg_restore 17 restores only into 17 or newer (it sets transaction_timeout, unknown before 17).
 */
async function startPostgres17() {
  const port = await freeServerPort();
  const name = `rova-test-pg17-${id}`;
  made.containers.push(name);
  const script = `set -e
    mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/rova-test.conf
    printf '#!/bin/sh\\nexit 101\\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-17 >/dev/null
    install -d -o postgres -g postgres /var/lib/rova-pg17 /run/postgresql
    su postgres -s /bin/sh -c '/usr/lib/postgresql/17/bin/initdb -D /var/lib/rova-pg17 -A trust -U postgres >/dev/null'
    exec su postgres -s /bin/sh -c 'exec /usr/lib/postgresql/17/bin/postgres -D /var/lib/rova-pg17 -p ${port} -c listen_addresses=127.0.0.1 -k /run/postgresql'`;
  await podman(['run', '-d', '--name', name, '--network', 'host', '--entrypoint', 'bash', baseTag, '-c', script]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return async () => {
    const t0 = Date.now();
    for (;;) {
      const c = new pg.Client({ connectionString: url });
      try {
        await c.connect();
        await c.end();
        say(
          `PostgreSQL 17 in a container: answering ${((Date.now() - t0) / 1000).toFixed(0)} s after it was waited for`,
        );
        return url;
      } catch {
        await c.end().catch(() => {});
      }
      const st = await podman(['inspect', '--format', '{{.State.Status}}', name], { allowFail: true });
      if (st.stdout.trim() === 'exited' || Date.now() - t0 > 300_000)
        throw new Error(`PostgreSQL 17 in ${name} did not start:\n${tail(await logsOf(name))}`);
      await sleep(1000);
    }
  };
}

// ---- the quick start's curl steps, from the README ------------------------------------------------------------

function quickStartSteps() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## Quick start$/m)[1]?.split(/^## /m)[0] ?? '';
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const curls = blocks.find((b) => /^curl /m.test(b));
  if (!curls) throw new Error('README: no curl block in the Quick start');
  return curls
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s{2,}#[^'"]*$/, '').trim())
    .filter((l) => l.startsWith('curl '));
}

// ---- main -----------------------------------------------------------------------------------------------------

const watchdog = setTimeout(async () => {
  console.log(`container: the run took over ${RUN_TIMEOUT_MS / 60_000} minutes; stopping`);
  await cleanup().catch(() => {});
  console.log(`container: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, RUN_TIMEOUT_MS);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, async () => {
    await cleanup().catch(() => {});
    process.exit(1);
  });

let error = null;
try {
  for (const bin of ['podman', 'runc', 'debootstrap'])
    if (spawnSync('bash', ['-c', `command -v ${bin}`]).status !== 0)
      throw new Error(`${bin} is not installed: apt-get install podman runc debootstrap`);
  made.imagesBefore = new Set((await podman(['images', '-a', '-q', '--no-trunc'])).stdout.split('\n').filter(Boolean));

  if (!reuse) await buildBase();

  // ---- 2. the image
  let t0 = Date.now();
  if (!reuse) {
    say('build: podman build --format docker --build-arg BASE=… (npm ci, npm run build, production dependencies)');
    const buildLog = path.join(work, 'build.log');
    const b = await podman(
      [
        'build',
        '--format',
        'docker',
        '--build-arg',
        `BASE=${baseTag}`,
        '-t',
        imageTag,
        '-f',
        path.join(root, 'Containerfile'),
        root,
      ],
      { timeoutMs: 20 * 60_000, allowFail: true, logFile: buildLog },
    );
    if (b.code !== 0) throw new Error(`podman build exited ${b.code}:\n${tail(b.stdout + b.stderr, 40)}`);
    say(`build: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const inspected = JSON.parse((await podman(['image', 'inspect', imageTag])).stdout)[0];
  const { User: user, Entrypoint: entry } = inspected.Config;
  const healthcheck = inspected.Healthcheck ?? inspected.Config.Healthcheck;
  const [entrypoint, health] = [JSON.stringify(entry), JSON.stringify(healthcheck ?? null)];
  const size = Number(inspected.Size);
  const baseSize = Number((await podman(['image', 'inspect', '--format', '{{.Size}}', baseTag])).stdout.trim());
  console.log(
    `container: image size ${(size / 1e6).toFixed(0)} MB (the local base ${(baseSize / 1e6).toFixed(0)} MB: Debian minbase slimmed + Node 24 + npm; Rova's layers ${((size - baseSize) / 1e6).toFixed(0)} MB)`,
  );
  check(
    `image ≤ ${MAX_IMAGE_BYTES / 1e6} MB on the local base`,
    size <= MAX_IMAGE_BYTES,
    `${(size / 1e6).toFixed(0)} MB`,
  );
  check('image runs as user 10001', user === '10001:10001', user);
  check(
    'image entrypoint is node with the flags of scripts/server-flags.mjs',
    entrypoint === JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'dist/main.js']),
    entrypoint,
  );
  check('image health check asks /readyz', /\/readyz/.test(health), health.slice(0, 120));
  const inside = await podman([
    'run',
    '--rm',
    '--entrypoint',
    'sh',
    imageTag,
    '-c',
    'ls -A /app | tr "\\n" " "; echo; for d in esbuild vite typescript vitest; do [ -e node_modules/$d ] && echo "dev:$d"; done; ls -A /root/.npm 2>/dev/null | head -1; true',
  ]);
  const [listing, ...rest] = inside.stdout.trim().split('\n');
  check(
    '/app holds package.json, migrations, node_modules and dist only',
    listing.trim() === 'dist migrations node_modules package.json',
    listing,
  );
  check('no dev dependency and no npm cache in the image', rest.filter(Boolean).length === 0, rest.join(', '));

  // PostgreSQL 17 for the backup and restore of section 4: apt-get and initdb run meanwhile
  const postgres17 = await startPostgres17();

  // ---- 3. the README's "Run in a container": embedded database in a volume
  const demoPort = await freeServerPort();
  const volume = `rova-test-data-${id}`;
  made.volumes.push(volume);
  const demo = `rova-test-demo-${id}`;
  made.containers.push(demo);
  t0 = Date.now();
  // as in the README (there: -p 8080:8080, --name rova, -v rova-data:…, and the image `rova`)
  await podman([
    'run',
    '-d',
    '--name',
    demo,
    '-p',
    `127.0.0.1:${demoPort}:8080`,
    '-v',
    `${volume}:/var/lib/rova`,
    '-e',
    'ROVA_DEMO=1',
    '-e',
    `ROVA_BOOTSTRAP_ADMIN_KEY=${ADMIN_KEY}`,
    imageTag,
  ]);
  const demoBase = `http://127.0.0.1:${demoPort}`;
  const demoReady = await waitReady(`${demoBase}/readyz`, demo, 120_000);
  say(
    `embedded database: /readyz 200 after ${(demoReady / 1000).toFixed(1)} s (first start: migrations and demo data)`,
  );
  const hc = await podman(['healthcheck', 'run', demo], { allowFail: true });
  check(
    'HEALTHCHECK passes on a ready container (podman healthcheck run)',
    hc.code === 0,
    noise(hc.stderr + hc.stdout),
  );
  const uid = (await podman(['exec', demo, 'id', '-u'])).stdout.trim();
  check('the server runs as a non-root user', uid === '10001', `uid ${uid}`);
  const pid1 = (await podman(['exec', demo, 'cat', '/proc/1/cmdline'])).stdout.split('\0').filter(Boolean).join(' ');
  const pid1User = (await podman(['exec', demo, 'stat', '-c', '%u', '/proc/1'])).stdout.trim();
  check(
    'PID 1 is node with the server flags, as the non-root user',
    pid1 === ['node', ...SERVER_NODE_FLAGS, 'dist/main.js', 'serve'].join(' ') && pid1User === '10001',
    `${pid1} (uid ${pid1User})`,
  );

  const steps = quickStartSteps();
  check("README's quick start has its three curl steps", steps.length === 3, `${steps.length}`);
  env.ADMIN_KEY = ADMIN_KEY;
  const outputs = [];
  for (const step of steps) {
    const cmd = step.replaceAll('http://127.0.0.1:8080', demoBase);
    const r = await run('bash', ['-c', cmd], { timeoutMs: 30_000 });
    outputs.push(r.code === 0 ? r.stdout : `exit ${r.code}: ${r.stderr}`);
  }
  const json = (s) => {
    try {
      return JSON.parse(s);
    } catch {
      return undefined;
    }
  };
  check(
    'quick start 1: the discovery index (first 300 characters)',
    /^\{"/.test(outputs[0] ?? '') && (outputs[0] ?? '').replace(/\n$/, '').length === 300,
    (outputs[0] ?? '').slice(0, 80),
  );
  const products = json(outputs[1] ?? '');
  check(
    'quick start 2: three demo products with the admin key',
    Array.isArray(products) && products.length === 3 && products.every((p) => p.id && p.name),
    (outputs[1] ?? '').slice(0, 100),
  );
  const converted = json(outputs[2] ?? '');
  check(
    'quick start 3: rova-fx/v1/convert answers in EUR',
    converted !== undefined && /EUR/.test(outputs[2] ?? ''),
    (outputs[2] ?? '').slice(0, 120),
  );

  const created = await fetch(`${demoBase}/wp-json/wc/v3/products`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Rova-API-Key': ADMIN_KEY },
    body: JSON.stringify({ name: `Kept across restarts ${id}`, regular_price: '12.50' }),
  });
  const product = await created.json();
  check('a product written through the API', created.status === 201 && product.id > 0, `${created.status}`);
  t0 = Date.now();
  await podman(['stop', '-t', '30', demo], { timeoutMs: 60_000 });
  const demoExit = (await podman(['inspect', '--format', '{{.State.ExitCode}}', demo])).stdout.trim();
  check(
    'podman stop: the server exits 0',
    demoExit === '0',
    `exit ${demoExit} after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const demo2 = `rova-test-demo2-${id}`;
  made.containers.push(demo2);
  await podman([
    'run',
    '-d',
    '--name',
    demo2,
    '-p',
    `127.0.0.1:${demoPort}:8080`,
    '-v',
    `${volume}:/var/lib/rova`,
    imageTag,
  ]);
  await waitReady(`${demoBase}/readyz`, demo2, 120_000);
  const again = await get(`${demoBase}/wp-json/wc/v3/products/${product.id}`, { 'X-Rova-API-Key': ADMIN_KEY });
  check(
    'a new container on the same volume has the product (and the key: the secret in DATA_DIR survived too)',
    again.status === 200 && json(again.body)?.name === `Kept across restarts ${id}`,
    `${again.status} ${again.body.slice(0, 80)}`,
  );
  const logs2 = await logsOf(demo2);
  check('…without creating the database or seeding again', !/database created|seeding the demo data/.test(logs2), '');
  await podman(['stop', '-t', '30', demo2], { timeoutMs: 60_000 });

  // ---- 4. PostgreSQL and Redis of this machine
  const dbUrl = await createDatabase('rova_container');
  const migrationCount = readdirSync(path.join(root, 'migrations')).filter((f) =>
    /^\d{4}_[a-z0-9_]+\.sql$/.test(f),
  ).length;
  const secret = randomBytes(32).toString('hex');
  const pgEnv = (port) => [
    '--network',
    'host',
    '-e',
    `DATABASE_URL=${dbUrl}`,
    '-e',
    `REDIS_URL=${redisUrl}`,
    '-e',
    `REDIS_PREFIX=rova-container-${id}:`,
    '-e',
    'HOST=127.0.0.1',
    '-e',
    `PORT=${port}`,
    '-e',
    `ROVA_SECRET=${secret}`,
    '-e',
    `SHUTDOWN_DRAIN_MS=${DRAIN_MS}`,
    '-e',
    `SHUTDOWN_TIMEOUT_MS=${SHUTDOWN_TIMEOUT_MS}`,
    '-e',
    'ROVA_DEMO=1',
    '-e',
    `ROVA_BOOTSTRAP_ADMIN_KEY=${ADMIN_KEY}`,
  ];
  const p1 = await freeServerPort();
  const node1 = `rova-test-pg1-${id}`;
  made.containers.push(node1);
  t0 = Date.now();
  await podman(['run', '-d', '--name', node1, ...pgEnv(p1), imageTag]);
  const ready1 = await waitReady(`http://127.0.0.1:${p1}/readyz`, node1, 120_000);
  check(
    'PostgreSQL + Redis: /readyz 200 within 30 s of podman run',
    ready1 <= 30_000,
    `${(ready1 / 1000).toFixed(1)} s`,
  );
  const readyz = json((await get(`http://127.0.0.1:${p1}/readyz`)).body);
  check(
    '/readyz: database, Redis and migrations ok',
    readyz?.checks?.database === 'ok' && readyz?.checks?.redis === 'ok' && readyz?.checks?.migrations === 'ok',
    JSON.stringify(readyz),
  );
  const logs1 = await logsOf(node1);
  check(
    `the first container applied the ${migrationCount} migrations`,
    logs1.includes(`${migrationCount} migrations applied`),
    '',
  );
  const rss = Number(
    /VmRSS:\s+(\d+) kB/.exec((await podman(['exec', node1, 'cat', '/proc/1/status'])).stdout)?.[1] ?? 0,
  );
  say(`memory: PID 1's resident set after start (demo data seeded): ${(rss / 1024).toFixed(0)} MB`);
  const p2 = await freeServerPort();
  const node2 = `rova-test-pg2-${id}`;
  made.containers.push(node2);
  await podman(['run', '-d', '--name', node2, ...pgEnv(p2), imageTag]);
  await waitReady(`http://127.0.0.1:${p2}/readyz`, node2, 120_000);
  const logsB = await logsOf(node2);
  const rows = await sqlOne(dbUrl, 'SELECT count(*)::int AS n, count(DISTINCT name)::int AS d FROM rova_migrations');
  check(
    'a second container on the same database starts without migrating or seeding again',
    !/migrations? applied|seeding the demo data/.test(logsB) && rows.n === migrationCount && rows.d === migrationCount,
    `rova_migrations: ${rows.n} rows for ${migrationCount} files`,
  );
  const both = await Promise.all(
    [p1, p2].map((p) =>
      get(`http://127.0.0.1:${p}/wp-json/wc/v3/products?per_page=1`, { 'X-Rova-API-Key': ADMIN_KEY }),
    ),
  );
  check(
    'both containers serve the same store',
    both.every((r) => r.status === 200) && json(both[0].body)?.[0]?.id === json(both[1].body)?.[0]?.id,
    both.map((r) => r.status).join(', '),
  );

  // docs/operators/backups.md inside the container: `rova backup` (pg_dump from the image) and `rova restore` into an
  // empty database (pg_restore from the image), rows counted table by table. First this machine's PostgreSQL 15 into
  // a PostgreSQL 17 like the Compose file's (the move of a 0.2.0 Compose store, then on 16), then 17 into 17.
  const pg17 = await postgres17();
  const round = async (label, sourceUrl, targetUrl) => {
    const envOf = (u) => [
      '-e',
      `DATABASE_URL=${u}`,
      '-e',
      `REDIS_PREFIX=rova-container-${label.replace(/\D+/g, '-')}-${id}:`,
    ];
    let t = Date.now();
    const backup = await podman(['exec', ...envOf(sourceUrl), node2, 'node', 'dist/main.js', 'backup'], {
      allowFail: true,
      timeoutMs: 180_000,
    });
    const dir = backup.stdout.trim().split('\n').pop() ?? '';
    const serverMajor = Math.floor(
      Number((await sqlOne(sourceUrl, 'SHOW server_version_num')).server_version_num) / 1e4,
    );
    check(
      `${label}: rova backup in the container of a PostgreSQL ${serverMajor} store: exit 0, a pg_dump archive in DATA_DIR/backups`,
      backup.code === 0 &&
        /^\/var\/lib\/rova\/backups\/rova-backup-\S+$/.test(dir) &&
        /pg_dump archive, pg_dump \(PostgreSQL\) \d+/.test(backup.stderr),
      backup.code === 0
        ? `${((Date.now() - t) / 1000).toFixed(1)} s`
        : `exit ${backup.code}: ${tail(noise(backup.stderr), 5)}`,
    );
    const manifest = json((await podman(['exec', node2, 'cat', `${dir}/manifest.json`], { allowFail: true })).stdout);
    check(
      `${label}: the image's pg_dump, at least the server's major version, made the archive`,
      manifest?.format === 2 &&
        manifest.dump?.server_major === serverMajor &&
        manifest.dump.pg_dump_major >= serverMajor &&
        manifest.dump.file?.path === 'database.dump' &&
        manifest.dump.file.bytes > 0,
      manifest?.dump ? `${manifest.dump.pg_dump} of PostgreSQL ${serverMajor}, ${manifest.dump.file.bytes} bytes` : '',
    );
    t = Date.now();
    const restored = await podman(['exec', ...envOf(targetUrl), node2, 'node', 'dist/main.js', 'restore', dir], {
      allowFail: true,
      timeoutMs: 300_000,
    });
    check(
      `${label}: rova restore in the container into an empty database: exit 0, pg_restore, verified`,
      restored.code === 0 &&
        /pg_dump archive restored with pg_restore/.test(restored.stderr) &&
        /verify ok/.test(restored.stdout + restored.stderr),
      restored.code === 0
        ? `${((Date.now() - t) / 1000).toFixed(1)} s`
        : `exit ${restored.code}: ${tail(noise(restored.stderr + restored.stdout), 8)}`,
    );
    const tables = manifest?.tables ?? [];
    const differ = [];
    for (const x of tables) {
      const r = await sqlOne(targetUrl, `SELECT count(*)::int AS n FROM "${x.name.replaceAll('"', '""')}"`).catch(
        (err) => ({ n: err.message }),
      );
      if (r.n !== x.rows) differ.push(`${x.name}: ${r.n} restored, ${x.rows} in the manifest`);
    }
    const bookings = await Promise.all(
      [sourceUrl, targetUrl].map(async (u) => (await sqlOne(u, 'SELECT count(*)::int AS n FROM rental_bookings')).n),
    );
    check(
      `${label}: the restored database has every table's rows of the manifest, and the source's bookings`,
      tables.length > 20 && differ.length === 0 && bookings[1] > 0 && bookings[1] === bookings[0],
      differ.length
        ? differ.slice(0, 5).join('; ')
        : `${tables.length} tables, ${tables.reduce((n, x) => n + x.rows, 0)} rows, ${bookings[1]} bookings`,
    );
  };
  const first17 = await createDatabase('rova_restored', pg17);
  await round('15 → 17', dbUrl, first17);
  await round('17 → 17', first17, await createDatabase('rova_restored_again', pg17));

  t0 = Date.now();
  await podman(['kill', '--signal', 'TERM', node1]);
  let drained = 0;
  while (Date.now() - t0 < DRAIN_MS) {
    const r = await get(`http://127.0.0.1:${p1}/readyz`);
    if (r.status === 503 && /draining/.test(r.body)) {
      drained = Date.now() - t0;
      break;
    }
    await sleep(200);
  }
  check('SIGTERM: /readyz answers 503 draining during the drain', drained > 0, drained ? `after ${drained} ms` : '');
  const waited = await podman(['wait', node1], { timeoutMs: DRAIN_MS + SHUTDOWN_TIMEOUT_MS + 15_000 });
  const stopTook = Date.now() - t0;
  check(
    `SIGTERM: exit 0 after the drain (${DRAIN_MS / 1000} s) and within drain + SHUTDOWN_TIMEOUT_MS`,
    waited.stdout.trim() === '0' && stopTook >= DRAIN_MS && stopTook <= DRAIN_MS + SHUTDOWN_TIMEOUT_MS + 5000,
    `exit ${waited.stdout.trim()} after ${(stopTook / 1000).toFixed(1)} s`,
  );
  check('…and it logged "stopped"', /"msg":"stopped"/.test(await logsOf(node1)), '');
  await podman(['rm', '-f', '-v', '-t', '0', node2]);

  // ---- 5. deploy/kube/ with podman kube play
  const kubeDb = await createDatabase('rova_container_kube');
  // The pods go on podman's default bridge (kube play would make a network of its own) and this machine's PostgreSQL
  // and Redis listen on loopback: a keeper container holds the bridge up, and two forwarders on its gateway lead to them.
  const keeper = `rova-test-keeper-${id}`;
  made.containers.push(keeper);
  await podman(['run', '-d', '--name', keeper, baseTag, 'sleep', '1800']);
  const gateway = (
    await podman(['network', 'inspect', 'podman', '--format', '{{range .Subnets}}{{.Gateway}}{{end}}'])
  ).stdout.trim();
  const forward = (to) =>
    new Promise((resolve, reject) => {
      const server = net.createServer((c) => {
        const u = net.connect(to.port, to.host);
        c.pipe(u).pipe(c);
        c.on('error', () => u.destroy());
        u.on('error', () => c.destroy());
      });
      server.once('error', reject);
      server.listen(0, gateway, () => resolve(server.address().port));
      made.servers.push(server);
    });
  const pgTarget = new URL(kubeDb);
  const redisTarget = new URL(redisUrl);
  const pgPort = await forward({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
  const redisPort = await forward({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  pgTarget.host = `host.containers.internal:${pgPort}`;
  // podman (4.3) resolves a secretRef against its own secrets, each holding the Secret's data as JSON (values base64)
  const secretName = `rova-env-test-${id}`;
  const secretValues = {
    DATABASE_URL: pgTarget.toString(),
    REDIS_URL: `redis://host.containers.internal:${redisPort}`,
    REDIS_PREFIX: `rova-container-kube-${id}:`,
    ROVA_SECRET: secret,
    ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
  };
  const kubeDir = path.join(root, 'deploy/kube');
  const docs = readdirSync(kubeDir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => YAML.parseAllDocuments(readFileSync(path.join(kubeDir, f), 'utf8')).map((d) => d.toJS()));
  const kind = (k) => docs.find((d) => d.kind === k);
  const [secretDoc, job, deployment, service] = ['Secret', 'Job', 'Deployment', 'Service'].map(kind);
  check(
    'deploy/kube/ has a Secret, a Job, a Deployment and a Service',
    Boolean(secretDoc && job && deployment && service),
    '',
  );
  const secretFile = path.join(work, 'secret.json');
  writeFileSync(
    secretFile,
    JSON.stringify(
      Object.fromEntries(Object.entries(secretValues).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    ),
  );
  await podman(['secret', 'create', secretName, secretFile]);
  made.secrets.push(secretName);
  const retarget = (spec) => {
    for (const c of spec.containers) {
      c.image = imageTag;
      for (const e of c.envFrom ?? []) if (e.secretRef?.name === secretDoc.metadata.name) e.secretRef.name = secretName;
    }
  };
  // podman has no Job: the Job's pod template runs as a pod, once
  const migratePod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `rova-test-migrate-${id}`, labels: job.spec.template.metadata.labels },
    spec: JSON.parse(JSON.stringify(job.spec.template.spec)),
  };
  retarget(migratePod.spec);
  const migrateFile = path.join(work, 'migrate.yaml');
  writeFileSync(migrateFile, YAML.stringify(migratePod));
  made.kubeFiles.push(migrateFile);
  await podman(['kube', 'play', '--network', 'podman', migrateFile], { timeoutMs: 120_000 });
  const migrateCtr = `${migratePod.metadata.name}-${job.spec.template.spec.containers[0].name}`;
  const migrated = await podman(['wait', migrateCtr], { timeoutMs: 120_000 });
  const migrateLogs = await logsOf(migrateCtr);
  check(
    "kube: the migration Job's pod exits 0 having applied the migrations",
    migrated.stdout.trim() === '0' && /^applied: /m.test(migrateLogs),
    `exit ${migrated.stdout.trim()}: ${migrateLogs.trim().split('\n').pop()?.slice(0, 100)}`,
  );
  // podman publishes a container port on the host itself (there is no Service proxy) and the replicas of a
  // Deployment would all bind it: one replica, and the Service's port moved to a free one.
  const kubePort = await freeServerPort();
  const served = JSON.parse(JSON.stringify(deployment));
  served.metadata.name = `rova-test-${id}`;
  served.spec.replicas = 1;
  retarget(served.spec.template.spec);
  const ctr = served.spec.template.spec.containers[0];
  const svcPort = service.spec.ports[0];
  const named = ctr.ports.find((p) => p.name === svcPort.targetPort || p.containerPort === svcPort.targetPort);
  check(
    'kube: the Service targets the container port the probes use',
    Boolean(named) && ctr.readinessProbe.httpGet.path === '/readyz' && ctr.livenessProbe.httpGet.path === '/livez',
    '',
  );
  named.containerPort = kubePort;
  ctr.env = ctr.env.map((e) => (e.name === 'PORT' ? { name: 'PORT', value: String(kubePort) } : e));
  const deploymentFile = path.join(work, 'deployment.yaml');
  writeFileSync(deploymentFile, YAML.stringify(served));
  made.kubeFiles.push(deploymentFile);
  t0 = Date.now();
  await podman(['kube', 'play', '--network', 'podman', deploymentFile], { timeoutMs: 180_000 });
  const kubeReady = await waitReady(`http://127.0.0.1:${kubePort}/readyz`, null, 120_000).catch((err) => err);
  check(
    'kube: podman kube play of the Deployment brings Rova up; /readyz 200 through the Service port',
    typeof kubeReady === 'number',
    typeof kubeReady === 'number' ? `${(kubeReady / 1000).toFixed(1)} s` : kubeReady.message,
  );
  const podLogs = await podman(['pod', 'logs', `${served.metadata.name}-pod-0`], { allowFail: true });
  const kubeLogs = podLogs.stdout + podLogs.stderr;
  check(
    'kube: the pod served without migrating (the Job had)',
    typeof kubeReady === 'number' && /ready at/.test(kubeLogs) && !/migrations? applied/.test(kubeLogs),
    '',
  );
  const down = await podman(['kube', 'down', deploymentFile], { allowFail: true, timeoutMs: 90_000 });
  made.kubeFiles = made.kubeFiles.filter((f) => f !== deploymentFile);
  check('kube: podman kube down stops it', down.code === 0, noise(down.stderr).slice(0, 200));
} catch (err) {
  error = err;
} finally {
  clearTimeout(watchdog);
  say('cleaning up: containers, pods, volumes, secrets, images, databases');
  await cleanup().catch((err) => console.log(`container: cleanup: ${err.message}`));
}
if (error) {
  failed += 1;
  console.log(`FAIL ${error instanceof Error ? error.message : String(error)}`);
}
say('done');
console.log(`container: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
