import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL, vendorAccount } from '../../src/modules/rental/ledger/accounts.js';
import { postLedgerTransaction } from '../../src/modules/rental/ledger/post.js';
import { rows } from '../../src/platform/db/types.js';
import { dataDirDump, makeApp, TEST_PG, type TestApp } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { migratedDataDir } from '../helpers/rova-process.js';
import { rovaSync } from '../ops/spawn.js';
import { V1 } from '../rental/helpers.js';
import { V2, vendor, vendorVehicle } from '../rental/market/helpers.js';

// Issue 34 item 2: the store's currency is the database's fact (option store_currency), written once by the first
// start (STORE_CURRENCY, else USD) or by the WordPress import; every module reads it from there, never from the
// environment, and a STORE_CURRENCY that disagrees with it stops the start.

const RV1 = '/wp-json/rova-rental/v1';
const stored = async (t: TestApp) =>
  (await rows<{ value: unknown }>(t.platform.db, sql`SELECT value FROM rova_options WHERE name = 'store_currency'`))[0]
    ?.value;
const REFUSED =
  "STORE_CURRENCY is USD, but this store's currency is TRY (stored in the database by its first start or the WordPress import; every amount is in it). " +
  "Remove STORE_CURRENCY from the environment (or set it to TRY); a store's currency cannot be changed by a setting.";

describe.skipIf(!!TEST_PG)('the store currency (issue 34 item 2)', () => {
  /** A store whose first start had STORE_CURRENCY=TRY, as its database is after that start. */
  let tryStore: Blob;
  const apps: TestApp[] = [];
  const open = async (env: Record<string, string>, fromDump?: Blob) => {
    const t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', ...env }, fromDump });
    apps.push(t);
    return t;
  };
  beforeAll(async () => {
    const first = await open({ STORE_CURRENCY: 'TRY' });
    tryStore = await dataDirDump(first);
  }, 240_000);
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('the first start writes STORE_CURRENCY, or USD when it is unset', async () => {
    expect(await stored(apps[0]!)).toBe('TRY');
    const plain = await open({ STORE_CURRENCY: '' });
    expect(await stored(plain)).toBe('USD');
    const lower = await open({ STORE_CURRENCY: 'eur' });
    expect(await stored(lower)).toBe('EUR');
  }, 240_000);

  it('a TRY database with STORE_CURRENCY unset: payouts, ledger summary, vendor stats, customer totals, bookings, reports in TRY', async () => {
    const t = await open({ STORE_CURRENCY: '' }, tryStore);
    expect(await stored(t)).toBe('TRY');
    const admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    const v = await vendor(t);
    await vendorVehicle(t, v.id);
    // 500 TRY of cleared commission income, as the store's money is recorded
    await t.platform.transaction(async (tx) => {
      const credit = await postLedgerTransaction(tx, {
        key: `c-${v.id}`,
        kind: 'commission',
        vendorId: v.id,
        reference: 'booking:0',
        currency: 'TRY',
        memo: { net: 50_000 },
        lines: [
          { account: EXTERNAL, amount: -50_000 },
          { account: vendorAccount(v.id, 'pending'), amount: 50_000 },
        ],
      });
      await postLedgerTransaction(tx, {
        key: `cl-${v.id}`,
        kind: 'commission_clearing',
        vendorId: v.id,
        reference: null,
        currency: 'TRY',
        settles: Number(credit.transaction.id),
        lines: [
          { account: vendorAccount(v.id, 'pending'), amount: -50_000 },
          { account: vendorAccount(v.id, 'available'), amount: 50_000 },
        ],
      });
    });

    const payout = await t.inject({
      method: 'POST',
      url: `${V2}/ledger/payouts`,
      headers: { ...v.h, 'idempotency-key': 'try-1' },
      payload: { amount: 300 },
    });
    expect(payout.statusCode, payout.body).toBe(201);
    expect(payout.json().data.payout).toMatchObject({
      vendor_id: v.id,
      amount: 300,
      currency: 'TRY',
      status: 'requested',
    });
    expect(
      await rows(
        t.platform.db,
        sql`SELECT amount::int AS amount, currency FROM vendor_payouts WHERE vendor_id = ${v.id}`,
      ),
    ).toEqual([{ amount: 30_000, currency: 'TRY' }]);

    const summary = await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: v.h });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().data).toMatchObject({
      vendor_id: v.id,
      currency: 'TRY',
      balances: { available: 200, on_hold: 300 },
    });

    const detail = await t.inject({ method: 'GET', url: `${RV1}/vendor-management/${v.id}`, headers: admin });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({
      statistics: { available: 200, on_hold: 300, currency: 'TRY' },
      recent_payouts: [{ amount: 300, currency: 'TRY' }],
    });

    const car = Number(
      (
        await t.inject({
          method: 'POST',
          url: `${RV1}/vehicles`,
          headers: admin,
          payload: { name: 'Fiat Egea', price_per_day: 1500 },
        })
      ).json().data.id,
    );
    expect(await rows(t.platform.db, sql`SELECT currency FROM rental_vehicles WHERE id = ${car}`)).toEqual([
      { currency: 'TRY' },
    ]);
    const b = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: admin,
      payload: {
        vehicle_id: car,
        customer: { name: 'Ayşe', email: 'ayse@example.test' },
        pickup_date: '2031-03-01',
        return_date: '2031-03-03',
      },
    });
    expect(b.statusCode, b.body).toBe(201);
    expect(await rows(t.platform.db, sql`SELECT currency FROM rental_bookings WHERE vehicle_id = ${car}`)).toEqual([
      { currency: 'TRY' },
    ]);

    const customers = await t.inject({ method: 'GET', url: `${RV1}/customers`, headers: admin });
    expect(customers.statusCode).toBe(200);
    const ayse = customers.json().data.items.find((c: { email: string }) => c.email === 'ayse@example.test');
    expect(ayse).toMatchObject({ currency: 'TRY' });
    expect(
      (await t.inject({ method: 'GET', url: `${RV1}/customers/${ayse.id}`, headers: admin })).json().data,
    ).toMatchObject({ currency: 'TRY' });
    expect(
      (await t.inject({ method: 'GET', url: `${RV1}/dashboard/stats`, headers: admin })).json().data,
    ).toMatchObject({ currency: 'TRY' });
    expect(
      (await t.inject({ method: 'GET', url: `${RV1}/reports/overview`, headers: admin })).json().data,
    ).toMatchObject({ currency: 'TRY' });
    expect(
      (await t.inject({ method: 'GET', url: '/wp-json/rova/v1/auth/me', headers: admin })).json().store,
    ).toMatchObject({ currency: 'TRY' });
  }, 240_000);

  it('STORE_CURRENCY=USD on a TRY database: the start is refused with what to do', async () => {
    await expect(open({ STORE_CURRENCY: 'USD' }, tryStore)).rejects.toThrow(REFUSED);
    // the same value as stored (any case) is accepted
    const same = await open({ STORE_CURRENCY: 'try' }, tryStore);
    expect(await stored(same)).toBe('TRY');
  }, 240_000);

  it('the import (and any change committed while nodes run) is read by every module without a restart', async () => {
    const t = await open({ STORE_CURRENCY: '' });
    const v = await vendor(t);
    const summary = async () =>
      (await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: v.h })).json().data.currency as string;
    expect(await summary()).toBe('USD');
    // what `rova import wordpress` does: the currency step writes the option, the command announces it after commit
    await t.platform.db.execute(sql`UPDATE rova_options SET value = '"TRY"'::jsonb WHERE name = 'store_currency'`);
    expect(await summary()).toBe('USD');
    await t.platform.storeCurrency.changed();
    expect(await summary()).toBe('TRY');
  }, 240_000);
});

describe.skipIf(!!TEST_PG)('the store currency from the command line (issue 34 item 2)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const env = (dataDir: string, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '',
    HOME: dataDir,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
    ...extra,
  });

  it('rova setup on a new store writes STORE_CURRENCY and says so; a later start with another STORE_CURRENCY exits 2 with the message', async () => {
    const d = migratedDataDir('rova-currency-');
    dirs.push(d);
    const setup = await rovaInProcess(
      ['setup', '--login', 'owner', '--email', 'owner@example.test', '--password', 'a long enough password'],
      env(d, { STORE_CURRENCY: 'TRY' }),
    );
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toContain(
      "  4. the store's currency is TRY (STORE_CURRENCY on the first start, else USD; rova import wordpress sets the shop's): every amount is in it\n",
    );
    const refused = await rovaInProcess(['migrate'], env(d, { STORE_CURRENCY: 'USD' }));
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: `rova: configuration error: ${REFUSED}\n` });
    // the server itself (a real process): exit code 2, the same line, nothing served
    const serve = rovaSync(['serve'], env(d, { STORE_CURRENCY: 'USD' }));
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(`rova: configuration error: ${REFUSED}\n`);
    // without STORE_CURRENCY the stored TRY holds
    const unset = await rovaInProcess(['migrate'], env(d));
    expect(unset.code, unset.stderr).toBe(0);
  }, 240_000);
});
