import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { FIRST, LAST } from '../../src/modules/rental/seed/data.js';
import { emailLocalPart } from '../../src/modules/rental/seed/demo.js';

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
