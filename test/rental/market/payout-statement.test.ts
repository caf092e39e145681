import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { pdfLines } from '../../helpers/pdf-text.js';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { clearMaturedCommissions } from '../../../src/modules/rental/ledger/clearing.js';
import { applyWithdrawalPenalty } from '../../../src/modules/rental/ledger/penalty.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { completedBooking, V2, vendor, vendorVehicle } from './helpers.js';

const SECRET = 'whsec_' + Buffer.from('payout-statement-test-secret-0123456789').toString('base64');
const TZ = 'Europe/Istanbul';

interface Line {
  transaction_id: number;
  at: string;
  type: string;
  description: string;
  booking_reference: string | null;
  booking_start: string | null;
  booking_end: string | null;
  gross: number;
  commission: number;
  penalty: number;
  net: number;
  balance: number;
}
interface Lines {
  payout_id: number;
  statement_no: number;
  statement_number: string | null;
  currency: string;
  period_start: string | null;
  period_end: string;
  opening_balance: number;
  closing_balance: number;
  totals: Record<string, number>;
  lines: Line[];
}

const cents = (n: number) => Math.round(n * 100);
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
/** "$1,234.50" / "-$12.30" → minor units. */
const pdfCents = (s: string) => {
  const m = /^(-?)\$([\d,]+)\.(\d\d)$/.exec(s);
  if (!m) throw new Error(`not money: ${s}`);
  return (m[1] ? -1 : 1) * (Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]));
};

describe('payout statement: opening balance, every ledger movement, closing balance; #n per vendor; payout mails (issue 35 items 3, 4)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({
      env: { RENTAL_WRITE_RATE_LIMIT: '100000', ROVA_PAYOUT_WEBHOOK_SECRET: SECRET, STORE_TIMEZONE: TZ },
    });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const request = async (h: Record<string, string>, amount: number) => {
    const r = await t.inject({ method: 'POST', url: `${V2}/ledger/payouts`, headers: h, payload: { amount } });
    expect(r.statusCode).toBe(201);
    return r.json().data.payout as { id: number; statement_no: number };
  };
  const approve = async (id: number) =>
    expect((await t.inject({ method: 'POST', url: `${V2}/payouts/${id}/approve`, headers: admin })).statusCode).toBe(
      200,
    );
  const callback = async (id: number, status: 'paid' | 'failed', ref?: string) => {
    const msgId = `msg_${Math.random().toString(36).slice(2)}`;
    const at = new Date();
    const payload = JSON.stringify({ payout_id: id, status, ...(ref ? { external_reference: ref } : {}) });
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/payouts/${id}/callback`,
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(SECRET).sign(msgId, at, payload),
      },
      payload,
    });
    expect(r.statusCode).toBe(200);
  };
  const linesOf = async (h: Record<string, string>, id: number): Promise<Lines> => {
    const r = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${id}/lines`, headers: h });
    expect(r.statusCode).toBe(200);
    return r.json().data;
  };
  const clear = () => clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000));

  /** The ledger's own answer: the entries on the vendor's available account after the previous hold up to this payout's. */
  async function ledgerTruth(vendorId: number, payoutId: number) {
    const hold = (await one<{ id: string }>(
      t.platform.db,
      sql`SELECT id::text AS id FROM ledger_transactions WHERE reference = ${`payout:${payoutId}`} AND kind = 'payout_hold'`,
    ))!;
    const prev = await one<{ id: string }>(
      t.platform.db,
      sql`SELECT max(id)::text AS id FROM ledger_transactions WHERE vendor_id = ${vendorId} AND kind = 'payout_hold' AND id < ${hold.id}`,
    );
    const after = Number(prev?.id ?? 0);
    const code = vendorAccount(vendorId, 'available');
    const sumTo = async (txId: number) =>
      Number(
        (await one<{ s: string }>(
          t.platform.db,
          sql`SELECT coalesce(sum(e.amount), 0)::text AS s FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            WHERE a.code = ${code} AND e.transaction_id <= ${txId}`,
        ))!.s,
      );
    const entries = await rows<{ tx: string; amount: string }>(
      t.platform.db,
      sql`SELECT e.transaction_id::text AS tx, e.amount::text AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
        WHERE a.code = ${code} AND e.transaction_id > ${after} AND e.transaction_id <= ${hold.id} ORDER BY e.transaction_id`,
    );
    return {
      opening: await sumTo(after),
      closing: await sumTo(Number(hold.id)),
      entries: entries.map((e) => [Number(e.tx), Number(e.amount)]),
    };
  }

  /** opening + Σ net = closing, each balance the running sum, and all of it equal to the ledger. */
  async function expectLedgerEqual(vendorId: number, s: Lines) {
    const truth = await ledgerTruth(vendorId, s.payout_id);
    expect(cents(s.opening_balance)).toBe(truth.opening);
    expect(cents(s.closing_balance)).toBe(truth.closing);
    expect(s.lines.map((l) => [l.transaction_id, cents(l.net)])).toEqual(truth.entries);
    let running = cents(s.opening_balance);
    for (const l of s.lines) {
      running += cents(l.net);
      expect(cents(l.balance)).toBe(running);
    }
    expect(running).toBe(cents(s.closing_balance));
  }

  it("a vendor's payouts are #1, #2 whatever the global ids; the lines of each sum from opening to closing balance and equal the ledger; the CSV and the PDF carry the same lines", async () => {
    // another vendor's payout first: A's first payout's global id is not 1
    const b = await vendor(t);
    await completedBooking(t, await vendorVehicle(t, b.id), '300.00');
    await clear();
    const bFirst = await request(b.h, 120);
    expect(bFirst.statement_no).toBe(1);

    const a = await vendor(t);
    const car = await vendorVehicle(t, a.id);
    const b1 = await completedBooking(t, car, '400.00'); // net 340, commission 60
    const b2 = await completedBooking(t, car, '200.00'); // net 170, commission 30
    await clear();
    await changeStatus(t.platform, b2, 'refunded'); // cleared income refunded: 170 back out of available
    await t.platform.transaction((tx) => applyWithdrawalPenalty(tx, a.id, car, 2500, 'USD', 'statement-test'));
    const first = await request(a.h, 150);
    expect(first.id).toBeGreaterThan(bFirst.id);
    expect(first.statement_no).toBe(1);

    const s1 = await linesOf(a.h, first.id);
    const ref = async (id: number) =>
      (await one<{ reference: string }>(t.platform.db, sql`SELECT reference FROM rental_bookings WHERE id = ${id}`))!
        .reference;
    expect(s1).toMatchObject({
      payout_id: first.id,
      statement_no: 1,
      statement_number: null,
      currency: 'USD',
      period_start: null,
      opening_balance: 0,
      closing_balance: 165,
      totals: { income: 510, refunds: -170, penalties: -25, payouts: -150, returned: 0 },
    });
    expect(
      s1.lines.map(({ type, booking_reference, gross, commission, penalty, net, balance }) => ({
        type,
        booking_reference,
        gross,
        commission,
        penalty,
        net,
        balance,
      })),
    ).toEqual([
      {
        type: 'income',
        booking_reference: await ref(b1),
        gross: 400,
        commission: 60,
        penalty: 0,
        net: 340,
        balance: 340,
      },
      {
        type: 'income',
        booking_reference: await ref(b2),
        gross: 200,
        commission: 30,
        penalty: 0,
        net: 170,
        balance: 510,
      },
      {
        type: 'refund',
        booking_reference: await ref(b2),
        gross: -200,
        commission: -30,
        penalty: 0,
        net: -170,
        balance: 340,
      },
      { type: 'penalty', booking_reference: null, gross: 0, commission: 0, penalty: 25, net: -25, balance: 315 },
      { type: 'payout', booking_reference: null, gross: 0, commission: 0, penalty: 0, net: -150, balance: 165 },
    ]);
    expect(s1.lines[4]!.description).toBe('Payout #1');
    expect(s1.lines[0]!.description).toBe(`Income, booking ${await ref(b1)}`);
    const booked = (await one<{ pickup_at: Date; return_at: Date }>(
      t.platform.db,
      sql`SELECT pickup_at, return_at FROM rental_bookings WHERE id = ${b1}`,
    ))!;
    expect([s1.lines[0]!.booking_start, s1.lines[0]!.booking_end]).toEqual([
      new Date(booked.pickup_at).toISOString(),
      new Date(booked.return_at).toISOString(),
    ]);
    await expectLedgerEqual(a.id, s1);

    // #1 is approved, paid, then fails after payment: the money comes back, and shows on the next statement
    await approve(first.id);
    await callback(first.id, 'paid', 'BANK-77');
    await callback(first.id, 'failed');
    const b3 = await completedBooking(t, car, '100.00'); // net 85
    await clear();
    const second = await request(a.h, 300);
    expect(second.statement_no).toBe(2);
    await approve(second.id);
    const s2 = await linesOf(a.h, second.id);
    expect(s2).toMatchObject({ statement_no: 2, opening_balance: 165, closing_balance: 100 });
    expect(s2.statement_number).toMatch(/^PS-\d{4}-\d{4}$/);
    expect(s2.lines.map((l) => [l.type, l.description, l.net])).toEqual([
      ['payout_returned', 'Payout #1 failed after it was paid, returned', 150],
      ['income', `Income, booking ${await ref(b3)}`, 85],
      ['payout', 'Payout #2', -300],
    ]);
    await expectLedgerEqual(a.id, s2);
    const summary = (await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: a.h })).json().data;
    expect(summary.balances.available).toBe(s2.closing_balance);
    expect(summary.payouts).toMatchObject({ open_payout_id: second.id, open_payout_no: 2 });

    // the vendor's list names them by their numbers
    const list = (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts`, headers: a.h })).json().data;
    expect(list.items.map((p: { id: number; statement_no: number }) => [p.id, p.statement_no])).toEqual([
      [second.id, 2],
      [first.id, 1],
    ]);

    // CSV: the same lines, framed by the opening and closing balance, money as exact decimal text
    const csv = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${first.id}/lines.csv`, headers: a.h });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const ps1 = (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts`, headers: a.h })).json().data.items[1]
      .statement_number as string;
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${ps1}.csv"`);
    expect(csv.body.startsWith('\ufeffline,date,type,')).toBe(true);
    expect(csv.body).toContain('\r\n');
    const [header, ...records] = parse(csv.body, { bom: true }) as string[][];
    expect(header).toEqual([
      'line',
      'date',
      'type',
      'description',
      'booking_reference',
      'booking_start',
      'booking_end',
      'gross',
      'commission',
      'penalty',
      'net',
      'balance',
      'currency',
      'transaction_id',
    ]);
    const row = (r: string[]) => Object.fromEntries(header!.map((k, i) => [k, r[i]]));
    expect(row(records[0]!)).toMatchObject({ line: '', type: 'opening_balance', balance: '0.00', currency: 'USD' });
    expect(row(records.at(-1)!)).toMatchObject({
      line: '',
      type: 'closing_balance',
      balance: '165.00',
      date: day(s1.period_end),
    });
    const body = records.slice(1, -1).map(row);
    const money = (n: number) => (n < 0 ? '-' : '') + (Math.abs(cents(n)) / 100).toFixed(2);
    expect(body).toEqual(
      s1.lines.map((l, i) => ({
        line: String(i + 1),
        date: day(l.at),
        type: l.type,
        description: l.description,
        booking_reference: l.booking_reference ?? '',
        booking_start: l.booking_start ? day(l.booking_start) : '',
        booking_end: l.booking_end ? day(l.booking_end) : '',
        gross: money(l.gross),
        commission: money(l.commission),
        penalty: money(l.penalty),
        net: money(l.net),
        balance: money(l.balance),
        currency: 'USD',
        transaction_id: String(l.transaction_id),
      })),
    );
    expect(body.map((r) => r.net)).toEqual(['340.00', '170.00', '-170.00', '-25.00', '-150.00']);
    // the CSV's own numbers add up: opening + Σ net = closing
    expect(body.reduce((s, r) => s + Math.round(Number(r.net) * 100), 0)).toBe(16500);

    // PDF: the same rows, read back from the document's text
    const pdf = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${first.id}/statement`, headers: a.h });
    expect(pdf.statusCode).toBe(200);
    const text = pdfLines(pdf.rawPayload).map((l) => l.map((r) => r.text));
    expect(text.flat()).toContain(`${ps1}  ·  Payout #1`);
    const open = text.findIndex((l) => l.includes('Opening balance'));
    const close = text.findIndex((l) => l.includes('Closing balance'));
    expect(open).toBeGreaterThan(0);
    expect(text[open]).toEqual(['Opening balance', '$0.00']);
    expect(text[close]).toEqual([day(s1.period_end), 'Closing balance', '$165.00']);
    const table = text.slice(open + 1, close);
    expect(table.map((l) => l[1])).toEqual(s1.lines.map((l) => l.description));
    // each row ends with net and balance; the nets run from the opening to the closing balance
    let running = pdfCents(text[open]!.at(-1)!);
    for (const [i, l] of table.entries()) {
      running += pdfCents(l.at(-2)!);
      expect(pdfCents(l.at(-1)!)).toBe(running);
      expect(pdfCents(l.at(-2)!)).toBe(cents(s1.lines[i]!.net));
    }
    expect(running).toBe(pdfCents(text[close]!.at(-1)!));
    expect(table[0]).toEqual([
      day(s1.lines[0]!.at),
      s1.lines[0]!.description,
      `${day(s1.lines[0]!.booking_start!)} – ${day(s1.lines[0]!.booking_end!)}`,
      '$400.00',
      '$60.00',
      '$340.00',
      '$340.00',
    ]);
    expect(table[3]).toEqual([
      day(s1.lines[3]!.at),
      'Withdrawal penalty, vehicle ' + car,
      '$25.00',
      '-$25.00',
      '$315.00',
    ]);
  });

  it('the lines: the vendor its own (another vendor 404, a customer 403), an administrator any; unknown payout 404', async () => {
    const a = await vendor(t);
    await completedBooking(t, await vendorVehicle(t, a.id), '300.00');
    await clear();
    const po = await request(a.h, 100);
    const other = await vendor(t);
    const cust = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    for (const url of [`${V2}/ledger/payouts/${po.id}/lines`, `${V2}/ledger/payouts/${po.id}/lines.csv`]) {
      expect((await t.inject({ method: 'GET', url, headers: a.h })).statusCode).toBe(200);
      expect((await t.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(200);
      const foreign = await t.inject({ method: 'GET', url, headers: other.h });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({
        error_code: 'RESOURCE_NOT_FOUND',
        message: `Payout ${po.id} does not exist.`,
      });
      expect((await t.inject({ method: 'GET', url, headers: cust })).statusCode).toBe(403);
    }
    const csv = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${po.id}/lines.csv`, headers: a.h });
    expect(csv.headers['content-disposition']).toBe('attachment; filename="payout-1.csv"');
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/999999/lines`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('approved, paid and failed each write the vendor a mail in the outbox (store time zone, payout by its number)', async () => {
    const a = await vendor(t);
    const email = (await one<{ email: string }>(t.platform.db, sql`SELECT email FROM rova_users WHERE id = ${a.id}`))!
      .email;
    await completedBooking(t, await vendorVehicle(t, a.id), '300.00');
    await clear();
    const po = await request(a.h, 120);
    const outbox = async () => {
      const r = await t.inject({
        method: 'GET',
        url: `/wp-json/rova/v1/outbox?to=${encodeURIComponent(email)}`,
        headers: admin,
      });
      expect(r.statusCode).toBe(200);
      return r.json() as { to: string; subject: string; text: string; template: string; status: string }[];
    };
    expect(await outbox()).toEqual([]); // a request writes no mail
    await approve(po.id);
    const [approved] = await outbox();
    expect(approved).toMatchObject({
      to: email,
      template: 'payout_approved',
      subject: '[Rova] Payout #1 approved',
      status: 'stored',
    });
    const ps = (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts`, headers: a.h })).json().data.items[0]
      .statement_number as string;
    expect(approved!.text).toContain('Payout: #1\nAmount: $120.00\nStatement: ' + ps);
    expect(approved!.text).toMatch(/Approved: .+ \(Europe\/Istanbul\)/);

    await callback(po.id, 'paid', 'BANK-9');
    await callback(po.id, 'failed');
    const mails = await outbox();
    expect(mails.map((m) => [m.to, m.template, m.subject])).toEqual([
      [email, 'payout_failed', '[Rova] Payout #1 failed'],
      [email, 'payout_paid', '[Rova] Payout #1 paid'],
      [email, 'payout_approved', '[Rova] Payout #1 approved'],
    ]);
    expect(mails[1]!.text).toContain('Bank reference: BANK-9');
    expect(mails[1]!.text).toMatch(/Paid: .+ \(Europe\/Istanbul\)/);
    expect(mails[0]!.text).toContain('the amount is back in your available balance');
    expect(mails[0]!.text).toContain('Note: The bank returned the payment after it was made.');

    // a repeated callback writes nothing again
    await callback(po.id, 'failed');
    const count = await one<{ n: string }>(
      t.platform.db,
      sql`SELECT count(*)::text AS n FROM rova_mail_outbox WHERE about = ${`payout:${po.id}`}`,
    );
    expect(count!.n).toBe('3');
  });
});
