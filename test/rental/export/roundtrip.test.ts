// @integration: date filters convert time zones in SQL
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_TYPES } from '../../../src/modules/rental/export/registry.js';
import { rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import {
  API,
  AWKWARD,
  csvText,
  FORMULAS,
  makeAdminApp,
  maxId,
  parseCsv,
  seedExportData,
  type Seeded,
} from './fixtures.js';

let t: TestApp;
let key: string;
let seeded: Seeded;
const TZ = 'America/New_York';

beforeAll(async () => {
  t = await makeAdminApp({ STORE_TIMEZONE: TZ });
  key = (await t.userWithKey('administrator')).key;
  seeded = await seedExportData(t.platform.db);
}, 180_000);
afterAll(async () => t?.close());

const h = () => ({ 'x-rova-api-key': key });
const exportFile = (body: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: `${API}/admin/export`, headers: h(), payload: body });

type Row = Record<string, unknown>;

/** Per type: the database's view of a few columns, read independently of the export code. */
const TRUTH: Record<string, { table: string; query: (upTo: number) => ReturnType<typeof sql> }> = {
  bookings: {
    table: 'rental_bookings',
    query: (n) =>
      sql`SELECT id::int, reference, status, total::text AS total, customer_name, created_at FROM rental_bookings WHERE id <= ${n} ORDER BY id`,
  },
  transfers: {
    table: 'rental_bookings',
    query: (n) =>
      sql`SELECT id::int, reference, transfer_origin AS origin, transfer_destination AS destination, total::text AS total, created_at FROM rental_bookings WHERE kind = 'transfer' AND id <= ${n} ORDER BY id`,
  },
  vehicles: {
    table: 'rental_vehicles',
    query: (n) =>
      sql`SELECT id::int, name, status, price_per_day::text AS price_per_day, features, created_at FROM rental_vehicles WHERE id <= ${n} ORDER BY id`,
  },
  customers: {
    table: 'rental_customers',
    query: (n) => sql`SELECT id::int, name, email, created_at FROM rental_customers WHERE id <= ${n} ORDER BY id`,
  },
  messages: {
    table: 'rental_messages',
    query: (n) =>
      sql`SELECT id::int, subject, body, sender, created_at FROM rental_messages WHERE id <= ${n} ORDER BY id`,
  },
  payouts: {
    table: 'vendor_payouts',
    query: (n) =>
      sql`SELECT id::int, vendor_id::int, amount::int AS amount_minor, currency, status, requested_at FROM vendor_payouts WHERE id <= ${n} ORDER BY id`,
  },
  ledger_entries: {
    table: 'ledger_entries',
    query: (n) =>
      sql`SELECT e.id::int, e.transaction_id::int, e.amount::int AS amount_minor, a.code AS account, e.created_at FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.id <= ${n} ORDER BY e.id`,
  },
  audit_log: {
    table: 'rova_audit_log',
    query: (n) =>
      sql`SELECT id::int, route, method, status, outcome, at FROM rova_audit_log WHERE id <= ${n} ORDER BY id`,
  },
};

/** Database value → exported JSON value (numeric text → number, timestamps → ISO-8601). */
function expected(k: string, v: unknown): unknown {
  if (['total', 'price_per_day'].includes(k)) return Number(v);
  if (['created_at', 'at', 'requested_at'].includes(k))
    return new Date(
      String(v)
        .replace(' ', 'T')
        .replace(/([+-]\d{2})$/, '$1:00'),
    ).toISOString();
  return v;
}

describe('every type × format round-trips', () => {
  it('has a truth query for every registered type', () => {
    expect(Object.keys(TRUTH).sort()).toEqual(EXPORT_TYPES.map((x) => x.name).sort());
  });

  for (const type of EXPORT_TYPES.map((x) => x.name)) {
    it(`${type}: json matches the database, ndjson and csv match json`, async () => {
      // a write so the audit log has rows of its own
      await t.inject({ method: 'DELETE', url: `${API}/admin/export/exp_unknown`, headers: h() });
      const j = await exportFile({ type, format: 'json' });
      expect(j.statusCode, j.body).toBe(200);
      expect(j.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(j.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="${type}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
      );
      const data = JSON.parse(j.body) as Row[];
      expect(data.length).toBeGreaterThan(0);
      const columns = EXPORT_TYPES.find((x) => x.name === type)!.columns.map((c) => c.key);
      for (const r of data) expect(Object.keys(r)).toEqual(columns);

      const upTo = Math.max(...data.map((r) => r.id as number));
      const truth = await rows<Row>(t.platform.db, TRUTH[type]!.query(upTo));
      expect(data.map((r) => r.id)).toEqual(truth.map((r) => r.id));
      for (const [i, want] of truth.entries()) {
        for (const [k, v] of Object.entries(want))
          expect(data[i]![k], `${type} #${want.id} ${k}`).toEqual(expected(k, v));
      }

      const nd = await exportFile({ type, format: 'ndjson' });
      expect(nd.statusCode).toBe(200);
      expect(nd.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const lines = nd.body.split('\n');
      expect(lines.pop()).toBe('');
      const ndRows = lines.map((l) => JSON.parse(l) as Row).filter((r) => (r.id as number) <= upTo);
      expect(ndRows).toEqual(data);

      const c = await exportFile({ type, format: 'csv' });
      expect(c.statusCode).toBe(200);
      expect(c.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(c.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const { header, rows: csvRows } = parseCsv(c.rawPayload.toString('utf8'));
      expect(header).toEqual(columns);
      const mine = csvRows.filter((r) => Number(r[0]) <= upTo);
      expect(mine).toHaveLength(data.length);
      for (const [i, r] of mine.entries())
        expect(r, `${type} row ${i}`).toEqual(columns.map((k) => csvText(data[i]![k])));
    });
  }
});

describe('CSV safety and fidelity', () => {
  it('escapes formulas in text, keeps −5 a number, keeps commas, quotes, line breaks and non-Latin text', async () => {
    const c = await exportFile({ type: 'bookings', format: 'csv' });
    const text = c.rawPayload.toString('utf8');
    const { header, rows: r } = parseCsv(text);
    const name = header.indexOf('customer_name');
    const total = header.indexOf('total');
    const names = r.map((x) => x[name]);
    for (const f of FORMULAS) expect(names).toContain(`'${f}`);
    for (const a of AWKWARD) expect(names).toContain(a);
    expect(r.map((x) => x[total])).toContain('-5');
    // −5 is written bare (not quoted, not prefixed) and formulas are quoted when they hold a quote
    expect(text).toMatch(/,-5,/);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    // RFC 4180 record separator
    expect(text.split('\r\n').length).toBeGreaterThan(r.length);
    const transfers = parseCsv((await exportFile({ type: 'transfers', format: 'csv' })).rawPayload.toString('utf8'));
    expect(transfers.rows.map((x) => x[transfers.header.indexOf('destination')])).toEqual([
      'Sultanahmet "Old Town"',
      "'-Kemer",
    ]);
  });

  it('JSON keeps the text as it is (no spreadsheet escaping) and money as decimal-correct numbers', async () => {
    const j = JSON.parse((await exportFile({ type: 'bookings', format: 'json' })).body) as Row[];
    expect(j.map((x) => x.customer_name)).toEqual(expect.arrayContaining([...FORMULAS, ...AWKWARD]));
    expect(j.map((x) => x.total)).toEqual(expect.arrayContaining([-5, 100.1, 800.1]));
    const v = JSON.parse((await exportFile({ type: 'vehicles', format: 'json' })).body) as Row[];
    expect(v[0]).toMatchObject({ price_per_day: 1234567.89, features: ['ac', 'gps, "pro"'] });
  });

  it('ledger amounts are exact currency units from minor units, and the rows of a transaction sum to 0', async () => {
    const e = JSON.parse((await exportFile({ type: 'ledger_entries', format: 'json' })).body) as Row[];
    expect(
      e
        .map((x) => [x.account, x.amount, x.amount_minor])
        .filter(
          ([a]) => String(a) !== 'external' && !String(a).startsWith('vendor:') && String(a) !== 'platform:commission',
        ),
    ).toEqual([]);
    expect(e.map((x) => x.amount).sort()).toEqual([-100.1, 15.01, 85.09].sort());
    expect(e.reduce((a, x) => a + (x.amount_minor as number), 0)).toBe(0);
    const p = JSON.parse((await exportFile({ type: 'payouts', format: 'json' })).body) as Row[];
    expect(p[0]).toMatchObject({
      statement_no: 1,
      vendor_name: expect.any(String),
      amount: 50,
      amount_minor: 5000,
      currency: 'EUR',
      status: 'requested',
      requested_date: '2026-08-01',
    });
  });

  it('dates are store-local, instants UTC', async () => {
    const j = JSON.parse((await exportFile({ type: 'bookings', format: 'json' })).body) as Row[];
    // created 2026-04-02T10:00Z is 06:00 in New York; pick-up 2027-06-01T10:00Z
    const b = j.find((x) => x.id === seeded.bookings[0])!;
    expect(b).toMatchObject({
      created_at: '2026-04-02T10:00:00.000Z',
      created_date: '2026-04-02',
      pickup_at: '2027-06-01T10:00:00.000Z',
      pickup_date: '2027-06-01',
    });
  });

  it('an empty result is a valid file in every format', async () => {
    const q = { type: 'bookings', date_from: '2030-01-01', date_to: '2030-01-31' };
    const c = await exportFile({ ...q, format: 'csv' });
    expect(c.headers['content-disposition']).toBe('attachment; filename="bookings-2030-01-01_2030-01-31.csv"');
    expect(parseCsv(c.rawPayload.toString('utf8')).rows).toEqual([]);
    expect(JSON.parse((await exportFile({ ...q, format: 'json' })).body)).toEqual([]);
    expect((await exportFile({ ...q, format: 'ndjson' })).body).toBe('');
  });
});

describe('date filter (store time zone America/New_York, inclusive at both ends)', () => {
  it('includes the first and last local day, excludes one minute outside', async () => {
    const db = t.platform.db;
    const v = seeded.vehicles[0]!;
    const mk = async (at: string) => {
      const r = await rows<{ id: number }>(
        db,
        sql`INSERT INTO rental_bookings (reference, vehicle_id, pickup_at, return_at, days, status, created_at)
            VALUES (${'D-' + at}, ${v}, '2028-01-01T10:00:00Z', '2028-01-02T10:00:00Z', 1, 'completed', ${at}::timestamptz) RETURNING id::int AS id`,
      );
      return r[0]!.id;
    };
    // 2025-03-01 00:00 in New York (EST, UTC−5) = 05:00Z; 2025-03-31 23:59 (EDT, UTC−4) = 2025-04-01T03:59Z
    const before = await mk('2025-03-01T04:59:00Z');
    const first = await mk('2025-03-01T05:00:00Z');
    const last = await mk('2025-04-01T03:59:59Z');
    const after = await mk('2025-04-01T04:00:00Z');
    const body = { type: 'bookings', date_from: '2025-03-01', date_to: '2025-03-31' };
    const j = JSON.parse((await exportFile({ ...body, format: 'json' })).body) as Row[];
    expect(j.map((x) => x.id)).toEqual([first, last]);
    expect(j.map((x) => x.created_date)).toEqual(['2025-03-01', '2025-03-31']);
    const p = await t.inject({ method: 'POST', url: `${API}/admin/export/preview`, headers: h(), payload: body });
    expect(p.json().data.count).toBe(2);
    expect([before, after]).not.toContain(j[0]!.id);
  });
});

describe('preview', () => {
  for (const type of EXPORT_TYPES.map((x) => x.name)) {
    it(`${type}: count equals the file's rows; sample = its first ≤ 5 rows`, async () => {
      const before = await maxId(t.platform.db, 'rova_audit_log');
      const body = type === 'audit_log' ? { type, date_to: '2099-12-31' } : { type };
      const p = await t.inject({ method: 'POST', url: `${API}/admin/export/preview`, headers: h(), payload: body });
      expect(p.statusCode, p.body).toBe(200);
      const d = p.json().data as { count: number; sample: Row[]; columns: string[]; type: string };
      const file = await exportFile({ ...body, format: 'csv' });
      let fileRows = parseCsv(file.rawPayload.toString('utf8')).rows;
      if (type === 'audit_log') fileRows = fileRows.filter((r) => Number(r[0]) <= before);
      expect(d.count).toBe(fileRows.length);
      expect(d.sample.length).toBe(Math.min(5, d.count));
      expect(d.columns).toEqual(EXPORT_TYPES.find((x) => x.name === type)!.columns.map((c) => c.key));
      const json = JSON.parse((await exportFile({ ...body, format: 'json' })).body) as Row[];
      expect(d.sample).toEqual(json.slice(0, d.sample.length));
    });
  }

  it('filters narrow the count: status, type filters', async () => {
    const pv = async (b: Record<string, unknown>) =>
      (await t.inject({ method: 'POST', url: `${API}/admin/export/preview`, headers: h(), payload: b })).json().data
        .count as number;
    expect(await pv({ type: 'bookings', status: 'refunded' })).toBe(1);
    expect(await pv({ type: 'bookings', kind: 'transfer' })).toBe(2);
    expect(await pv({ type: 'transfers' })).toBe(2);
    expect(await pv({ type: 'vehicles', status: 'maintenance' })).toBe(1);
    expect(await pv({ type: 'messages', priority: 'high' })).toBe(2);
    expect(await pv({ type: 'messages', sender: 'admin' })).toBe(1);
    expect(await pv({ type: 'customers', date_from: '2026-03-02', date_to: '2026-03-03' })).toBe(3);
  });
});
