import { randomBytes } from 'node:crypto';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS } from '../helpers/app.js';
import { query, startRovaServer, underLoad, type RovaServer } from '../helpers/db-faults.js';
import { freePort } from '../helpers/ports.js';

// Issue 19 item 5, second half: PostgreSQL restarted (`pg_ctl restart -m fast`) while requests run — every connection
// is closed and, for a moment, the server refuses new ones ("the database system is shutting down / starting up",
// SQLSTATE 57P03). A private cluster of Debian's PostgreSQL binaries on a free port, so the machine's own server is
// not touched. Five restarts under load: the process lives, every request is answered 2xx or 503 + Retry-After, no
// write answered with an error is committed, and the server answers as before once the database is back.
const BIN = (() => {
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '/usr/lib/postgresql/15/bin';
})();
const ADMIN = `pgrestart-admin-${randomBytes(8).toString('hex')}`;
const dir = mkdtempSync(path.join(tmpdir(), 'rova-pgrestart-'));
const data = path.join(dir, 'data');
let port = 0;
let server: RovaServer;

/**
 * PostgreSQL refuses to run as root: its tools run as the postgres user then. Asynchronous, so the request loops of
 * this process keep running while the database restarts.
 */
async function asPostgres(cmd: string, args: string[]): Promise<void> {
  const root = userInfo().uid === 0;
  await promisify(execFile)(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args, {
    timeout: 60_000,
  });
}
// -l: the postmaster's output goes to a file, not to a pipe that pg_ctl's caller would wait on forever
const pgCtl = (...args: string[]) =>
  asPostgres(path.join(BIN, 'pg_ctl'), ['-D', data, '-w', '-t', '30', '-l', path.join(dir, 'postgres.log'), ...args]);
const options = () =>
  `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;

beforeAll(async () => {
  if (!TEST_REDIS) throw new Error('needs ROVA_TEST_REDIS_URL (npm run test:integration)');
  if (userInfo().uid === 0)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
      Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
    );
  port = await freePort();
  await asPostgres(path.join(BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  await pgCtl('-o', options(), 'start');
  server = await startRovaServer({
    HOME: dir,
    DATA_DIR: path.join(dir, 'rova'),
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
    REDIS_URL: TEST_REDIS,
    REDIS_PREFIX: `rova-test:restart-${port}:`,
    ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN,
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  try {
    await pgCtl('-m', 'immediate', 'stop');
  } catch {
    // not running
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarts under load', () => {
  it('5 × pg_ctl restart -m fast: the process lives, every request is answered 2xx or 503, no write answered with an error was committed', async () => {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const startedAt = async () =>
      (await query<{ t: string }>(url, 'SELECT extract(epoch FROM pg_postmaster_start_time())::text AS t'))[0]!.t;
    const before = await startedAt();
    await underLoad(
      server,
      ADMIN,
      url,
      async () => {
        for (let round = 0; round < 5; round++) {
          await new Promise((r) => setTimeout(r, 400));
          await pgCtl('-m', 'fast', '-o', options(), 'restart');
          expect(server.exited(), `the server exited after restart ${round}:\n${server.log().slice(-3000)}`).toBe(
            false,
          );
        }
      },
      'restart',
    );
    // it really restarted: the postmaster started again after the test began
    expect(Number(await startedAt())).toBeGreaterThan(Number(before));
  }, 240_000);
});
