import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rule, vehicle } from '../helpers.js';
import { outboxMails } from '../../helpers/outbox.js';

const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';

describe('Extras (add-on rules with quantities): check, create, order lines, refusals', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    await rule(t, { name: 'VAT', kind: 'tax', percent: '10' });
    await rule(t, {
      name: 'Child seat',
      kind: 'addon',
      code: 'child_seat',
      amount: '5.00',
      charge: 'per_day',
      max_per_day: 3,
    });
    await rule(t, {
      name: 'Additional driver',
      kind: 'addon',
      code: 'extra_driver',
      amount: '25.00',
      charge: 'per_booking',
    });
    // offered to luxury cars only: an economy car neither lists it nor prices it
    await rule(t, {
      name: 'Chauffeur',
      kind: 'addon',
      code: 'chauffeur',
      amount: '90.00',
      charge: 'per_day',
      scope: 'category',
      category: 'luxury',
    });
  }, 240_000);
  afterAll(async () => t?.close());

  const check = (payload: object) => t.inject({ method: 'POST', url: `${V2}/booking/check`, payload });
  const slot = (v: number, addons?: unknown) => ({
    vehicle_id: v,
    pickup_date: '2033-03-07', // Monday: no weekend rule here anyway
    return_date: '2033-03-10',
    ...(addons === undefined ? {} : { addons }),
  });

  it('the check answer lists the extras the vehicle offers, with charge and maximum', async () => {
    const v = await vehicle(t, { price_per_day: '40.00' });
    const r = await check(slot(v));
    expect(r.statusCode).toBe(200);
    expect(r.json().data.extras).toEqual([
      { code: 'child_seat', name: 'Child seat', charge: 'per_day', amount: 5, max_per_day: 3 },
      { code: 'extra_driver', name: 'Additional driver', charge: 'per_booking', amount: 25, max_per_day: 1 },
    ]);
    const lux = await vehicle(t, { price_per_day: '200.00', category: 'luxury' });
    expect((await check(slot(lux))).json().data.extras.map((x: { code: string }) => x.code)).toEqual([
      'child_seat',
      'extra_driver',
      'chauffeur',
    ]);
  });

  it('prices quantities in the same engine call: amount × quantity × days (per day), once per booking', async () => {
    const v = await vehicle(t, { price_per_day: '40.00', deposit_percent: '0' });
    const r = await check(slot(v, [{ code: 'child_seat', quantity: 2 }, 'extra_driver']));
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d.breakdown.addons).toEqual([
      {
        code: 'child_seat',
        name: 'Child seat',
        rule_id: expect.any(Number),
        charge: 'per_day',
        amount: 5,
        quantity: 2,
        total: 30,
      },
      {
        code: 'extra_driver',
        name: 'Additional driver',
        rule_id: expect.any(Number),
        charge: 'per_booking',
        amount: 25,
        quantity: 1,
        total: 25,
      },
    ]);
    // 3 days × 40 = 120, extras 55, net 175, tax 17.50
    expect(d).toMatchObject({ days: 3, net_price: 175, tax: 17.5, total: 192.5 });
    expect(d.breakdown.addons_total).toBe(55);
    // the lines a customer sees add up to the total
    const lines =
      d.breakdown.rental_net + d.breakdown.addons.reduce((s: number, a: { total: number }) => s + a.total, 0);
    expect(lines + d.tax).toBeCloseTo(d.total, 2);
    // the plain code form still means one unit
    const one = (await check(slot(v, ['child_seat']))).json().data;
    expect(one.breakdown.addons).toMatchObject([{ code: 'child_seat', quantity: 1, total: 15 }]);
    expect(one.total).toBe(148.5);
  });

  it.each([
    [
      'over the rule’s maximum',
      [{ code: 'child_seat', quantity: 4 }],
      'Add-on "child_seat" allows at most 3 per booking; 4 asked.',
      { field: 'addons', addon: 'child_seat', max_per_day: 3 },
    ],
    [
      'more than one of a yes/no extra',
      [{ code: 'extra_driver', quantity: 2 }],
      'Add-on "extra_driver" allows at most 1 per booking; 2 asked.',
      { field: 'addons', addon: 'extra_driver', max_per_day: 1 },
    ],
    [
      'an unknown code',
      [{ code: 'jetpack', quantity: 1 }],
      'Unknown add-on "jetpack".',
      { field: 'addons', addon: 'jetpack' },
    ],
    [
      'an extra of another category',
      ['chauffeur'],
      'Unknown add-on "chauffeur".',
      { field: 'addons', addon: 'chauffeur' },
    ],
    [
      'the same extra twice',
      ['child_seat', { code: 'child_seat', quantity: 2 }],
      'Add-on "child_seat" is named twice; give its quantity once.',
      { field: 'addons', addon: 'child_seat' },
    ],
  ])('%s → 400 INVALID_PARAMS naming the add-on', async (_n, addons, message, details) => {
    const v = await vehicle(t);
    const c = await check(slot(v, addons));
    expect(c.statusCode).toBe(400);
    expect(c.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS', message, details });
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': (await t.userWithKey('customer')).key },
      payload: { ...slot(v, addons), payment_method: 'offline', payment_plan: 'full' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS', message, details });
    // nothing was written
    const n = await t.platform.db.execute(sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v}`);
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it.each([
    ['quantity 0', [{ code: 'child_seat', quantity: 0 }]],
    ['a fractional quantity', [{ code: 'child_seat', quantity: 1.5 }]],
    ['an unknown property', [{ code: 'child_seat', quantity: 1, colour: 'red' }]],
  ])('%s → 400 INVALID_PARAMS by the schema', async (_n, addons) => {
    const v = await vehicle(t);
    const r = await check(slot(v, addons));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect(r.json().message).toContain('addons');
  });

  it('a booking stores each extra as a line with its quantity and price; the admin detail, my booking and the mail show it', async () => {
    const v = await vehicle(t, { price_per_day: '40.00', deposit_percent: '0' });
    const { key } = await t.userWithKey('customer');
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': key },
      payload: {
        ...slot(v, [{ code: 'child_seat', quantity: 2 }, 'extra_driver']),
        payment_method: 'offline',
        payment_plan: 'full',
      },
    });
    expect(r.statusCode).toBe(201);
    const b = r.json().data.booking;
    expect(b).toMatchObject({ total: 192.5, addons_total: 55 });
    const mine = await t.inject({
      method: 'GET',
      url: `${V2}/my/bookings/${b.id}`,
      headers: { 'x-rova-api-key': key },
    });
    expect(mine.json().data.order.lines).toEqual([
      { kind: 'rental', code: null, description: 'Rental, 3 day(s)', amount: 120, quantity: 1 },
      { kind: 'addon', code: 'child_seat', description: 'Child seat × 2', amount: 30, quantity: 2 },
      { kind: 'addon', code: 'extra_driver', description: 'Additional driver', amount: 25, quantity: 1 },
      { kind: 'tax', code: null, description: 'Tax', amount: 17.5, quantity: 1 },
      { kind: 'full', code: null, description: 'Full amount due now', amount: 192.5, quantity: 1 },
    ]);
    const detail = await t.inject({
      method: 'GET',
      url: `${V1}/bookings/${b.id}`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.lines.filter((l: { kind: string }) => l.kind === 'addon')).toEqual([
      { kind: 'addon', code: 'child_seat', description: 'Child seat × 2', amount: 30, quantity: 2 },
      { kind: 'addon', code: 'extra_driver', description: 'Additional driver', amount: 25, quantity: 1 },
    ]);
    const text = (await outboxMails(t.platform, sql`m.about = ${'booking:' + b.id}`))[0]!.text_body;
    expect(text).toMatch(/Child seat × 2: 30\.00 USD/);
    expect(text).toMatch(/Additional driver: 25\.00 USD/);
  });

  it('operators set max_per_day on add-on rules through the API (1–100 or null)', async () => {
    const post = (payload: object) =>
      t.inject({ method: 'POST', url: `${V1}/pricing-rules`, headers: { 'x-rova-api-key': admin }, payload });
    const ok = await post({
      name: 'Snow chains',
      kind: 'addon',
      code: 'snow_chains',
      amount: 8,
      charge: 'per_booking',
      max_per_day: 4,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({ code: 'snow_chains', charge: 'per_booking', max_per_day: 4 });
    const id = ok.json().data.id;
    const put = await t.inject({
      method: 'PUT',
      url: `${V1}/pricing-rules/${id}`,
      headers: { 'x-rova-api-key': admin },
      payload: { max_per_day: null },
    });
    expect(put.json().data.max_per_day).toBeNull();
    for (const max of [101, 2.5, -1]) {
      const bad = await post({ name: 'X', kind: 'addon', code: 'x_bad', amount: 1, max_per_day: max });
      expect(bad.statusCode, String(max)).toBe(400);
      expect(bad.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    }
  });
});
