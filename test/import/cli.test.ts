import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { progressWriter } from '../../src/modules/import/wordpress/cli.js';
import { rovaInProcess } from '../helpers/cli.js';

// `rova import wordpress` argument handling (nothing here reaches a database) and its progress output.

// the configuration is read (and DATA_DIR made) before a command runs: a directory of our own, removed afterwards
const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rova-import-cli-')) };
afterAll(() => rmSync(env.DATA_DIR, { recursive: true, force: true }));

describe('rova import wordpress: arguments', () => {
  it('help names the entities and the IBAN keys', async () => {
    const r = await rovaInProcess(['help', 'import'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only ENTITY,…]',
    );
    expect(r.stdout).toContain(
      'Entities (in order): settings, attributes, categories, tags, products, variations, currency, users, customers, locations, routes, pricing, vehicles, vendors, bookings, messages, ledger, vendor_reports.',
    );
    expect(r.stdout).toContain('WP_AUTH_KEY and WP_SECURE_AUTH_SALT');
  });

  it.each([
    [
      ['import'],
      2,
      'rova: usage: rova import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only products,variations,…]\n',
    ],
    [
      ['import', 'joomla'],
      2,
      'rova: usage: rova import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only products,variations,…]\n',
    ],
    [
      ['import', 'wordpress'],
      2,
      'rova: import wordpress: missing --from\nusage: rova import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only products,variations,…]\n',
    ],
    [
      ['import', 'wordpress', '--from', 'not a url'],
      1,
      'rova: --from is not a URL: use mysql://user:password@host:3306/database\n',
    ],
    [
      ['import', 'wordpress', '--from', 'postgres://x@y/z'],
      1,
      'rova: --from must be a mysql:// URL (got postgres://…)\n',
    ],
    [
      ['import', 'wordpress', '--from', 'mysql://root@127.0.0.1:3306'],
      1,
      'rova: --from names no database: add it as the path, e.g. mysql://user@host:3306/wordpress\n',
    ],
    [
      ['import', 'wordpress', '--from', 'mysql://root@h/db', '--prefix', 'wp-'],
      1,
      'rova: --prefix may hold only letters, digits and _ (got "wp-")\n',
    ],
    [
      ['import', 'wordpress', '--from', 'mysql://root@h/db', '--only', ''],
      2,
      'rova: --only: unknown entities (none given); known: settings, attributes, categories, tags, products, variations, currency, users, customers, locations, routes, pricing, vehicles, vendors, bookings, messages, ledger, vendor_reports\n',
    ],
  ])('%j → exit %i, one clear line', async (args, code, stderr) => {
    const r = await rovaInProcess(args, env);
    expect([r.code, r.stderr, r.stdout]).toEqual([code, stderr, '']);
  });
});

describe('progress', () => {
  const sink = (isTTY: boolean) => {
    let text = '';
    const stream = Object.assign(
      new Writable({
        write(c: Buffer, _e, done) {
          text += c.toString();
          done();
        },
      }),
      { isTTY },
    );
    return { io: { stdout: stream, stderr: stream, stdin: Object.assign(process.stdin, {}) }, text: () => text };
  };

  it('a bar on a terminal, redrawn in place and cleared for the entity line', () => {
    const s = sink(true);
    const p = progressWriter({ io: s.io });
    p.tick('products', 1, 4);
    p.tick('products', 4, 4);
    p.end('products: 4 created, 0 updated, 0 skipped');
    expect(s.text()).toBe(
      `\rproducts        [${'#'.repeat(8)}${'.'.repeat(22)}] 1/4\rproducts        [${'#'.repeat(30)}] 4/4\r\x1b[Kproducts: 4 created, 0 updated, 0 skipped\n`,
    );
  });

  it('plain lines otherwise', () => {
    const s = sink(false);
    const p = progressWriter({ io: s.io });
    p.tick('products', 1, 4);
    p.end('products: 4 created, 0 updated, 0 skipped');
    expect(s.text()).toBe('products: 4 created, 0 updated, 0 skipped\n');
  });
});
