import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { FIRST, LAST } from '../../src/modules/rental/seed/data.js';
import { emailLocalPart } from '../../src/modules/rental/seed/demo.js';
import { outboxMails } from '../helpers/outbox.js';

describe('demo customers', () => {
  it('e-mail addresses drop accents instead of splitting names with dots (was "ays.e.mu.ller")', () => {
    expect(emailLocalPart('Ayşe Müller')).toBe('ayse.muller');
    expect(emailLocalPart('Mehmet Yılmaz')).toBe('mehmet.yilmaz');
    expect(emailLocalPart('Zeynep Öztürk')).toBe('zeynep.ozturk');
    for (const f of FIRST) for (const l of LAST) expect(emailLocalPart(`${f} ${l}`)).toMatch(/^[a-z]+\.[a-z]+$/);
  });
});

describe('the demo on a fresh start', () => {
  it('shows a fleet built up over months and bookings made over past weeks: no "+N active vehicles" and no one-day spike', async () => {
    const { makeApp } = await import('../helpers/app.js');
    const t = await makeApp({ demo: true });
    try {
      const { key } = await t.userWithKey('administrator', ['read']);
      const stats = await t.inject({
        method: 'GET',
        url: '/wp-json/rova-rental/v1/dashboard/stats',
        headers: { 'x-rova-api-key': key },
      });
      expect(stats.statusCode).toBe(200);
      const body = (stats.json() as { data: { active_vehicles: number; active_vehicles_last_month: number } }).data;
      expect(body.active_vehicles).toBeGreaterThan(15);
      expect(body.active_vehicles_last_month).toBe(body.active_vehicles);
      const perDay = (await t.platform.db
        .execute(sql`SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS n
        FROM rental_bookings WHERE created_at > now() - interval '60 days' GROUP BY 1 ORDER BY n DESC`)) as unknown as {
        rows: { day: string; n: number }[];
      };
      expect(perDay.rows.length).toBeGreaterThan(20);
      expect(perDay.rows[0]!.n, JSON.stringify(perDay.rows.slice(0, 3))).toBeLessThanOrEqual(8);
      const future = (await t.platform.db.execute(
        sql`SELECT count(*)::int AS n FROM rental_bookings WHERE created_at > now()`,
      )) as unknown as { rows: { n: number }[] };
      expect(future.rows[0]!.n).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('the demo store asks for its rental terms (issue 36.4)', () => {
  it('publishes terms version 2026-11 with the cancellation policy; a booking without their acceptance is refused, one with it stores, shows and mails the version', async () => {
    const { makeApp } = await import('../helpers/app.js');
    const t = await makeApp({ demo: true });
    try {
      const V2 = '/wp-json/rova-rental/v2';
      const rules = await t.inject({ method: 'GET', url: `${V2}/booking/driver-rules` });
      expect(rules.statusCode).toBe(200);
      const { terms, cancellation } = (
        rules.json() as {
          data: { terms: { version: string; text: string; url: string } | null; cancellation: unknown };
        }
      ).data;
      expect(terms).toEqual({ version: '2026-11', text: expect.stringMatching(/^At pick-up the driver/), url: '' });
      expect(cancellation).toEqual({ free_cancel_hours: 24, fee_percent: 20 });

      const customer = (await t.userWithKey('customer')).key;
      const free = await t.inject({
        method: 'GET',
        url: `${V2}/vehicles/search?pickup_date=2033-05-02&return_date=2033-05-05&sort=price_asc&per_page=1`,
      });
      const vehicle_id = (free.json() as { data: { items: { vehicle_id: number }[] } }).data.items[0]!.vehicle_id;
      const create = (extra: Record<string, unknown>) =>
        t.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': customer },
          payload: {
            vehicle_id,
            pickup_date: '2033-05-02',
            return_date: '2033-05-05',
            payment_method: 'offline',
            payment_plan: 'full',
            ...extra,
          },
        });
      const refused = await create({});
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        success: false,
        error_code: 'INVALID_PARAMS',
        message: 'Accept the rental terms to book (terms_accepted: true).',
        details: { field: 'terms_accepted', reason: 'terms_not_accepted' },
      });
      const booked = await create({ terms_accepted: true, terms_version: '2026-11' });
      expect(booked.statusCode, booked.body).toBe(201);
      const id = (booked.json() as { data: { booking: { id: number } } }).data.booking.id;

      const admin = (await t.userWithKey('administrator')).key;
      const driver = await t.inject({
        method: 'GET',
        url: `${V2}/bookings/${id}/driver`,
        headers: { 'x-rova-api-key': admin },
      });
      expect(driver.statusCode).toBe(200);
      expect((driver.json() as { data: unknown }).data).toMatchObject({
        name: null,
        terms_version: '2026-11',
        terms_accepted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      const [mail] = await outboxMails(
        t.platform,
        sql`m.about = ${`booking:${id}`} AND m.template = 'booking_created'`,
      );
      expect(mail?.text_body).toContain('Rental terms accepted: version 2026-11');
    } finally {
      await t.close();
    }
  }, 60_000);
});
