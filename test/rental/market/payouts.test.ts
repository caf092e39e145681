// @integration: concurrent payout requests and approvals serialise on the vendor money lock
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { clearedIncome, completedBooking, transactionSums, V2, vendor, vendorVehicle } from './helpers.js';

const SECRET = 'whsec_' + Buffer.from('payout-processor-test-secret-0123456789').toString('base64');
const OTHER = 'whsec_' + Buffer.from('someone-else-entirely-different-secret!!').toString('base64');

describe('v2 ledger and payouts (design §8)', () => {
  let t: TestApp;
  let bare: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', ROVA_PAYOUT_WEBHOOK_SECRET: SECRET } });
    bare = await makeApp();
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await bare?.close();
  });

  /** Gives the vendor `major` of available money: a commission and its clearing (each call a millisecond apart: its own keys). */
  let funded = 0;
  const fund = async (vendorId: number, major: number) =>
    clearedIncome(t, vendorId, major * 100, new Date(Date.now() - ++funded).toISOString());
  const ask = (h: Record<string, string>, amount: number, key?: string) =>
    t.inject({
      method: 'POST',
      url: `${V2}/ledger/payouts`,
      headers: { ...h, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { amount },
    });
  // the processor signs a body that names its payout (payout_id defaults to the URL's)
  const sign = (
    secret: string,
    id: number,
    body: object,
    msgId = `msg_${Math.random().toString(36).slice(2)}`,
    at = new Date(),
  ) => {
    const payload = JSON.stringify({ payout_id: id, ...body });
    return {
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(msgId, at, payload),
      },
      payload,
      url: `${V2}/payouts/${id}/callback`,
    };
  };
  const callback = (secret: string, id: number, body: object, msgId?: string, at?: Date, app = t) => {
    const s = sign(secret, id, body, msgId, at);
    return app.inject({ method: 'POST', url: s.url, headers: s.headers, payload: s.payload });
  };
  const summary = async (h: Record<string, string>, q = '') =>
    (await t.inject({ method: 'GET', url: `${V2}/ledger/summary${q}`, headers: h })).json().data;

  it('journey: completion → pending → available; request → hold; approve → statement; signed paid callback; replay is idempotent; failed after paid reverses', async () => {
    const v = await vendor(t);
    await completedBooking(t, await vendorVehicle(t, v.id), '400.00');
    expect((await summary(v.h)).balances).toMatchObject({ pending: 340, available: 0 });
    const { clearMaturedCommissions } = await import('../../../src/modules/rental/ledger/clearing.js');
    await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000));
    expect((await summary(v.h)).balances).toMatchObject({ pending: 0, available: 340, total_earned: 340 });

    expect((await ask(v.h, 0)).statusCode).toBe(400);
    const low = await ask(v.h, 99.99);
    expect(low.statusCode).toBe(400);
    expect(low.json().details.reason).toBe('below_minimum');
    const much = await ask(v.h, 340.01);
    expect(much.statusCode).toBe(409);
    expect(much.json().details.reason).toBe('insufficient_funds');
    const r = await ask(v.h, 150, 'key-1');
    expect(r.statusCode).toBe(201);
    const payout = r.json().data.payout;
    expect(payout).toMatchObject({
      vendor_id: v.id,
      amount: 150,
      currency: 'USD',
      status: 'requested',
      statement_number: null,
    });
    const again = await ask(v.h, 150, 'key-1');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.payout.id).toBe(payout.id);
    expect((await ask(v.h, 160, 'key-1')).json().details.reason).toBe('idempotency_key_reused');
    expect((await ask(v.h, 100)).json().details.reason).toBe('pending_exists');
    expect((await summary(v.h)).balances).toMatchObject({ available: 190, on_hold: 150 });

    const ok = await t.inject({ method: 'POST', url: `${V2}/payouts/${payout.id}/approve`, headers: admin });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.payout.statement_number).toMatch(new RegExp(`^PS-${new Date().getUTCFullYear()}-\\d{4}$`));
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/payouts/${payout.id}/approve`, headers: admin })).statusCode,
    ).toBe(409);

    const paid = await callback(SECRET, payout.id, { status: 'paid', external_reference: 'BANK-1' }, 'msg_paid_1');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({
      success: true,
      data: { payout_id: payout.id, status: 'paid', idempotent: false },
      message: 'Payout paid.',
    });
    const txCount = (await verifyLedger(t.platform.db)).transactions;
    const replay = await callback(SECRET, payout.id, { status: 'paid', external_reference: 'BANK-1' }, 'msg_paid_1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data).toEqual({ payout_id: payout.id, status: 'paid', idempotent: true });
    expect((await verifyLedger(t.platform.db)).transactions).toBe(txCount);
    expect((await summary(v.h)).balances).toMatchObject({ available: 190, on_hold: 0, total_paid_out: 150 });

    const failed = await callback(SECRET, payout.id, { status: 'failed' }, 'msg_failed_1');
    expect(failed.json().data).toEqual({ payout_id: payout.id, status: 'failed', idempotent: false });
    expect((await summary(v.h)).balances).toMatchObject({ available: 340, on_hold: 0, total_paid_out: 0 });
    expect((await callback(SECRET, payout.id, { status: 'failed' }, 'msg_failed_1')).json().data.idempotent).toBe(true);

    const log = await t.inject({
      method: 'GET',
      url: `/wp-json/rova-rental/v1/vendor-management/${v.id}/audit-log`,
      headers: admin,
    });
    expect(log.json().data.items.map((x: { event_type: string }) => x.event_type)).toEqual([
      'payout_failed',
      'payout_paid',
      'payout_approved',
      'payout_requested',
      'commission_cleared',
      'commission_applied',
    ]);
    const events = await rows<{ type: string }>(
      t.platform.db,
      sql`SELECT type FROM rova_events WHERE type LIKE 'payout.%' AND payload->'data'->>'payout_id' = ${String(payout.id)} ORDER BY id`,
    );
    expect(events.map((e) => e.type)).toEqual(['payout.requested', 'payout.approved', 'payout.paid', 'payout.failed']);
    const detail = await t.inject({
      method: 'GET',
      url: `/wp-json/rova-rental/v1/vendor-management/${v.id}`,
      headers: admin,
    });
    expect(detail.json().data.recent_payouts).toMatchObject([{ id: payout.id, amount: 150, status: 'failed' }]);
  });

  it('a signed callback binds its payout and amount: a paid for one payout cannot settle another; the receipt is per (webhook-id, payout) (issue 19 item 8)', async () => {
    const v1 = await vendor(t);
    const v2 = await vendor(t);
    await fund(v1.id, 500);
    await fund(v2.id, 500);
    const p1 = (await ask(v1.h, 200)).json().data.payout.id as number;
    const p2 = (await ask(v2.h, 300)).json().data.payout.id as number;
    for (const id of [p1, p2])
      expect((await t.inject({ method: 'POST', url: `${V2}/payouts/${id}/approve`, headers: admin })).statusCode).toBe(
        200,
      );
    // a genuine, correctly signed "paid" for p1, replayed against p2's URL
    const s = sign(SECRET, p1, { status: 'paid', amount: 200 }, 'msg_bind_1');
    const replayed = await t.inject({
      method: 'POST',
      url: `${V2}/payouts/${p2}/callback`,
      headers: s.headers,
      payload: s.payload,
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { field: 'payout_id', reason: 'payout_mismatch' },
    });
    const wrongAmount = await callback(SECRET, p2, { status: 'paid', amount: 200 }, 'msg_bind_2');
    expect(wrongAmount.statusCode).toBe(400);
    expect(wrongAmount.json()).toMatchObject({ details: { field: 'amount', reason: 'amount_mismatch' } });
    expect((await summary(v2.h)).balances).toMatchObject({ on_hold: 300, total_paid_out: 0 });
    // the genuine delivery for p1 settles p1 only
    expect(
      (await t.inject({ method: 'POST', url: s.url, headers: s.headers, payload: s.payload })).json().data,
    ).toEqual({ payout_id: p1, status: 'paid', idempotent: false });
    // the same webhook-id for another payout is another delivery, not a replay
    expect((await callback(SECRET, p2, { status: 'paid', amount: 300 }, 'msg_bind_1')).json().data).toEqual({
      payout_id: p2,
      status: 'paid',
      idempotent: false,
    });
    expect((await summary(v1.h)).balances).toMatchObject({ on_hold: 0, total_paid_out: 200 });
    expect((await summary(v2.h)).balances).toMatchObject({ on_hold: 0, total_paid_out: 300 });
  });

  it('callbacks: forged, expired, other-secret, missing headers → 401; no secret configured → 401; unknown payout → 404; not approved → 409', async () => {
    const v = await vendor(t);
    await fund(v.id, 500);
    const id = (await ask(v.h, 200)).json().data.payout.id as number;
    const s = sign(SECRET, id, { status: 'paid' });
    const forged = await t.inject({
      method: 'POST',
      url: s.url,
      headers: s.headers,
      payload: JSON.stringify({ status: 'paid', external_reference: 'x' }),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({
      success: false,
      error_code: 'AUTH_REQUIRED',
      message: 'Invalid or missing webhook signature.',
    });
    expect(
      (await callback(SECRET, id, { status: 'paid' }, undefined, new Date(Date.now() - 10 * 60_000))).statusCode,
    ).toBe(401);
    expect((await callback(OTHER, id, { status: 'paid' })).statusCode).toBe(401);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: s.url,
          headers: { 'content-type': 'application/json' },
          payload: s.payload,
        })
      ).statusCode,
    ).toBe(401);
    expect((await callback(SECRET, id, { status: 'paid' }, undefined, undefined, bare)).statusCode).toBe(401);
    expect((await callback(SECRET, 999999, { status: 'paid' })).statusCode).toBe(404);
    const early = await callback(SECRET, id, { status: 'paid' });
    expect(early.statusCode).toBe(409);
    expect((await callback(SECRET, id, { status: 'maybe' })).statusCode).toBe(400);
    // a body signed without naming its payout, or with an unknown property, is refused
    expect(
      (
        await t.inject({
          method: 'POST',
          url: s.url,
          headers: s.headers,
          payload: s.payload.replace(`"payout_id":${id},`, ''),
        })
      ).statusCode,
    ).toBe(401);
    expect((await callback(SECRET, id, { status: 'paid', note: 'x' })).statusCode).toBe(400);
    expect((await summary(v.h)).balances).toMatchObject({ available: 300, on_hold: 200, total_paid_out: 0 });
    // reject releases the hold
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/payouts/${id}/reject`, headers: admin, payload: { reason: '' } }))
        .statusCode,
    ).toBe(400);
    const rej = await t.inject({
      method: 'POST',
      url: `${V2}/payouts/${id}/reject`,
      headers: admin,
      payload: { reason: 'Bank details unclear.' },
    });
    expect(rej.json().data.payout).toMatchObject({ status: 'rejected', rejection_reason: 'Bank details unclear.' });
    expect((await summary(v.h)).balances).toMatchObject({ available: 500, on_hold: 0 });
  });

  it('50 concurrent payout requests for one vendor → exactly one; 50 concurrent approvals → one approval, one hold, one statement', async () => {
    const v = await vendor(t);
    await fund(v.id, 1000);
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => ask(v.h, 100 + i)));
    const codes = rs.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const id = rs.find((r) => r.statusCode === 201)!.json().data.payout.id as number;
    const approvals = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.inject({ method: 'POST', url: `${V2}/payouts/${id}/approve`, headers: admin }),
      ),
    );
    expect(approvals.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(approvals.filter((r) => r.statusCode === 409)).toHaveLength(49);
    const holds = await rows(
      t.platform.db,
      sql`SELECT id FROM ledger_transactions WHERE reference = ${'payout:' + id}`,
    );
    expect(holds).toHaveLength(1);
    const st = await one<{ statement_number: string }>(
      t.platform.db,
      sql`SELECT statement_number FROM vendor_payouts WHERE id = ${id}`,
    );
    expect(st!.statement_number).toMatch(/^PS-\d{4}-\d{4}$/);
    const paid = await Promise.all(
      Array.from({ length: 10 }, (_, i) => callback(SECRET, id, { status: 'paid' }, `msg_conc_${i}`)),
    );
    expect(paid.filter((r) => r.json().data?.idempotent === false)).toHaveLength(1);
    expect(
      await rows(
        t.platform.db,
        sql`SELECT id FROM ledger_transactions WHERE reference = ${'payout:' + id} AND kind = 'payout_paid'`,
      ),
    ).toHaveLength(1);
  });

  it('payout freeze, ownership and roles: another vendor → 404, a customer → 403, admin needs vendor_id', async () => {
    const v = await vendor(t);
    const w = await vendor(t);
    await fund(v.id, 300);
    const set = await t.inject({
      method: 'PUT',
      url: `${V2}/marketplace/settings`,
      headers: admin,
      payload: { payout_freeze: true },
    });
    expect(set.json().data.payout_freeze).toBe(true);
    const frozen = await ask(v.h, 150);
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().details.reason).toBe('payout_freeze');
    await t.inject({
      method: 'PUT',
      url: `${V2}/marketplace/settings`,
      headers: admin,
      payload: { payout_freeze: false },
    });
    expect((await ask(v.h, 150)).statusCode).toBe(201);
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/summary?vendor_id=${v.id}`, headers: w.h })).statusCode,
    ).toBe(404);
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    for (const [method, url] of [
      ['GET', `${V2}/ledger/summary`],
      ['POST', `${V2}/ledger/payouts`],
      ['GET', `${V2}/ledger/payouts`],
      ['GET', `${V2}/payouts`],
    ] as const) {
      expect(
        (await t.inject({ method, url, headers: c, payload: method === 'POST' ? { amount: 150 } : undefined }))
          .statusCode,
        url,
      ).toBe(403);
    }
    expect((await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: admin })).statusCode).toBe(400);
    const s = await t.inject({
      method: 'GET',
      url: `${V2}/ledger/summary?vendor_id=${v.id}&start_date=2020-01-01&end_date=2020-01-31&kind=payout_hold`,
      headers: admin,
    });
    expect(s.statusCode).toBe(200);
    expect(s.json().data).toMatchObject({
      vendor_id: v.id,
      balances: { available: 150, on_hold: 150 },
      entries: { total: 2 },
    });
    expect(
      s
        .json()
        .data.entries.items.map((e: { kind: string; account: string; amount: number }) => [
          e.kind,
          e.account,
          e.amount,
        ]),
    ).toEqual([
      ['payout_hold', 'payout_hold', 150],
      ['payout_hold', 'available', -150],
    ]);
    expect(s.json().data.daily).toHaveLength(31);
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/summary?start_date=2020-02-30`, headers: v.h })).statusCode,
    ).toBe(400);
    const mine = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts`, headers: v.h });
    expect(mine.json().data.total).toBe(1);
  });

  it('a negative available balance is a debt: shown as owed, listed for the admin; a payout it no longer covers cannot be approved or paid (issue 19 item 4)', async () => {
    const v = await vendor(t);
    await fund(v.id, 200);
    const r = await ask(v.h, 150);
    expect(r.statusCode).toBe(201);
    const id = r.json().data.payout.id as number;
    // a penalty after the request takes more than what is left available: the vendor now owes 70
    const penalty = (major: number) =>
      t.platform.transaction((tx) =>
        postLedgerTransaction(tx, {
          key: `pen-${v.id}-${Math.random()}`,
          kind: 'penalty',
          vendorId: v.id,
          reference: null,
          currency: 'USD',
          lines: [
            { account: vendorAccount(v.id, 'available'), amount: -major * 100 },
            { account: 'platform:penalties', amount: major * 100 },
          ],
        }),
      );
    await penalty(120);
    expect((await summary(v.h)).balances).toMatchObject({ available: -70, on_hold: 150, owed: 70 });
    const owing = await t.inject({
      method: 'GET',
      url: `/wp-json/rova-rental/v1/vendor-management/vendors?owing=true&per_page=100`,
      headers: admin,
    });
    expect(owing.statusCode).toBe(200);
    expect(owing.json().data.items).toEqual([expect.objectContaining({ id: v.id, owed: 70 })]);
    const detail = await t.inject({
      method: 'GET',
      url: `/wp-json/rova-rental/v1/vendor-management/${v.id}`,
      headers: admin,
    });
    expect(detail.json().data).toMatchObject({ owed: 70, statistics: { available: -70, owed: 70 } });
    // nothing more can be requested while the vendor owes
    const more = await ask(v.h, 100, 'while-owing');
    expect(more.statusCode).toBe(409);
    expect(more.json().details.reason).toBe('pending_exists');

    const approve = () => t.inject({ method: 'POST', url: `${V2}/payouts/${id}/approve`, headers: admin });
    const refused = await approve();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      details: { reason: 'vendor_owes', owed: 70, covered: 80 },
    });
    expect(refused.json().message).toMatch(
      /^Payout \d+ cannot be approved: vendor \d+ owes \$70\.00 and hold \+ available cover only \$80\.00 of \$150\.00\./,
    );
    // income settles the debt first: 100 more leaves 30 available, and hold + available cover the payout again
    await fund(v.id, 100);
    expect((await summary(v.h)).balances).toMatchObject({ available: 30, owed: 0 });
    expect((await approve()).statusCode).toBe(200);
    // between approval and the processor's answer another penalty: paying 150 would pay money the vendor no longer has
    await penalty(50);
    const paid = await callback(SECRET, id, { status: 'paid', external_reference: 'BANK-OWE' }, 'msg_owe_1');
    expect(paid.statusCode).toBe(409);
    expect(paid.json().details).toMatchObject({ reason: 'vendor_owes', owed: 20, covered: 130 });
    expect(
      await rows(t.platform.db, sql`SELECT 1 FROM payout_webhook_receipts WHERE webhook_id = 'msg_owe_1'`),
    ).toEqual([]);
    expect(
      (await one<{ status: string }>(t.platform.db, sql`SELECT status FROM vendor_payouts WHERE id = ${id}`))!.status,
    ).toBe('approved');
    // the same delivery, retried once the debt is settled, pays
    await fund(v.id, 20);
    const retried = await callback(SECRET, id, { status: 'paid', external_reference: 'BANK-OWE' }, 'msg_owe_1');
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toEqual({ payout_id: id, status: 'paid', idempotent: false });
    expect((await summary(v.h)).balances).toMatchObject({ available: 0, on_hold: 0, owed: 0, total_paid_out: 150 });
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `/wp-json/rova-rental/v1/vendor-management/vendors?owing=true&per_page=100`,
          headers: admin,
        })
      )
        .json()
        .data.items.map((x: { id: number }) => x.id),
    ).not.toContain(v.id);
  });

  it('amounts the minor unit cannot hold exactly are refused, never rounded into validity: 99.995 (minimum 100), 100.001, ≥ 2^53 minor units → 400', async () => {
    const v = await vendor(t);
    await fund(v.id, 500);
    const cases: [number, string][] = [
      [99.995, 'below_minimum'],
      [99.999999, 'below_minimum'],
      [100.001, 'invalid_amount'],
      [2 ** 53 / 100, 'invalid_amount'],
      [1e300, 'invalid_amount'],
    ];
    for (const [amount, reason] of cases) {
      const res = await ask(v.h, amount);
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json(), String(amount)).toMatchObject({
        success: false,
        error_code: 'INVALID_PARAMS',
        details: { field: 'amount', reason },
      });
    }
    expect(await rows(t.platform.db, sql`SELECT id FROM vendor_payouts WHERE vendor_id = ${v.id}`)).toEqual([]);
    expect((await ask(v.h, 100.5)).statusCode).toBe(201);
  });

  it('every transaction sums to 0 and verify is clean', async () => {
    expect((await transactionSums(t)).every((x) => x === 0)).toBe(true);
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
  });
});
