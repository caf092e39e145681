import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { importWordPress } from '../../src/modules/import/wordpress/service.js';
import { openMysqlSource, type WpSource } from '../../src/modules/import/wordpress/source.js';
import type { ImportReport } from '../../src/modules/import/wordpress/report.js';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { vendorBalances } from '../../src/modules/rental/ledger/balances.js';
import { requestPayout } from '../../src/modules/rental/payouts/service.js';
import { HttpError } from '../../src/platform/http/errors.js';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import * as F from '../fixtures/wordpress/fixture.js';

// Issue 34.1: the imported ledger says "cleared" and "refunds that credit" the way the clearing job reads it, so
// starting Rova (every scheduled job on) after `rova import wordpress` moves no vendor's money.
const MYSQL = process.env.ROVA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';
const DB = `wp_jobs_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
let t: TestApp;
let source: WpSource;
let report: ImportReport;
const WP_VENDORS = [4, 5, 6];

const minor = (major: string) => Math.round(Number(major) * 100);
const balancesOf = async () =>
  Promise.all(
    WP_VENDORS.map(async (wp) => {
      const b = await vendorBalances(t.platform.db, report.ledger.find((x) => x.vendorId === wp)!.vendorId);
      return { wp, available: b.available, pending: b.pending };
    }),
  );

beforeAll(async () => {
  const url = await F.buildWordPressFixture(MYSQL, DB);
  source = await openMysqlSource(url, 'wp_');
  t = await makeApp({ env: { STORE_CURRENCY: 'USD' } });
  report = await importWordPress(
    { db: t.platform.db, transaction: (f) => t.platform.transaction(f), secret: t.config.secret },
    source,
    { wpKeys: F.WP_KEYS },
  );
}, 240_000);

afterAll(async () => {
  await source?.close();
  await t?.close();
  await F.dropWordPressFixture(MYSQL, DB);
});

describe('an imported ledger after Rova starts (issue 34.1)', () => {
  it('the fixture has cleared and pending commissions and refunds of both; the import compares balances after a pass of the jobs', () => {
    expect(new Set(F.LEDGER.filter((r) => r.type === 'commission_credit').map((r) => r.status))).toEqual(
      new Set(['cleared', 'pending', 'reserved', 'void']),
    );
    expect(F.LEDGER.filter((r) => r.type === 'commission_refund').map((r) => r.status)).toEqual(['cleared', 'pending']);
    expect(report.ledger.map((b) => [b.vendorId, b.matches, b.rova])).toEqual(
      WP_VENDORS.map((wp) => [wp, true, F.originalBalances(wp)]),
    );
    const led = report.entities.find((e) => e.entity === 'ledger')!;
    expect(led.warnings).toEqual([]);
  });

  it('every scheduled job run once, as `npm start` runs them: no vendor balance moves; verify stays clean; a payout above available is refused', async () => {
    const before = await balancesOf();
    expect(before).toEqual(
      WP_VENDORS.map((wp) => ({
        wp,
        available: minor(F.originalBalances(wp).available),
        pending: minor(F.originalBalances(wp).pending),
      })),
    );
    const started = new Date();
    const live = await buildApp({ ...t.config, jobs: true, jobTickMs: 1_000 }, { logger: false });
    try {
      // the backup job is scheduled on every node but runs only with BACKUP_SCHEDULE set (not here): npm start runs the rest
      const names = live.platform.jobs
        .scheduled()
        .filter((n) => n !== 'backup' || live.platform.config.backupEveryMs !== null);
      expect(names).toEqual(expect.arrayContaining(['ledger-clearing', 'rental-hold-expiry', 'audit-retention']));
      for (let i = 0; ; i++) {
        const done = await rows<{ job: string }>(
          t.platform.db,
          sql`SELECT DISTINCT job FROM rova_job_runs WHERE finished_at IS NOT NULL AND started_at >= ${started.toISOString()}`,
        );
        if (names.every((n) => done.some((d) => d.job === n))) break;
        if (i > 120) throw new Error(`jobs not run: ${names.filter((n) => !done.some((d) => d.job === n)).join(', ')}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(
        await rows(t.platform.db, sql`SELECT job, outcome FROM rova_job_runs WHERE job = 'ledger-clearing'`),
      ).toEqual([{ job: 'ledger-clearing', outcome: 'success' }]);
    } finally {
      await live.app.close();
    }
    expect(await balancesOf()).toEqual(before);
    expect(await verifyIntegrity(t.platform.db)).toMatchObject({ ok: true, findings: [] });

    // vendor 4: 13.50 available, 4.25 pending (× 100): asking for more than available is refused, pending does not count
    const v4 = report.ledger.find((x) => x.vendorId === 4)!.vendorId;
    const user = { id: v4, login: 'v4', email: 'v4@example.org', displayName: 'v4', role: 'vendor' as const };
    const refused = await requestPayout(t.platform, user, (before[0]!.available + 1) / 100, null).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 409, message: 'The available balance is $1,350.00.' });
    const { payout } = await requestPayout(t.platform, user, before[0]!.available / 100, null);
    expect(Number(payout.amount)).toBe(before[0]!.available);
    expect(await vendorBalances(t.platform.db, v4)).toMatchObject({
      available: 0,
      pending: before[0]!.pending,
      on_hold: before[0]!.available,
    });
    expect((await verifyIntegrity(t.platform.db)).ok).toBe(true);
  }, 180_000);
});
