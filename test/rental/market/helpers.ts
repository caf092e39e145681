import { sql } from 'drizzle-orm';
import type { TestApp } from '../../helpers/app.js';
import { rawBooking, vehicle } from '../helpers.js';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { EXTERNAL, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';

export const V2 = '/wp-json/rova-rental/v2';

/** Commission income of `amount` minor units, posted and cleared (available) at `at`, through the ledger function. */
export async function clearedIncome(t: TestApp, vendorId: number, amount: number, at: string): Promise<void> {
  await t.platform.transaction(async (tx) => {
    const credit = await postLedgerTransaction(tx, {
      key: `c-${vendorId}-${at}`,
      kind: 'commission',
      vendorId,
      reference: 'booking:0',
      currency: 'USD',
      at,
      memo: { net: amount },
      lines: [
        { account: EXTERNAL, amount: -amount },
        { account: vendorAccount(vendorId, 'pending'), amount },
      ],
    });
    await postLedgerTransaction(tx, {
      key: `cl-${vendorId}-${at}`,
      kind: 'commission_clearing',
      vendorId,
      reference: null,
      currency: 'USD',
      at,
      settles: Number(credit.transaction.id),
      lines: [
        { account: vendorAccount(vendorId, 'pending'), amount: -amount },
        { account: vendorAccount(vendorId, 'available'), amount },
      ],
    });
  });
}

/** A vendor user with an API key and an active vendor record. */
export async function vendor(
  t: TestApp,
  f: { commission_rate?: string } = {},
): Promise<{ id: number; key: string; h: Record<string, string> }> {
  const u = await t.userWithKey('vendor');
  await t.platform.db.execute(
    sql`INSERT INTO rental_vendors (user_id, status, commission_rate, approved_at) VALUES (${u.userId}, 'active', ${f.commission_rate ?? null}, now())`,
  );
  return { id: u.userId, key: u.key, h: { 'x-rova-api-key': u.key } };
}

/** A vehicle of the vendor, listed (lifecycle active). */
export async function vendorVehicle(
  t: TestApp,
  vendorId: number,
  f: { commission_rate?: string; lifecycle?: string } = {},
): Promise<number> {
  const v = await vehicle(t, { vendor_id: vendorId });
  await t.platform.db.execute(sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle, commission_rate)
    VALUES (${v}, ${vendorId}, ${f.lifecycle ?? 'active'}, ${f.commission_rate ?? null})`);
  return v;
}

let day = 0;
/** A booking of `total` (major units) on the vehicle, moved in_progress → completed through the status machine. */
export async function completedBooking(t: TestApp, vehicleId: number, total: string): Promise<number> {
  day += 3;
  const start = new Date(Date.UTC(2031, 0, 1) + day * 86_400_000);
  const id = await rawBooking(
    t,
    vehicleId,
    start.toISOString(),
    new Date(start.getTime() + 86_400_000).toISOString(),
    'in_progress',
    { total, currency: 'USD' },
  );
  await changeStatus(t.platform, id, 'completed');
  return id;
}

/** Every ledger transaction's entry sum (must all be 0). */
export async function transactionSums(t: TestApp): Promise<number[]> {
  const r = await rows<{ s: string }>(
    t.platform.db,
    sql`SELECT coalesce(sum(e.amount), 0)::text AS s FROM ledger_transactions x
    LEFT JOIN ledger_entries e ON e.transaction_id = x.id GROUP BY x.id`,
  );
  return r.map((x) => Number(x.s));
}

export const GOOD_IBAN = 'DE89370400440532013000';
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);

/** A multipart/form-data body (fields, then files) for app.inject. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; data: Buffer; type?: string }[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----rovatest' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const APPLY_FIELDS = {
  phone: '+49 30 1234567',
  city: 'Berlin',
  iban: GOOD_IBAN,
  account_holder: 'Ada Vendor',
  tax_office: 'Mitte',
  tax_number: '12/345/67890',
  bio: 'Family-run fleet of clean compact cars.',
  service_areas: 'Berlin, Potsdam',
  terms_accepted: 'true',
  terms_version: '2026-01',
};
