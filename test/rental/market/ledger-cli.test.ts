import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { EXTERNAL, PLATFORM_COMMISSION, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { TEST_PG } from '../../helpers/app.js';
import { rovaInProcess } from '../../helpers/cli.js';
import { migratedDataDir } from '../../helpers/rova-process.js';

// the command is under test, not the first start: the embedded database comes migrated
const dir = migratedDataDir('rova-ledger-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `rova ledger …` in-process (same code path as the binary, without paying a process start per call). */
async function rova(args: string[]): Promise<{ code: number; stdout: string }> {
  const r = await rovaInProcess(['ledger', ...args], { DATA_DIR: dir });
  return { code: r.code, stdout: r.stdout + r.stderr };
}

async function withApp(fn: (p: Awaited<ReturnType<typeof buildApp>>['platform']) => Promise<void>): Promise<void> {
  const built = await buildApp(
    { ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), jobs: false },
    { logger: false },
  );
  try {
    await fn(built.platform);
  } finally {
    await built.app.close();
  }
}

describe.skipIf(TEST_PG)('rova ledger verify (embedded database in DATA_DIR)', () => {
  it(
    'clean → exit 0 with one "ledger ok" line; a tampered cached balance → exit 1 naming the account; bad usage → 2',
    { timeout: 300_000 },
    async () => {
      await withApp(async (p) => {
        await p.transaction((tx) =>
          postLedgerTransaction(tx, {
            key: 'cli-1',
            kind: 'commission',
            vendorId: null,
            reference: null,
            currency: 'USD',
            lines: [
              { account: EXTERNAL, amount: -1500 },
              { account: PLATFORM_COMMISSION, amount: 1500 },
            ],
          }),
        );
      });
      const ok = await rova(['verify']);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toBe(
        'ledger ok: 2 accounts, 1 transactions, 2 entries, every balance equals the sum of its entries\n',
      );
      await withApp(async (p) => {
        await p.db.execute(sql`UPDATE ledger_accounts SET balance = 99 WHERE code = ${PLATFORM_COMMISSION}`);
      });
      const bad = await rova(['verify']);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain('MISMATCH account platform:commission: cached 99, entries sum 1500\n');
      expect(bad.stdout).toContain('ledger NOT ok');
      expect((await rova(['frobnicate'])).code).toBe(2);
    },
  );

  it(
    'rova ledger clear: income older than the hold period becomes available now; a second run clears nothing',
    { timeout: 300_000 },
    async () => {
      let vendorId = 0;
      await withApp(async (p) => {
        const u = await p.auth.createUser({
          login: 'clear-vendor',
          email: 'clear-vendor@example.test',
          role: 'vendor',
        });
        vendorId = u.id;
        await p.db.execute(
          sql`INSERT INTO rental_vendors (user_id, status, approved_at) VALUES (${u.id}, 'active', now())`,
        );
        const at = new Date(Date.now() - 30 * 86_400_000).toISOString();
        await p.transaction((tx) =>
          postLedgerTransaction(tx, {
            key: 'cli-clear-1',
            kind: 'commission',
            vendorId: u.id,
            reference: 'booking:0',
            currency: 'USD',
            at,
            memo: { net: 4200 },
            lines: [
              { account: EXTERNAL, amount: -4200 },
              { account: vendorAccount(u.id, 'pending'), amount: 4200 },
            ],
          }),
        );
      });
      const first = await rova(['clear']);
      expect(first).toEqual({
        code: 0,
        stdout: 'cleared 1 commission (income older than the hold period is now available)\n',
      });
      await withApp(async (p) => {
        expect(await vendorBalances(p.db, vendorId)).toMatchObject({ pending: 0, available: 4200 });
      });
      expect(await rova(['clear'])).toEqual({
        code: 0,
        stdout: 'cleared 0 commissions (income older than the hold period is now available)\n',
      });
      expect((await rova(['verify'])).code).toBe(1); // the tampered balance of the test before is still there
      expect((await rova(['clear', 'now'])).code).toBe(2);
    },
  );
});
