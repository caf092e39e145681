// A rental desk works on the store's clock: the customer's bookings — the account's list and detail, a manage link's
// booking — answer the pick-up and return as the store's clock reads them (pickup_date/pickup_time/return_date/
// return_time) beside the UTC instants, and the store's zone, so a page shows the desk's 18:00 wherever its visitor is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signManageToken } from '../../../src/modules/rental/guests/manage-link.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { STORE_TIMEZONE: 'America/Los_Angeles' } });
}, 240_000);
afterAll(async () => t?.close());

const CLOCK = {
  pickup_at: '2031-07-10T01:00:00.000Z',
  return_at: '2031-07-12T01:00:00.000Z',
  pickup_date: '2031-07-09',
  pickup_time: '18:00',
  return_date: '2031-07-11',
  return_time: '18:00',
  timezone: 'America/Los_Angeles',
};

describe('a booking on the store’s clock (America/Los_Angeles)', () => {
  it('an 18:00 pick-up (01:00 UTC of the next day): the list’s item, the detail and the manage link’s booking answer the store’s date, time and zone', async () => {
    const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const created = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customer,
      payload: {
        vehicle_id: await vehicle(t),
        pickup_date: '2031-07-09',
        return_date: '2031-07-11',
        pickup_time: '18:00',
        return_time: '18:00',
        payment_method: 'offline',
        payment_plan: 'full',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const b = created.json().data.booking as { id: number; reference: string };

    const list = await t.inject({ method: 'GET', url: `${V2}/my/bookings`, headers: customer });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items).toEqual([expect.objectContaining({ id: b.id, ...CLOCK })]);

    const detail = await t.inject({ method: 'GET', url: `${V2}/my/bookings/${b.id}`, headers: customer });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject(CLOCK);

    const token = signManageToken(t.platform.config.secret, b.reference, new Date(CLOCK.return_at));
    const managed = await t.inject({
      method: 'GET',
      url: `${V2}/guest/manage/booking`,
      headers: { 'x-rova-manage-token': token },
    });
    expect(managed.statusCode, managed.body).toBe(200);
    expect(managed.json().data).toMatchObject({ id: b.id, ...CLOCK });
  });
});
