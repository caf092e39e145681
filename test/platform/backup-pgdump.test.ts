import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupRefused } from '../../src/platform/backup/manifest.js';
import { findTool, libpqConnection, majorOf, serverMajor } from '../../src/platform/backup/pgdump.js';

// Finding pg_dump / pg_restore and giving them DATABASE_URL: no server needed (the archives themselves are tested
// against PostgreSQL in backup.test.ts under npm run test:integration).

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A directory holding a fake tool that prints `version`. */
function fakeTool(tool: string, version: string, under?: string): string {
  const dir = under ?? mkdtempSync(path.join(tmpdir(), 'rova-fake-pg-'));
  if (!under) dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, tool);
  writeFileSync(file, `#!/bin/sh\necho '${version}'\n`);
  chmodSync(file, 0o755);
  return dir;
}

describe('pg_dump and pg_restore', () => {
  it('reads major versions', () => {
    expect(majorOf('pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)')).toBe(15);
    expect(majorOf('pg_restore (PostgreSQL) 17.2')).toBe(17);
    expect(majorOf('pg_dump (PostgreSQL) 9.6.24')).toBe(9.6);
    expect(majorOf('something else')).toBeNull();
    expect(serverMajor('160004')).toBe(16);
  });

  it('without the tool, fails naming the package to install', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'rova-no-pg-'));
    dirs.push(empty);
    const err = await findTool('pg_dump', 16, 'the PostgreSQL 16 server at DATABASE_URL', {
      pathVar: empty,
      bindirs: path.join(empty, 'none'),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupRefused);
    expect((err as Error).message).toMatch(/^pg_dump was not found \(the PostgreSQL 16 server at DATABASE_URL\)/);
    expect((err as Error).message).toContain('apt install postgresql-client-16');
  });

  it('refuses a pg_dump older than the server, naming the version to install', async () => {
    const dir = fakeTool('pg_dump', 'pg_dump (PostgreSQL) 13.9');
    const err = await findTool('pg_dump', 15, 'the PostgreSQL 15 server at DATABASE_URL', {
      pathVar: dir,
      bindirs: path.join(dir, 'none'),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupRefused);
    expect((err as Error).message).toMatch(/^pg_dump 13 \(.*\) is older than the PostgreSQL 15 server/);
    expect((err as Error).message).toContain('postgresql-client-15');
  });

  it('takes the newest found on PATH or in Debian’s versioned directories', async () => {
    const old = fakeTool('pg_restore', 'pg_restore (PostgreSQL) 15.1');
    const bindirs = mkdtempSync(path.join(tmpdir(), 'rova-pg-bindirs-'));
    dirs.push(bindirs);
    fakeTool('pg_restore', 'pg_restore (PostgreSQL) 17.2', path.join(bindirs, '17', 'bin'));
    fakeTool('pg_restore', 'pg_restore (PostgreSQL) 16.6', path.join(bindirs, '16', 'bin'));
    const t = await findTool('pg_restore', 16, 'the archive', { pathVar: old, bindirs });
    expect(t.major).toBe(17);
    expect(t.file).toBe(path.join(bindirs, '17', 'bin', 'pg_restore'));
  });

  it('pg_restore for a server older than the newest client: the newest one not newer than the server', async () => {
    const bindirs = mkdtempSync(path.join(tmpdir(), 'rova-pg-bindirs-'));
    dirs.push(bindirs);
    const none = path.join(bindirs, 'none');
    fakeTool('pg_restore', 'pg_restore (PostgreSQL) 17.2', path.join(bindirs, '17', 'bin'));
    fakeTool('pg_restore', 'pg_restore (PostgreSQL) 16.6', path.join(bindirs, '16', 'bin'));
    fakeTool('pg_restore', 'pg_restore (PostgreSQL) 15.1', path.join(bindirs, '15', 'bin'));
    // an archive of pg_dump 15 into a PostgreSQL 16 server: 16, not 17
    expect((await findTool('pg_restore', 15, 'the archive', { pathVar: none, bindirs, atMost: 16 })).major).toBe(16);
    // an archive of pg_dump 17 needs 17 even for a 16 server: the only one that can read it
    expect((await findTool('pg_restore', 17, 'the archive', { pathVar: none, bindirs, atMost: 16 })).major).toBe(17);
    // no bound: the newest
    expect((await findTool('pg_restore', 15, 'the archive', { pathVar: none, bindirs })).major).toBe(17);
  });

  it('gives libpq DATABASE_URL with the password in the environment, not on the command line', () => {
    const saved = process.env.PGHOST;
    process.env.PGHOST = 'elsewhere';
    try {
      const c = libpqConnection('postgres://rova:s%27cr%40t@db.example:6432/rova_prod?sslmode=verify-full&ssl=true');
      expect(c.conninfo).toBe("host='db.example' port='6432' user='rova' dbname='rova_prod' sslmode='verify-full'");
      expect(c.env.PGPASSWORD).toBe("s'cr@t");
      expect(c.env.PGHOST).toBeUndefined();
      expect(libpqConnection('postgres://u@h/d?ssl=true').conninfo).toBe(
        "host='h' user='u' dbname='d' sslmode='require'",
      );
      expect(libpqConnection('postgres:///d?host=/run/postgresql&user=u').conninfo).toBe(
        "host='/run/postgresql' user='u' dbname='d'",
      );
    } finally {
      if (saved === undefined) delete process.env.PGHOST;
      else process.env.PGHOST = saved;
    }
  });
});
