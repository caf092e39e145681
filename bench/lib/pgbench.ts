/**
 * The database's own write ceiling on this machine, measured in the same run as the scenario: pgbench's
 * TPC-B-like transaction (five statements, three contended updates) with 50 clients for 10 s, in a scratch
 * database beside BENCH_DATABASE_URL's (created and dropped here). pgbench comes with Debian's
 * postgresql-contrib (PostgreSQL 15: /usr/lib/postgresql/15/bin/pgbench, also on PATH as `pgbench`).
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';

export async function pgbenchTps(
  databaseUrl: string,
  seconds = 10,
): Promise<{ lines: string[]; figures: Record<string, number> }> {
  const scratch = new URL(databaseUrl);
  const name = `rova_pgbench_${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    scratch.pathname = `/${name}`;
    const run = (args: string[]) => spawnSync('pgbench', [...args, scratch.toString()], { encoding: 'utf8' });
    const init = run(['-i', '-q', '-s', '10']);
    if (init.error || init.status !== 0) {
      return {
        lines: [
          `pgbench: not run (${init.error ? 'not found — apt install postgresql-contrib' : init.stderr.trim().split('\n').pop()})`,
        ],
        figures: {},
      };
    }
    const r = run(['-n', '-c', '50', '-j', '2', '-T', String(seconds)]);
    const tps = /tps = ([\d.]+)/.exec(r.stdout)?.[1];
    if (!tps) return { lines: [`pgbench: no tps in its output: ${r.stderr.trim().slice(0, 200)}`], figures: {} };
    return {
      lines: [`pgbench TPC-B-like, 50 clients, ${seconds} s, same machine and run: ${Math.round(Number(tps))} tx/s`],
      figures: { pgbenchTps: Number(tps) },
    };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
    await admin.end();
  }
}
