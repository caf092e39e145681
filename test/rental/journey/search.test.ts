import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rawBooking, rule, vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';

describe('GET /vehicles/search', () => {
  let t: TestApp;
  let ids: Record<string, number>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    await rule(t, { name: 'VAT', kind: 'tax', percent: '10' });
    ids = {
      clio: await vehicle(t, {
        name: 'Renault Clio',
        brand: 'Renault',
        category: 'economy',
        fuel_type: 'petrol',
        transmission: 'manual',
        seats: 5,
        year: 2021,
        price_per_day: '30.00',
        features: ['ac', 'bluetooth'],
      }),
      zoe: await vehicle(t, {
        name: 'Renault Zoe',
        brand: 'Renault',
        category: 'economy',
        fuel_type: 'electric',
        transmission: 'automatic',
        seats: 5,
        year: 2023,
        price_per_day: '45.00',
        features: ['ac'],
      }),
      golf: await vehicle(t, {
        name: 'VW Golf',
        brand: 'Volkswagen',
        category: 'compact',
        fuel_type: 'diesel',
        transmission: 'manual',
        seats: 5,
        year: 2022,
        price_per_day: '50.00',
        features: ['ac', 'gps'],
      }),
      van: await vehicle(t, {
        name: 'Ford Transit',
        brand: 'Ford',
        category: 'van',
        fuel_type: 'diesel',
        transmission: 'manual',
        seats: 9,
        year: 2019,
        price_per_day: '90.00',
        features: [],
      }),
      off: await vehicle(t, {
        name: 'Renault Old',
        brand: 'Renault',
        category: 'economy',
        status: 'inactive',
        price_per_day: '10.00',
      }),
    };
  }, 240_000);
  afterAll(async () => t?.close());

  const search = async (q: string) => {
    const r = await t.inject({ method: 'GET', url: `${V2}/vehicles/search${q}` });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data as {
      items: { vehicle_id: number; total_price: number; price_per_day: number; currency: string; days: number }[];
      total: number;
      facets: Record<string, Record<string, number>>;
    };
  };
  const got = (d: { items: { vehicle_id: number }[] }) =>
    d.items.map((i) => i.vehicle_id).filter((id) => Object.values(ids).includes(id));

  it('each filter', async () => {
    expect(got(await search('?q=renault&sort=name'))).toEqual([ids.clio, ids.zoe]);
    expect(got(await search('?category=compact'))).toEqual([ids.golf]);
    expect(got(await search('?fuel_type=diesel&sort=price_asc'))).toEqual([ids.golf, ids.van]);
    expect(got(await search('?transmission=automatic'))).toEqual([ids.zoe]);
    expect(got(await search('?seats=7'))).toEqual([ids.van]);
    expect(got(await search('?brand=volkswagen'))).toEqual([ids.golf]);
    expect(got(await search('?year_min=2022&sort=year_desc'))).toEqual([ids.zoe, ids.golf]);
    expect(got(await search('?year_max=2020'))).toEqual([ids.van]);
    expect(got(await search('?min_price=40&max_price=60&sort=price_asc'))).toEqual([ids.zoe, ids.golf]);
    expect(got(await search('?features=ac,gps'))).toEqual([ids.golf]);
  });

  it('each sort, facets equal the filtered totals, paging', async () => {
    expect(got(await search('?q=renault&sort=price_desc'))).toEqual([ids.zoe, ids.clio]);
    expect(got(await search('?brand=renault&sort=price_asc'))).toEqual([ids.clio, ids.zoe]);
    const d = await search('?brand=renault');
    expect(d.total).toBe(2);
    expect(d.facets.category).toEqual({ economy: 2 });
    expect(d.facets.fuel_type).toEqual({ petrol: 1, electric: 1 });
    expect(Object.values(d.facets.transmission!).reduce((a, b) => a + b, 0)).toBe(d.total);
    const p2 = await search('?brand=renault&sort=name&per_page=1&page=2');
    expect(got(p2)).toEqual([ids.zoe]);
  });

  it('dates exclude vehicles not free and price each card for the dates', async () => {
    await rawBooking(t, ids.golf!, '2033-03-01T10:00:00Z', '2033-03-05T10:00:00Z', 'confirmed');
    const d = await search('?pickup_date=2033-03-02&return_date=2033-03-04&sort=price_asc');
    expect(got(d)).toEqual([ids.clio, ids.zoe, ids.van]);
    expect(d.items.find((i) => i.vehicle_id === ids.clio)).toMatchObject({
      days: 2,
      price_per_day: 30,
      total_price: 66,
      currency: 'USD',
    });
  });

  it('currency= converts through the currency service: the same figures POST /rova-fx/v1/convert shows for the same amounts', async () => {
    const admin = await t.userWithKey('administrator');
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/currencies',
      headers: { 'x-rova-api-key': admin.key },
      payload: {
        currencies: [
          { code: 'EUR', enabled: true, rate: { type: 'manual', value: 0.9237 } },
          { code: 'JPY', enabled: true, rate: { type: 'manual', value: 151.37 } },
          { code: 'GBP', enabled: false, rate: { type: 'manual', value: 0.8 } },
        ],
      },
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
    for (const code of ['EUR', 'JPY']) {
      const d = await search(
        `?currency=${code.toLowerCase()}&pickup_date=2033-04-01&return_date=2033-04-04&sort=price_asc`,
      );
      const base = await search('?pickup_date=2033-04-01&return_date=2033-04-04&sort=price_asc');
      expect(d.items.length).toBeGreaterThanOrEqual(4);
      expect(d.items.map((i) => i.vehicle_id)).toEqual(base.items.map((i) => i.vehicle_id));
      // the storefront's converter prices products: give it products with exactly the base amounts of each card
      const amounts = [...new Set(base.items.flatMap((i) => [i.price_per_day, i.total_price]))];
      const productOf = new Map<number, number>();
      for (const a of amounts) {
        const pr = await t.inject({
          method: 'POST',
          url: '/wp-json/wc/v3/products',
          headers: { 'x-rova-api-key': admin.key },
          payload: { name: `Amount ${a}`, regular_price: a.toFixed(2), status: 'publish' },
        });
        expect(pr.statusCode, pr.body).toBe(201);
        productOf.set(a, pr.json().id);
      }
      const conv = await t.inject({
        method: 'POST',
        url: '/wp-json/rova-fx/v1/convert',
        payload: { currency: code, product_ids: [...productOf.values()] },
      });
      expect(conv.statusCode, conv.body).toBe(200);
      expect(conv.json().currency).toBe(code);
      // price HTML → its number (no thousands separator below 1000 × rate here; JPY has no decimals)
      const figure = (a: number) =>
        Number(
          String(conv.json().prices[String(productOf.get(a))])
            .replace(/<[^>]*>/g, '')
            .replace(/&[^;]+;/g, '')
            .replace(/[^0-9.]/g, ''),
        );
      for (const [i, c] of d.items.entries()) {
        const b = base.items[i]!;
        expect(c).toMatchObject({
          currency: code,
          price_per_day: figure(b.price_per_day),
          total_price: figure(b.total_price),
        });
      }
    }
    expect((await search('?brand=ford&currency=GBP')).items[0]).toMatchObject({ currency: 'USD', price_per_day: 90 });
  });

  it('POST /booking/check with currency= answers display: the search card’s figure, and with an extra the converted total of the check (charged in USD)', async () => {
    // EUR and JPY were enabled by the test before, GBP disabled
    await rule(t, { name: 'Child seat', kind: 'addon', code: 'seat_display', amount: '7.50', charge: 'per_booking' });
    const dates = { pickup_date: '2033-04-01', return_date: '2033-04-04' };
    const check = async (payload: object) => {
      const r = await t.inject({ method: 'POST', url: `${V2}/booking/check`, payload });
      return { status: r.statusCode, json: r.json() };
    };
    const card = (await search(`?currency=EUR&pickup_date=2033-04-01&return_date=2033-04-04&brand=volkswagen`))
      .items[0]!;
    const plain = await check({ vehicle_id: ids.golf!, ...dates, currency: 'eur' });
    expect(plain.status).toBe(200);
    expect(plain.json.data.currency).toBe('USD');
    expect(plain.json.data.display).toEqual({ currency: 'EUR', total: card.total_price });

    const seat = await check({ vehicle_id: ids.golf!, ...dates, addons: ['seat_display'], currency: 'EUR' });
    expect(seat.json.data.total).toBeCloseTo(plain.json.data.total + 8.25, 2); // 7.50 + 10 % tax
    const admin = await t.userWithKey('administrator');
    const pr = await t.inject({
      method: 'POST',
      url: '/wp-json/wc/v3/products',
      headers: { 'x-rova-api-key': admin.key },
      payload: { name: 'Check total', regular_price: seat.json.data.total.toFixed(2), status: 'publish' },
    });
    const conv = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/convert',
      payload: { currency: 'EUR', product_ids: [pr.json().id] },
    });
    const figure = Number(
      String(conv.json().prices[String(pr.json().id)])
        .replace(/<[^>]*>/g, '')
        .replace(/&[^;]+;/g, '')
        .replace(/[^0-9.]/g, ''),
    );
    expect(seat.json.data.display).toEqual({ currency: 'EUR', total: figure });
    expect(seat.json.data.display.total).toBeGreaterThan(plain.json.data.display.total);

    // the store's own currency, a disabled one, none: no display
    for (const currency of ['USD', 'GBP', undefined]) {
      const r = await check({ vehicle_id: ids.golf!, ...dates, ...(currency ? { currency } : {}) });
      expect(r.status).toBe(200);
      expect(r.json.data).not.toHaveProperty('display');
    }
    const bad = await check({ vehicle_id: ids.golf!, ...dates, currency: '12' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
  });

  it('cursor paging: walking next_cursor yields every result exactly once, in order, for each sort; bad cursors → 400', async () => {
    for (let i = 0; i < 7; i++)
      await vehicle(t, {
        name: `Cursor ${i % 3}`,
        brand: 'Cursorco',
        price_per_day: String(20 + (i % 4) * 5) + '.00',
        year: 2018 + (i % 2),
      });
    for (const sort of ['relevance', 'price_asc', 'price_desc', 'name', 'year_desc']) {
      const filters = `sort=${sort}&pickup_date=2033-05-01&return_date=2033-05-03${sort === 'relevance' ? '&q=cursor' : ''}`;
      const all = await search(`?${filters}&per_page=100`);
      expect(all.total).toBeGreaterThanOrEqual(7);
      const walked: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await t.inject({
          method: 'GET',
          url: `${V2}/vehicles/search?${filters}&per_page=3${cursor ? `&cursor=${cursor}` : ''}`,
        });
        expect(r.statusCode, r.body).toBe(200);
        const d = r.json().data;
        expect(d.page).toBe(cursor ? null : 1);
        walked.push(...d.items.map((i: { vehicle_id: number }) => i.vehicle_id));
        cursor = d.next_cursor;
        pages += 1;
      } while (cursor && pages < 50);
      expect(walked, sort).toEqual(all.items.map((i) => i.vehicle_id));
      expect(new Set(walked).size).toBe(walked.length);
      expect(pages).toBe(Math.ceil(all.total / 3));
    }
    const first = (await t.inject({ method: 'GET', url: `${V2}/vehicles/search?sort=name&per_page=2` })).json().data
      .next_cursor as string;
    const [body, mac] = first.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, k: ['A', 1] })).toString('base64url') + '.' + mac;
    for (const q of [
      `sort=name&cursor=${forged}`,
      `sort=price_asc&cursor=${first}`,
      `sort=name&brand=ford&cursor=${first}`,
      'sort=name&cursor=abc',
      `sort=name&cursor=${body}`,
      'cursor=%00',
    ]) {
      const r = await t.inject({ method: 'GET', url: `${V2}/vehicles/search?${q}` });
      expect(r.statusCode, q).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(r.json().details)).toContain('cursor');
    }
    // the same cursor with another page size or display currency is fine
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/vehicles/search?sort=name&per_page=5&cursor=${first}` })).statusCode,
    ).toBe(200);
  });

  it('an unknown or disabled currency falls back to the base; bad input → 400', async () => {
    expect((await search('?currency=XYZ&brand=ford')).items[0]!.currency).toBe('USD');
    for (const q of [
      '?sort=cheap',
      '?pickup_date=2033-02-30&return_date=2033-03-01',
      '?pickup_date=2033-03-01',
      '?seats=0',
      '?page=0',
      '?per_page=500',
      '?min_price=-1',
      '?foo=1',
      '?currency=12',
      '?location_id=99999999',
      '?q=%00',
    ]) {
      const r = await t.inject({ method: 'GET', url: `${V2}/vehicles/search${q}` });
      expect(r.statusCode, q).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
    }
  });
});
