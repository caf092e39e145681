// A PgBouncer in transaction mode in front of a PostgreSQL server, for the integration suite's pooled run
// (`npm run test:integration -- --pgbouncer`) and the scale test. Debian's `pgbouncer` package provides the binary.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

export function pgbouncerBinary() {
  for (const b of BINARIES) if (spawnSync(b, ['--version']).status === 0) return b;
  const which = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** A TCP port free on 127.0.0.1 right now (also used by the scale test). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, deadline) {
  while (Date.now() < deadline) {
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.on('connect', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`pgbouncer did not listen on ${port}`);
}

/**
 * Starts PgBouncer (pool_mode = transaction) for every database of `serverUrl`'s server; returns the pooler's URL
 * (same user and database path, PgBouncer's host and port) and stop(). Run as root, it drops to the `postgres`
 * user (PgBouncer refuses to run as root).
 */
export async function startPgBouncer(serverUrl, { poolSize = 10, maxServerConnections = 50 } = {}) {
  const bin = pgbouncerBinary();
  if (!bin)
    throw new Error('pgbouncer is not installed: apt-get install pgbouncer (Debian), or run without --pgbouncer');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password || '');
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'rova-pgbouncer-'));
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" "${password.replace(/"/g, '""')}"\n`, { mode: 0o600 });
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // the test server trusts local connections; with a password, PgBouncer checks it and logs in with it
      `auth_type = ${password ? 'scram-sha-256' : 'trust'}`,
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 4000',
      `default_pool_size = ${poolSize}`,
      // every test app has a database of its own: without a cap across them, each keeps its server connections and
      // PostgreSQL's max_connections runs out; at the cap PgBouncer closes idle ones of other databases
      `max_user_connections = ${maxServerConnections}`,
      'server_idle_timeout = 5',
      // while PostgreSQL refuses connections a client's query waits in PgBouncer's queue: 5 s, then an error Rova
      // answers with 503 (the default, 120 s, holds every request that long); retry the login each second after
      'query_wait_timeout = 5',
      'server_login_retry = 1',
      // node-postgres sends no extra_float_digits, but psql-like clients do
      'ignore_startup_parameters = extra_float_digits',
      'server_check_delay = 0',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const root = process.getuid?.() === 0;
  if (root) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) throw new Error('running as root and there is no postgres user for PgBouncer to run as');
    for (const f of [dir, ini, path.join(dir, 'userlist.txt')]) chownSync(f, Number(id.stdout), Number(gid.stdout));
    chmodSync(dir, 0o700);
  }
  const args = root ? ['-u', 'postgres', ini] : [ini];
  // PgBouncer logs to stderr as well as to its logfile: into a file, never a pipe — the test runner's parent blocks in
  // spawnSync, nobody would drain a pipe, and PgBouncer stops dead once the pipe's buffer is full
  const errFile = path.join(dir, 'stderr.log');
  const errFd = openSync(errFile, 'w');
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', errFd] });
  closeSync(errFd);
  const stderr = () => {
    try {
      return readFileSync(errFile, 'utf8');
    } catch {
      return '';
    }
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await Promise.race([
      waitForPort(port, Date.now() + 10_000),
      exited.then((code) => {
        throw new Error(`pgbouncer exited (${code}): ${stderr()}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    port,
    log: path.join(dir, 'pgbouncer.log'),
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
