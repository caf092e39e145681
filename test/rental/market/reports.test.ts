// @integration: concurrent report decisions serialise on row locks
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { EXTERNAL, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { rawBooking, V1 } from '../helpers.js';
import { vendor, vendorVehicle } from './helpers.js';

const DESC = 'The customer returned the car with a broken mirror.';

describe('vendor reports (design §6, reference §8.8)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    const a = await t.userWithKey('administrator');
    admin = { 'x-rova-api-key': a.key };
    adminId = a.userId;
  }, 300_000);
  afterAll(async () => t?.close());

  const file = (h: Record<string, string>, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V1}/vendor/reports`, headers: h, payload });
  const decide = (id: number, move: 'resolve' | 'reject' | 'review', payload: Record<string, unknown> = {}) =>
    t.inject({ method: 'POST', url: `${V1}/vendor-reports/${id}/${move}`, headers: admin, payload });

  /** 2000.00 of cleared commission income a month ago (reference scenario 63's setup). */
  async function income(vendorId: number): Promise<void> {
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    await t.platform.transaction(async (tx) => {
      const credit = await postLedgerTransaction(tx, {
        key: `c-${vendorId}`,
        kind: 'commission',
        vendorId,
        reference: 'booking:0',
        currency: 'USD',
        at: monthAgo,
        lines: [
          { account: EXTERNAL, amount: -200000 },
          { account: vendorAccount(vendorId, 'pending'), amount: 200000 },
        ],
      });
      await postLedgerTransaction(tx, {
        key: `cl-${vendorId}`,
        kind: 'commission_clearing',
        vendorId,
        reference: null,
        currency: 'USD',
        at: monthAgo,
        settles: Number(credit.transaction.id),
        lines: [
          { account: vendorAccount(vendorId, 'pending'), amount: -200000 },
          { account: vendorAccount(vendorId, 'available'), amount: 200000 },
        ],
      });
    });
  }
  async function priorWithdrawal(vendorId: number): Promise<void> {
    const old = await vendorVehicle(t, vendorId, { lifecycle: 'withdrawn' });
    await t.platform.db.execute(
      sql`UPDATE vendor_listings SET withdrawn_at = now() - interval '1 month' WHERE vehicle_id = ${old}`,
    );
  }
  const penalties = async (vendorId: number) =>
    rows<{ kind: string }>(
      t.platform.db,
      sql`SELECT kind FROM ledger_transactions WHERE vendor_id = ${vendorId} AND kind IN ('penalty', 'penalty_reversal') ORDER BY id`,
    );
  const available = async (vendorId: number) => (await vendorBalances(t.platform.db, vendorId)).available;

  it('59/60: validation (description ≥ 20 code points, context ownership), one open report per context, again once terminal', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const foreign = await vendorVehicle(t, other.id);
    const short = await file(v.h, { context_type: 'vehicle', context_id: car, title: 'Damage', description: 'Short.' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { field: 'description' },
    });
    // 19 emoji are 38 UTF-16 units but 19 characters: still too short
    expect((await file(v.h, { context_type: 'general', title: 'x', description: '😀'.repeat(19) })).statusCode).toBe(
      400,
    );
    expect((await file(v.h, { context_type: 'general', title: '   ', description: DESC })).json()).toMatchObject({
      error_code: 'INVALID_PARAMS',
      details: { field: 'title' },
    });
    expect((await file(v.h, { context_type: 'refund', title: 'x', description: DESC })).statusCode).toBe(400);
    expect((await file(v.h, { context_type: 'vehicle', title: 'x', description: DESC })).json()).toMatchObject({
      error_code: 'INVALID_PARAMS',
      details: { field: 'context_id' },
    });
    expect(
      (await file(v.h, { context_type: 'general', context_id: car, title: 'x', description: DESC })).statusCode,
    ).toBe(400);
    expect(
      (await file(v.h, { context_type: 'vehicle', context_id: foreign, title: 'x', description: DESC })).json(),
    ).toMatchObject({ error_code: 'INVALID_PARAMS', details: { field: 'context_id' } });
    expect(
      (await file(v.h, { context_type: 'booking', context_id: 999999, title: 'x', description: DESC })).statusCode,
    ).toBe(400);
    const foreignBooking = await rawBooking(t, foreign, '2032-01-01T10:00:00Z', '2032-01-03T10:00:00Z', 'completed');
    expect(
      (await file(v.h, { context_type: 'booking', context_id: foreignBooking, title: 'x', description: DESC }))
        .statusCode,
    ).toBe(400);
    const ownBooking = await rawBooking(t, car, '2032-02-01T10:00:00Z', '2032-02-03T10:00:00Z', 'completed');
    const b = await file(v.h, {
      context_type: 'booking',
      context_id: ownBooking,
      title: '  Broken mirror  ',
      description: `  ${DESC}  `,
    });
    expect(b.statusCode).toBe(201);
    expect(b.json().data).toMatchObject({
      vendor_id: v.id,
      context_type: 'booking',
      context_label: 'Booking',
      context_id: ownBooking,
      title: 'Broken mirror',
      description: DESC,
      status: 'open',
      status_label: 'Open',
      is_terminal: false,
      admin_note: null,
      resolved_at: null,
      audit: [{ action: 'created', actor_id: v.id, note: null }],
    });

    const first = await file(v.h, {
      context_type: 'vehicle_action',
      context_id: car,
      title: 'Appeal',
      description: DESC,
    });
    expect(first.statusCode).toBe(201);
    const dup = await file(v.h, { context_type: 'vehicle_action', context_id: car, title: 'Again', description: DESC });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error_code: 'STATE_CONFLICT', details: { reason: 'duplicate_open_report' } });
    // another context on the same vehicle is a different context
    expect(
      (await file(v.h, { context_type: 'vehicle', context_id: car, title: 'Other', description: DESC })).statusCode,
    ).toBe(201);
    expect((await decide(first.json().data.id, 'review')).statusCode).toBe(200);
    expect(
      (await file(v.h, { context_type: 'vehicle_action', context_id: car, title: 'Again', description: DESC }))
        .statusCode,
    ).toBe(409); // in_review is open
    expect((await decide(first.json().data.id, 'resolve')).statusCode).toBe(200);
    expect(
      (await file(v.h, { context_type: 'vehicle_action', context_id: car, title: 'Again', description: DESC }))
        .statusCode,
    ).toBe(201);
    // one open general report at a time, too
    expect((await file(v.h, { context_type: 'general', title: 'Payout', description: DESC })).statusCode).toBe(201);
    expect(
      (await file(v.h, { context_type: 'general', context_id: null, title: 'Payout', description: DESC })).statusCode,
    ).toBe(409);
  });

  it('57/58: admin list (default open, all, context filter, paging) and detail; vendors see only their own; a customer → 403', async () => {
    const v = await vendor(t);
    const w = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const a = (await file(v.h, { context_type: 'vehicle', context_id: car, title: 'A', description: DESC })).json().data
      .id as number;
    const g = (await file(v.h, { context_type: 'general', title: 'G', description: DESC })).json().data.id as number;
    const wr = (await file(w.h, { context_type: 'general', title: 'W', description: DESC })).json().data.id as number;
    expect((await decide(g, 'resolve', { admin_note: '  Done.  ' })).statusCode).toBe(200);

    const open = await t.inject({ method: 'GET', url: `${V1}/vendor-reports?per_page=100`, headers: admin });
    expect(open.statusCode).toBe(200);
    const openIds = open.json().data.items.map((x: { id: number }) => x.id);
    expect(openIds).toEqual(expect.arrayContaining([a, wr]));
    expect(openIds).not.toContain(g);
    const all = (
      await t.inject({ method: 'GET', url: `${V1}/vendor-reports?status=all&per_page=100`, headers: admin })
    ).json().data;
    expect(all.items.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([a, g, wr]));
    expect(all.items[0].id).toBeGreaterThan(all.items[all.items.length - 1].id); // newest first
    const resolved = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-reports?status=resolved&context_type=general`,
        headers: admin,
      })
    ).json().data;
    expect(resolved.items.map((x: { id: number }) => x.id)).toContain(g);
    expect(
      resolved.items.every(
        (x: { status: string; context_type: string }) => x.status === 'resolved' && x.context_type === 'general',
      ),
    ).toBe(true);
    const vehicleOnly = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-reports?context_type=vehicle&status=all&per_page=100`,
        headers: admin,
      })
    ).json().data;
    expect(vehicleOnly.items.every((x: { context_type: string }) => x.context_type === 'vehicle')).toBe(true);
    const paged = (
      await t.inject({ method: 'GET', url: `${V1}/vendor-reports?status=all&per_page=1&page=2`, headers: admin })
    ).json().data;
    expect(paged).toMatchObject({ page: 2, per_page: 1, total: all.total, total_pages: all.total });
    expect(paged.items).toHaveLength(1);
    for (const q of ['status=closed', 'context_type=refund', 'per_page=0', 'page=0']) {
      const r = await t.inject({ method: 'GET', url: `${V1}/vendor-reports?${q}`, headers: admin });
      expect(r.statusCode, q).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
    }

    const d = await t.inject({ method: 'GET', url: `${V1}/vendor-reports/${g}`, headers: admin });
    expect(d.statusCode).toBe(200);
    const u = await one<{ email: string }>(t.platform.db, sql`SELECT email FROM rova_users WHERE id = ${v.id}`);
    expect(d.json().data).toMatchObject({
      id: g,
      vendor_id: v.id,
      vendor_email: u!.email,
      description: DESC,
      status: 'resolved',
      status_label: 'Resolved',
      is_terminal: true,
      admin_note: 'Done.',
      admin_user_id: adminId,
      audit: [
        { action: 'created', actor_id: v.id, note: null },
        { action: 'resolved', actor_id: adminId, note: 'Done.' },
      ],
    });
    expect(d.json().data.vendor_name).toMatch(new RegExp(`\\(#${v.id}\\)$`));
    expect(d.json().data.resolved_at).toMatch(/Z$/);
    const missing = await t.inject({ method: 'GET', url: `${V1}/vendor-reports/99999999`, headers: admin });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });

    // vendors: their own only
    const mine = (await t.inject({ method: 'GET', url: `${V1}/vendor/reports`, headers: v.h })).json().data;
    expect(mine.items.map((x: { id: number }) => x.id).sort()).toEqual([a, g].sort());
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/reports/${a}`, headers: v.h })).json().data,
    ).toMatchObject({ id: a, description: DESC });
    expect((await t.inject({ method: 'GET', url: `${V1}/vendor/reports/${wr}`, headers: v.h })).statusCode).toBe(404);
    // vendors cannot decide nor read the admin list; customers touch nothing
    expect((await t.inject({ method: 'GET', url: `${V1}/vendor-reports`, headers: v.h })).statusCode).toBe(403);
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor-reports/${a}/resolve`, headers: v.h, payload: {} }))
        .statusCode,
    ).toBe(403);
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    for (const [method, url] of [
      ['GET', `${V1}/vendor/reports`],
      ['GET', `${V1}/vendor/reports/${a}`],
      ['POST', `${V1}/vendor/reports`],
      ['GET', `${V1}/vendor-reports`],
      ['POST', `${V1}/vendor-reports/${a}/reject`],
    ] as const) {
      const r = await t.inject({
        method,
        url,
        headers: c,
        ...(method === 'POST' ? { payload: { context_type: 'general', title: 'x', description: DESC } } : {}),
      });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error_code).toBe('PERMISSION_DENIED');
    }
    expect((await t.inject({ method: 'GET', url: `${V1}/vendor-reports` })).statusCode).toBe(401);
  });

  it('61/62: every transition; terminal → 409 already_terminal; unknown → 404; audit log and events on every write', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const mk = async (type: string) =>
      (
        await file(v.h, {
          context_type: type,
          context_id: type === 'general' ? undefined : car,
          title: 'T',
          description: DESC,
        })
      ).json().data.id as number;
    // open → resolved (with note)
    const r1 = await mk('vehicle');
    const res = await decide(r1, 'resolve', { admin_note: 'Confirmed.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { id: r1, status: 'resolved', side_effect: 'none', penalty_amount: null, ledger_tx_id: null },
    });
    const row = await one<{ status: string; admin_note: string; admin_user_id: string; resolved_at: string | null }>(
      t.platform.db,
      sql`SELECT status, admin_note, admin_user_id::text, resolved_at FROM vendor_reports WHERE id = ${r1}`,
    );
    expect(row).toMatchObject({ status: 'resolved', admin_note: 'Confirmed.', admin_user_id: String(adminId) });
    expect(row!.resolved_at).not.toBeNull();
    for (const m of ['resolve', 'reject', 'review'] as const) {
      const again = await decide(r1, m);
      expect(again.statusCode, m).toBe(409);
      expect(again.json()).toMatchObject({ error_code: 'STATE_CONFLICT' });
    }
    expect((await decide(r1, 'resolve')).json().details).toMatchObject({ reason: 'already_terminal' });
    // open → rejected (no note: null)
    const r2 = await mk('general');
    expect((await decide(r2, 'reject')).json().data).toMatchObject({ id: r2, status: 'rejected', side_effect: 'none' });
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor-reports/${r2}`, headers: admin })).json().data,
    ).toMatchObject({ status: 'rejected', admin_note: null, is_terminal: true });
    expect((await decide(r2, 'resolve')).statusCode).toBe(409);
    // open → in_review (no resolved_at) → in_review again 409 → rejected
    const r3 = await mk('vehicle');
    const rv = await decide(r3, 'review', { admin_note: 'Looking.' });
    expect(rv.json().data).toMatchObject({ id: r3, status: 'in_review', resolved_at: null, side_effect: 'none' });
    expect((await decide(r3, 'review')).statusCode).toBe(409);
    expect((await decide(r3, 'reject', { admin_note: 'No evidence.' })).json().data.status).toBe('rejected');
    const trail = (await t.inject({ method: 'GET', url: `${V1}/vendor-reports/${r3}`, headers: admin })).json().data
      .audit;
    expect(trail.map((e: { action: string; note: string | null }) => [e.action, e.note])).toEqual([
      ['created', null],
      ['in_review', 'Looking.'],
      ['rejected', 'No evidence.'],
    ]);
    // unknown
    for (const m of ['resolve', 'reject', 'review'] as const) {
      const r = await decide(99999999, m);
      expect(r.statusCode).toBe(404);
      expect(r.json().error_code).toBe('RESOURCE_NOT_FOUND');
    }
    // a request without a body works too
    const r4 = await mk('general');
    const nb = await t.inject({ method: 'POST', url: `${V1}/vendor-reports/${r4}/resolve`, headers: admin });
    expect(nb.statusCode, nb.body).toBe(200);

    const audits = await rows<{ method: string; target: string | null; status: number }>(
      t.platform.db,
      sql`SELECT method, target, status FROM rova_audit_log WHERE target IN (${`vendor_report:${r1}`}, ${`vendor_report:${r3}`}) ORDER BY id`,
    );
    expect(audits.filter((a) => a.target === `vendor_report:${r1}`).map((a) => a.status)).toEqual([
      201, 200, 409, 409, 409, 409,
    ]);
    const events = await rows<{ type: string }>(
      t.platform.db,
      sql`SELECT type FROM rova_events WHERE payload->'data'->>'id' = ${String(r3)} AND type LIKE 'vendor_report.%' ORDER BY id`,
    );
    expect(events.map((e) => e.type)).toEqual([
      'vendor_report.created',
      'vendor_report.in_review',
      'vendor_report.rejected',
    ]);
  });

  it('63: withdrawing with an open vehicle_action report defers the penalty; rejecting applies it exactly once (2000 → 1500)', async () => {
    const v = await vendor(t);
    await income(v.id);
    await priorWithdrawal(v.id);
    const car = await vendorVehicle(t, v.id);
    const rep = (
      await file(v.h, {
        context_type: 'vehicle_action',
        context_id: car,
        title: 'Withdrawal appeal',
        description: 'The vehicle failed inspection through no fault of mine.',
      })
    ).json().data.id as number;
    const w = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles/${car}/withdraw`,
      headers: v.h,
      payload: { reason: 'Failed inspection' },
    });
    expect(w.statusCode).toBe(200);
    expect(await penalties(v.id)).toEqual([]);
    expect(await available(v.id)).toBe(200000);
    const l = await one<{ deferred_penalty: string }>(
      t.platform.db,
      sql`SELECT deferred_penalty::text FROM vendor_listings WHERE vehicle_id = ${car}`,
    );
    expect(l!.deferred_penalty).toBe('50000');
    const log = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-management/${v.id}/audit-log?event_type=penalty_deferred`,
        headers: admin,
      })
    ).json().data.items;
    expect(log).toMatchObject([{ event_type: 'penalty_deferred', vehicle_id: car, amount: -500 }]);

    const rej = await decide(rep, 'reject', { admin_note: 'Withdrawal was voluntary.' });
    expect(rej.statusCode).toBe(200);
    expect(rej.json().data).toMatchObject({
      status: 'rejected',
      side_effect: 'penalty_applied',
      penalty_amount: 500,
      currency: 'USD',
    });
    expect(rej.json().data.ledger_tx_id).toEqual(expect.any(Number));
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }]);
    expect(await available(v.id)).toBe(150000);
    const after = await one<{ deferred_penalty: string | null; penalty_tx_id: string }>(
      t.platform.db,
      sql`SELECT deferred_penalty, penalty_tx_id::text FROM vendor_listings WHERE vehicle_id = ${car}`,
    );
    expect(after).toEqual({ deferred_penalty: null, penalty_tx_id: String(rej.json().data.ledger_tx_id) });
    expect((await decide(rep, 'reject')).statusCode).toBe(409);
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }]);
    const hist = await rows<{ event_type: string }>(
      t.platform.db,
      sql`SELECT event_type FROM vendor_score_history WHERE vendor_id = ${v.id} ORDER BY id`,
    );
    expect(hist.map((h) => h.event_type)).toEqual(['withdraw', 'withdraw']);
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
  });

  it('64/66: resolving the vehicle_action report instead waives the penalty and excuses the withdrawal (count 2 → 1, score restored)', async () => {
    const v = await vendor(t);
    await income(v.id);
    await priorWithdrawal(v.id);
    const car = await vendorVehicle(t, v.id);
    const rep = (
      await file(v.h, {
        context_type: 'vehicle_action',
        context_id: car,
        title: 'Withdrawal appeal',
        description: 'The vehicle failed inspection through no fault of mine.',
      })
    ).json().data.id as number;
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/withdraw`, headers: v.h, payload: {} });
    const scoreOf = async () =>
      (await one<{ reliability_score: number }>(
        t.platform.db,
        sql`SELECT reliability_score FROM rental_vendors WHERE user_id = ${v.id}`,
      ))!.reliability_score;
    expect(await scoreOf()).toBe(85); // 100 − 2 × 10 + 5
    const res = await decide(rep, 'resolve');
    expect(res.json().data).toMatchObject({
      status: 'resolved',
      side_effect: 'penalty_waived',
      penalty_amount: 500,
      ledger_tx_id: null,
    });
    expect(await penalties(v.id)).toEqual([]);
    expect(await available(v.id)).toBe(200000);
    const l = await one<{ withdrawal_excused: boolean; deferred_penalty: string | null }>(
      t.platform.db,
      sql`SELECT withdrawal_excused, deferred_penalty FROM vendor_listings WHERE vehicle_id = ${car}`,
    );
    expect(l).toEqual({ withdrawal_excused: true, deferred_penalty: null });
    expect(await scoreOf()).toBe(95); // one withdrawal left
    const log = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-management/${v.id}/audit-log?event_type=penalty_waived`,
        headers: admin,
      })
    ).json().data.items;
    expect(log).toMatchObject([
      { event_type: 'penalty_waived', vehicle_id: car, amount: -500, admin_user_id: adminId },
    ]);
    expect((await decide(rep, 'reject')).statusCode).toBe(409);
    expect(await penalties(v.id)).toEqual([]);
  });

  it('65/66: an applied penalty appealed and upheld → one penalty_reversal (1750 → 2000), withdrawal excused; a second appeal cannot refund twice', async () => {
    const v = await vendor(t);
    await income(v.id);
    const car = await vendorVehicle(t, v.id);
    // no open appeal: the first withdrawal (10 % of 2000) is charged at once
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/withdraw`, headers: v.h, payload: {} });
    expect(await available(v.id)).toBe(180000);
    const pen = await one<{ id: string }>(
      t.platform.db,
      sql`SELECT id::text FROM ledger_transactions WHERE vendor_id = ${v.id} AND kind = 'penalty'`,
    );
    const penId = Number(pen!.id);
    const listing = await one<{ penalty_tx_id: string }>(
      t.platform.db,
      sql`SELECT penalty_tx_id::text FROM vendor_listings WHERE vehicle_id = ${car}`,
    );
    expect(listing!.penalty_tx_id).toBe(pen!.id);
    // another vendor cannot appeal this penalty
    const other = await vendor(t);
    expect(
      (await file(other.h, { context_type: 'penalty', context_id: penId, title: 'Appeal', description: DESC }))
        .statusCode,
    ).toBe(400);
    const rep = (
      await file(v.h, {
        context_type: 'penalty',
        context_id: penId,
        title: 'Penalty appeal',
        description: 'I had no choice: the car was recalled by its maker.',
      })
    ).json().data.id as number;
    const res = await decide(rep, 'resolve', { admin_note: 'Recall confirmed.' });
    expect(res.json().data).toMatchObject({ status: 'resolved', side_effect: 'penalty_reversed', penalty_amount: 200 });
    expect(await available(v.id)).toBe(200000);
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }, { kind: 'penalty_reversal' }]);
    const rev = await one<{ idempotency_key: string; reference: string }>(
      t.platform.db,
      sql`SELECT idempotency_key, reference FROM ledger_transactions WHERE vendor_id = ${v.id} AND kind = 'penalty_reversal'`,
    );
    expect(rev).toEqual({ idempotency_key: `penalty_reversal:ledger_tx:${penId}`, reference: `ledger_tx:${penId}` });
    expect(
      (await one<{ withdrawal_excused: boolean }>(
        t.platform.db,
        sql`SELECT withdrawal_excused FROM vendor_listings WHERE vehicle_id = ${car}`,
      ))!.withdrawal_excused,
    ).toBe(true);
    expect(
      (await one<{ reliability_score: number }>(
        t.platform.db,
        sql`SELECT reliability_score FROM rental_vendors WHERE user_id = ${v.id}`,
      ))!.reliability_score,
    ).toBe(100);
    // resolving again: 409; a new appeal for the same penalty, upheld: no second refund
    expect((await decide(rep, 'resolve')).statusCode).toBe(409);
    const rep2 = (
      await file(v.h, {
        context_type: 'penalty',
        context_id: penId,
        title: 'Again',
        description: 'Please refund the recall penalty once more.',
      })
    ).json().data.id as number;
    expect((await decide(rep2, 'resolve')).json().data).toMatchObject({
      status: 'resolved',
      side_effect: 'none',
      penalty_amount: null,
    });
    expect(await available(v.id)).toBe(200000);
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }, { kind: 'penalty_reversal' }]);
    // rejecting a penalty appeal is a no-op
    const rep3 = (
      await file(v.h, {
        context_type: 'penalty',
        context_id: penId,
        title: 'Third',
        description: 'A third appeal about the same penalty.',
      })
    ).json().data.id as number;
    expect((await decide(rep3, 'reject')).json().data.side_effect).toBe('none');
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }, { kind: 'penalty_reversal' }]);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `${V1}/vendor-management/${v.id}/audit-log?event_type=penalty_reversed`,
          headers: admin,
        })
      ).json().data.items,
    ).toMatchObject([{ event_type: 'penalty_reversed', amount: 200, admin_user_id: adminId }]);
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
  });

  it('20 parallel resolves of one penalty report → one 200, nineteen 409, one reversal', async () => {
    const v = await vendor(t);
    await income(v.id);
    const car = await vendorVehicle(t, v.id);
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/withdraw`, headers: v.h, payload: {} });
    const pen = await one<{ id: string }>(
      t.platform.db,
      sql`SELECT id::text FROM ledger_transactions WHERE vendor_id = ${v.id} AND kind = 'penalty'`,
    );
    const rep = (
      await file(v.h, { context_type: 'penalty', context_id: Number(pen!.id), title: 'Appeal', description: DESC })
    ).json().data.id as number;
    const codes = (await Promise.all(Array.from({ length: 20 }, () => decide(rep, 'resolve')))).map(
      (r) => r.statusCode,
    );
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }, { kind: 'penalty_reversal' }]);
  });

  it('67: the deferral is specific: a report on another vehicle or a terminal report does not defer', async () => {
    const v = await vendor(t);
    await income(v.id);
    const car = await vendorVehicle(t, v.id);
    const other = await vendorVehicle(t, v.id);
    await file(v.h, { context_type: 'vehicle_action', context_id: other, title: 'Other car', description: DESC });
    const done = (
      await file(v.h, { context_type: 'vehicle_action', context_id: car, title: 'Closed', description: DESC })
    ).json().data.id as number;
    await decide(done, 'reject');
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/withdraw`, headers: v.h, payload: {} });
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }]);
    // in_review still defers
    const third = await vendorVehicle(t, v.id);
    const r = (
      await file(v.h, { context_type: 'vehicle_action', context_id: third, title: 'Review', description: DESC })
    ).json().data.id as number;
    await decide(r, 'review');
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${third}/withdraw`, headers: v.h, payload: {} });
    expect(await penalties(v.id)).toEqual([{ kind: 'penalty' }]);
    expect(
      (await one<{ d: string }>(
        t.platform.db,
        sql`SELECT deferred_penalty::text AS d FROM vendor_listings WHERE vehicle_id = ${third}`,
      ))!.d,
    ).toBe('50000'); // second in window → 25 %
  });

  it('relisting a withdrawn vehicle: 409 within the 7-day cooldown, then back to pending_review; the withdrawal keeps counting', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/withdraw`, headers: v.h, payload: {} });
    const early = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/relist`, headers: v.h });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error_code: 'STATE_CONFLICT', details: { reason: 'relist_cooldown' } });
    await t.platform.db.execute(
      sql`UPDATE vendor_listings SET withdrawn_at = now() - interval '8 days' WHERE vehicle_id = ${car}`,
    );
    const ok = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/relist`, headers: v.h });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ id: car, lifecycle: 'pending_review', status: 'inactive' });
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/relist`, headers: v.h })).statusCode,
    ).toBe(409);
    const active = await vendorVehicle(t, v.id);
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${active}/relist`, headers: v.h })).statusCode,
    ).toBe(409);
    const { withdrawalCount } = await import('../../../src/modules/rental/ledger/penalty.js');
    expect(await withdrawalCount(t.platform.db, v.id, 12)).toBe(1);
    const log = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-management/${v.id}/audit-log?event_type=vehicle_relisted`,
        headers: admin,
      })
    ).json().data.items;
    expect(log).toMatchObject([{ event_type: 'vehicle_relisted', vehicle_id: car }]);
  });
});
