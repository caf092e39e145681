import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { insertMessage } from '../../../src/modules/rental/messages/repo.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { one, type Db } from '../../../src/platform/db/types.js';
import { insertBooking, insertCustomer, insertVehicle } from '../admin/fixtures.js';

export { API, makeAdminApp } from '../admin/fixtures.js';

/** Values a spreadsheet would run as formulas, and text that must survive CSV quoting. */
export const FORMULAS = ['=HYPERLINK("http://x")', '+1+1', '@SUM(A1)', '-2+3'];
export const AWKWARD = [
  'Comma, "Quoted" Name',
  'Line\nBreak\r\nName',
  'Lone\nLF',
  'Lone\rCR',
  'Zoë Ürgüp 東京 مرحبا 😀',
  'Tab\tinside',
];

export interface Seeded {
  vehicles: number[];
  customers: number[];
  bookings: number[];
  transfers: number[];
  messages: number[];
  payouts: number[];
}

/** A small store with awkward text everywhere (created in 2026, UTC instants). */
export async function seedExportData(db: Db): Promise<Seeded> {
  const s: Seeded = { vehicles: [], customers: [], bookings: [], transfers: [], messages: [], payouts: [] };
  s.vehicles.push(
    await insertVehicle(db, { name: 'Fiat "Egea", 1.4', category: 'economy', createdAt: '2026-01-02T08:00:00Z' }),
  );
  s.vehicles.push(
    await insertVehicle(db, {
      name: '=cmd|calc',
      category: 'suv',
      status: 'maintenance',
      createdAt: '2026-02-02T08:00:00Z',
    }),
  );
  await db.execute(
    sql`UPDATE rental_vehicles SET features = '["ac", "gps, \\"pro\\""]'::jsonb, price_per_day = 1234567.89 WHERE id = ${s.vehicles[0]!}`,
  );
  let n = 0;
  for (const name of [...FORMULAS, ...AWKWARD]) {
    n += 1;
    const c = await insertCustomer(db, {
      name,
      email: `c${n}@example.test`,
      createdAt: `2026-03-0${(n % 9) + 1}T12:00:00Z`,
    });
    s.customers.push(c);
    s.bookings.push(
      // one-day slots three days apart from 2027-06-01 (holding bookings of one vehicle may not overlap)
      await insertBooking(db, {
        vehicleId: s.vehicles[0]!,
        customerId: c,
        status: n % 2 ? 'confirmed' : 'completed',
        total: `${n}00.10`,
        createdAt: `2026-04-0${(n % 9) + 1}T10:00:00Z`,
        pickupAt: new Date(Date.parse('2027-06-01T10:00:00Z') + (n - 1) * 3 * 86_400_000).toISOString(),
      }),
    );
  }
  // A refund adjustment: a negative amount stays a number (no formula escaping).
  s.bookings.push(
    await insertBooking(db, {
      vehicleId: s.vehicles[1]!,
      customerId: s.customers[0]!,
      status: 'refunded',
      total: '-5.00',
      createdAt: '2026-05-01T10:00:00Z',
    }),
  );
  for (const [o, d] of [
    ['İstanbul Havalimanı, T1', 'Sultanahmet "Old Town"'],
    ['Antalya AYT', '-Kemer'],
  ] as const) {
    const id = await insertBooking(db, {
      vehicleId: s.vehicles[1]!,
      customerId: s.customers[5]!,
      status: 'confirmed',
      total: '45.50',
      kind: 'transfer',
      origin: o,
      destination: d,
      createdAt: '2026-06-01T09:00:00Z',
    });
    s.transfers.push(id);
    s.bookings.push(id);
  }
  const c0 = s.customers[0]!;
  const starter = await insertMessage(db, {
    threadId: null,
    parentId: null,
    customerId: c0,
    sender: 'customer',
    authorUserId: null,
    customerName: FORMULAS[0]!,
    customerEmail: 'c1@example.test',
    subject: 'Hello, "world"',
    body: 'Line one\nLine two, with comma',
    priority: 'high',
    category: 'booking',
    createdAt: new Date('2026-07-01T10:00:00Z'),
  });
  s.messages.push(starter);
  s.messages.push(
    await insertMessage(db, {
      threadId: starter,
      parentId: starter,
      customerId: c0,
      sender: 'admin',
      authorUserId: null,
      customerName: FORMULAS[0]!,
      customerEmail: 'c1@example.test',
      subject: 'Re: Hello',
      body: '@admin: 日本語の返事',
      createdAt: new Date('2026-07-02T10:00:00Z'),
      isRead: true,
    }),
  );
  // Marketplace money: a vendor's commission (gross 100.10 EUR → 85.09 net, 15.01 commission) and a payout request.
  const vendor = (await one<{ id: number }>(
    db,
    sql`INSERT INTO rova_users (login, email, role) VALUES ('=vendor, "one"', 'vendor1@example.test', 'vendor') RETURNING id::int AS id`,
  ))!.id;
  await db.transaction((tx) =>
    postLedgerTransaction(tx, {
      key: 'export-fixture-commission',
      kind: 'commission',
      vendorId: vendor,
      reference: `booking:${s.bookings[0]}`,
      currency: 'EUR',
      lines: [
        { account: 'external', amount: -10010 },
        { account: `vendor:${vendor}:pending`, amount: 8509 },
        { account: 'platform:commission', amount: 1501 },
      ],
    }),
  );
  const payout = await one<{ id: number }>(
    db,
    sql`INSERT INTO vendor_payouts (vendor_id, statement_no, amount, currency, status, request_hash, requested_at)
    VALUES (${vendor}, (SELECT coalesce(max(statement_no), 0) + 1 FROM vendor_payouts WHERE vendor_id = ${vendor}), 5000, 'EUR', 'requested', 'fixture', '2026-08-01T10:00:00Z') RETURNING id::int AS id`,
  );
  s.payouts.push(payout!.id);
  return s;
}

export async function maxId(db: Db, table: string): Promise<number> {
  const r = await one<{ n: number | null }>(db, sql`SELECT max(id)::int AS n FROM ${sql.identifier(table)}`);
  return r?.n ?? 0;
}

/** A CSV file → header + rows (real parser; BOM stripped and checked by the caller). */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const all = parse(text, { bom: true, relax_column_count: false }) as string[][];
  return { header: all[0] ?? [], rows: all.slice(1) };
}

/** What a JSON value must look like in the CSV (booleans true/false, null empty, formulas with a leading '). */
export function csvText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'object') return JSON.stringify(v);
  const s = String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
