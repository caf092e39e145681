import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { BackupRefused } from './manifest.js';

// PostgreSQL's own dump tools, run as child processes: pg_dump (custom format, inside a snapshot Rova exported) for
// `rova backup`, pg_restore for `rova restore`. They are found on PATH, and beside it in Debian's side-by-side
// /usr/lib/postgresql/<major>/bin; the newest major found is used. No other setting: PATH chooses.

export type PgTool = 'pg_dump' | 'pg_restore';

export interface FoundTool {
  file: string;
  /** `pg_dump (PostgreSQL) 16.4 (Debian 16.4-1.pgdg120+1)` */
  version: string;
  major: number;
}

const DEBIAN_BINDIRS = '/usr/lib/postgresql';

/** What to install for a tool of at least that major version. */
export function installHint(tool: PgTool, major: number | null): string {
  const n = major ?? 'NN';
  return (
    `install PostgreSQL's client tools${major === null ? '' : ` ${major} or newer`} on this machine ` +
    `(Debian/Ubuntu: apt install postgresql-client-${n}, from apt.postgresql.org when the distribution's is older; ` +
    `RHEL: postgresql${major ?? ''}; Alpine: postgresql${major ?? ''}-client) so that ${tool} is on PATH`
  );
}

/** The major version in `pg_dump (PostgreSQL) 15.20 (Debian …)` or `… 9.6.24`; null when there is none. */
export function majorOf(version: string): number | null {
  const m = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return null;
  const first = Number(m[1]);
  return first >= 10 ? first : Number(`${first}.${m[2] ?? '0'}`);
}

/** The server's major version from `server_version_num` (150020 → 15). */
export const serverMajor = (versionNum: number | string) => Math.floor(Number(versionNum) / 10_000);

function run(
  file: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string; spawnError?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === 'string')
        resolve({ code: -1, stdout, stderr, spawnError: err as NodeJS.ErrnoException });
      else resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every copy of the tool on PATH and in Debian's versioned directories, in that order, without duplicates. */
export function candidates(tool: PgTool, pathVar = process.env.PATH ?? '', bindirs = DEBIAN_BINDIRS): string[] {
  const out: string[] = [];
  for (const dir of pathVar.split(path.delimiter)) if (dir) out.push(path.join(dir, tool));
  if (existsSync(bindirs))
    for (const v of readdirSync(bindirs).sort((a, b) => Number(b) - Number(a)))
      out.push(path.join(bindirs, v, 'bin', tool));
  return [...new Set(out)].filter((f) => existsSync(f));
}

/**
 * The newest copy of the tool found, which must be at least `atLeast` (pg_dump refuses a server newer than itself;
 * pg_restore, an archive of a newer pg_dump). With `atMost` (pg_restore: the target server's major), the newest copy
 * within [atLeast, atMost] is preferred: a pg_restore newer than its server sends settings the server does not know
 * (pg_restore 17 → PostgreSQL 16: `transaction_timeout`). Refuses with what to install when there is none or all are
 * older.
 */
export async function findTool(
  tool: PgTool,
  atLeast: number,
  why: string,
  where: { pathVar?: string; bindirs?: string; atMost?: number } = {},
): Promise<FoundTool> {
  let best: FoundTool | null = null;
  let fitting: FoundTool | null = null;
  for (const file of candidates(tool, where.pathVar, where.bindirs)) {
    const r = await run(file, ['--version']);
    if (r.code !== 0) continue;
    const version = r.stdout.trim();
    const major = majorOf(version);
    if (major === null) continue;
    if (!best || major > best.major) best = { file, version, major };
    const fits = major >= atLeast && (where.atMost === undefined || major <= where.atMost);
    if (fits && (!fitting || major > fitting.major)) fitting = { file, version, major };
  }
  if (fitting) return fitting;
  if (!best) throw new BackupRefused(`${tool} was not found (${why}): ${installHint(tool, atLeast)}`);
  if (best.major < atLeast)
    throw new BackupRefused(
      `${tool} ${best.major} (${best.file}) is older than ${why}, which needs ${tool} ${atLeast} or newer: ` +
        installHint(tool, atLeast),
    );
  return best;
}

/**
 * libpq's connection for DATABASE_URL, as a conninfo string without the password (given as PGPASSWORD in the child's
 * environment, never on a command line that `ps` shows). Query parameters libpq knows pass through; node-postgres's
 * `ssl=true` becomes `sslmode=require`.
 */
export function libpqConnection(url: string): { conninfo: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // the child's connection is only what DATABASE_URL says: no PG* variable of the caller's environment leaks in
  for (const k of Object.keys(env)) if (/^PG[A-Z]/.test(k)) delete env[k];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { conninfo: url, env }; // not a URL node can read: libpq reads it itself
  }
  const q = (v: string) => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const parts: string[] = [];
  const put = (k: string, v: string | null | undefined) => {
    if (v) parts.push(`${k}=${q(v)}`);
  };
  put('host', u.searchParams.get('host') ?? decodeURIComponent(u.hostname.replace(/^\[(.*)\]$/, '$1')));
  put('port', u.searchParams.get('port') ?? u.port);
  put('user', u.searchParams.get('user') ?? decodeURIComponent(u.username));
  put('dbname', u.searchParams.get('dbname') ?? decodeURIComponent(u.pathname.replace(/^\//, '')));
  for (const k of [
    'sslmode',
    'sslrootcert',
    'sslcert',
    'sslkey',
    'sslcrl',
    'connect_timeout',
    'application_name',
    'options',
    'target_session_attrs',
    'gssencmode',
  ])
    put(k, u.searchParams.get(k));
  const ssl = u.searchParams.get('ssl');
  if (!u.searchParams.get('sslmode') && (ssl === 'true' || ssl === '1')) put('sslmode', 'require');
  const password = u.searchParams.get('password') ?? decodeURIComponent(u.password);
  if (password) env.PGPASSWORD = password;
  return { conninfo: parts.join(' '), env };
}

/**
 * The server itself when DATABASE_URL names something in between (PgBouncer on 6432 in front of 5432): pg_dump sets
 * session settings (an empty search_path among them) that a pooler in transaction mode would leave on a server
 * connection the nodes' next transactions get. The server's own address as it sees the connection, checked by
 * connecting to it; when it cannot be reached from here, DATABASE_URL as it is (a port mapping, not a pooler).
 */
export async function directUrl(url: string, addr: string | null, port: number): Promise<string> {
  const u = new URL(url);
  if (Number(u.port || 5432) === port) return url;
  const d = new URL(url);
  if (addr) d.hostname = addr.includes(':') ? `[${addr}]` : addr;
  d.port = String(port);
  d.searchParams.delete('host');
  d.searchParams.delete('port');
  const probe = new pg.Client({ connectionString: d.toString(), connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    return d.toString();
  } catch {
    return url;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

async function runTool(tool: FoundTool, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const r = await run(tool.file, args, env);
  if (r.spawnError) throw new Error(`${tool.file} could not run: ${r.spawnError.message}`);
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(-8).join('\n');
    throw new Error(`${path.basename(tool.file)} failed (exit ${r.code}): ${said}`);
  }
  return r.stdout;
}

/** `pg_dump --format=custom` of the whole database, inside an exported snapshot (`pg_export_snapshot()`). */
export async function pgDump(tool: FoundTool, url: string, snapshot: string, file: string): Promise<void> {
  const c = libpqConnection(url);
  await runTool(tool, ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${c.conninfo}`], c.env);
}

/**
 * The archive's table of contents without the entries an owner of the database (not a superuser) may not restore:
 * `COMMENT ON EXTENSION` (only the extension's owner may comment; the comment is the extension's own).
 */
export async function restorableList(tool: FoundTool, archive: string): Promise<string> {
  const toc = await runTool(tool, ['--list', archive], process.env);
  return toc
    .split('\n')
    .filter((line) => !/^\d+;\s*\d+\s+\d+\s+COMMENT\s+-\s+EXTENSION\s/.test(line))
    .join('\n');
}

/**
 * `pg_restore` into the (empty) database at `url`, in one transaction that stops at the first error (so a failed
 * restore leaves the database empty), owned by the connecting role (`--no-owner --no-privileges`): the store's own
 * role restores what a superuser dumped.
 */
export async function pgRestore(tool: FoundTool, url: string, archive: string, list: string): Promise<void> {
  const c = libpqConnection(url);
  await runTool(
    tool,
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--use-list=${list}`,
      `--dbname=${c.conninfo}`,
      archive,
    ],
    c.env,
  );
}
