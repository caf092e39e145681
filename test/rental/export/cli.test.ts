import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../../helpers/app.js';
import { rovaInProcess } from '../../helpers/cli.js';
import { migratedDataDir, rovaArgs } from '../../helpers/rova-process.js';
import { csvText, parseCsv } from './fixtures.js';

// `rova export` in a child process on an embedded database seeded with the demo (PGlite suite only: the
// command opens DATA_DIR like every CLI command).

// The export is under test, not the first start: the embedded database comes migrated, then seeded.
const dir = migratedDataDir('rova-export-cli-');
const env = { DATA_DIR: dir, STORE_TIMEZONE: 'Europe/Istanbul' };

function rova(args: string[]) {
  const r = spawnSync(process.execPath, rovaArgs(...args), {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    encoding: 'buffer',
    timeout: 240_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

beforeAll(async () => {
  if (TEST_PG) return;
  const r = await rovaInProcess(['seed', '--demo'], env);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!!TEST_PG)('rova export', () => {
  it('writes the CSV to stdout (same file as the API) and records the run', async () => {
    // a real process writing to a pipe, as `rova export … > file` does
    const r = rova(['export', 'bookings', '--format', 'csv', '--from', '2000-01-01', '--to', '2099-12-31']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const { header, rows } = parseCsv(r.stdout.toString('utf8'));
    expect(header.slice(0, 3)).toEqual(['id', 'reference', 'status']);
    expect(rows.length).toBeGreaterThan(0);
    const json = await rovaInProcess(
      ['export', 'bookings', '--format', 'json', '--from', '2000-01-01', '--to', '2099-12-31'],
      env,
    );
    expect(json.code, json.stderr).toBe(0);
    const data = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows).toEqual(data.map((d) => header.map((k) => csvText(d[k]))));
  }, 300_000);

  it('--out writes a file; --status filters; bad input exits 2 with a message; a locked database is refused', async () => {
    const out = path.join(dir, 'vehicles.ndjson');
    const r = await rovaInProcess(
      ['export', 'vehicles', '--format', 'ndjson', '--status', 'active', '--out', out],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^vehicles-\d{4}-\d{2}-\d{2}\.ndjson written to /);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.status))).toEqual(new Set(['active']));
    expect(existsSync(`${out}.partial`)).toBe(false);

    for (const args of [
      ['export'],
      ['export', 'bookings'],
      ['export', 'nope', '--format', 'csv'],
      ['export', 'bookings', '--format', 'xml'],
      ['export', 'bookings', '--format', 'csv', '--from', '2026-02-30'],
      ['export', 'bookings', '--format', 'csv', '--bogus'],
    ]) {
      const b = await rovaInProcess(args, env);
      expect(b.code, args.join(' ')).toBe(2);
      expect(b.stderr).toMatch(/^rova: /);
      expect(b.stderr).toContain('usage: rova export');
      expect(b.stdout.length).toBe(0);
    }

    writeFileSync(path.join(dir, 'pgdata.lock'), String(process.ppid));
    try {
      // the lock names another live process (the test runner): refused before anything is written
      const locked = await rovaInProcess(['export', 'bookings', '--format', 'csv'], env);
      expect(locked.code).not.toBe(0);
      expect(locked.stderr).toMatch(/in use|another process|locked/i);
      expect(locked.stdout.length).toBe(0);
    } finally {
      rmSync(path.join(dir, 'pgdata.lock'), { force: true });
    }
  }, 600_000);
});
