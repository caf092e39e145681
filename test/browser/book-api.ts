import { expect } from 'vitest';
import { customer, TERMS_ACCEPTED, type Customer } from './book-helpers.js';
import { visitorAddress, type Shop } from './harness.js';

// The shop's REST API as the booking widget's browser tests use it from Node: to set a customer and a booking up
// before the browser part, and to check what the server holds afterwards. Each call is a fresh visitor address.

export interface CallOptions {
  body?: unknown;
  /** The customer's bearer token. */
  token?: string;
  headers?: Record<string, string>;
  /** With the administrator's API key. */
  admin?: boolean;
  /** The status the call must answer. */
  status: number;
}

export interface Mail {
  template: string;
  subject: string;
  text: string;
}

export interface ShopApi {
  /** `path` below /wp-json; the answer's JSON once its status is `opts.status`. */
  call<T = unknown>(method: string, path: string, opts: CallOptions): Promise<T>;
  /** The shop's outbox for `to`, newest first: the mail of `template` once it is there. */
  mail(to: string, template: string): Promise<Mail>;
}

export function shopApi(shop: () => Shop): ShopApi {
  async function call<T>(method: string, path: string, opts: CallOptions): Promise<T> {
    const { origin, adminKey } = shop();
    const headers: Record<string, string> = { 'x-forwarded-for': visitorAddress(), ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.admin) headers['x-rova-api-key'] = adminKey;
    const res = await fetch(`${origin}/wp-json${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBe(opts.status);
    return JSON.parse(text) as T;
  }

  async function mail(to: string, template: string): Promise<Mail> {
    let found: Mail | undefined;
    await expect
      .poll(
        async () =>
          (found = (
            await call<Mail[]>('GET', `/rova/v1/outbox?to=${encodeURIComponent(to)}`, { admin: true, status: 200 })
          ).find((m) => m.template === template)),
      )
      .toBeTruthy();
    return found!;
  }

  return { call, mail };
}

/** A customer registered through the API, and their bearer token. */
export async function signedUpCustomer(api: ShopApi): Promise<{ customer: Customer; token: string }> {
  const c = customer();
  await api.call('POST', '/rova/v1/auth/register', {
    body: { email: c.email, password: c.password, first_name: c.first, last_name: c.last },
    status: 202,
  });
  const { access_token: token } = await api.call<{ access_token: string }>('POST', '/rova/v1/auth/token', {
    body: { login: c.email, password: c.password },
    status: 200,
  });
  return { customer: c, token };
}

export interface ApiBooking {
  pickup_date: string;
  return_date: string;
  pickup_time?: string;
  return_time?: string;
  payment_method: 'stripe' | 'offline' | 'pay_at_pickup';
  /** `full` unless told otherwise. */
  payment_plan?: 'full' | 'deposit';
}

export interface BookedViaApi {
  id: number;
  reference: string;
  total: number;
  currency: string;
  pickup_at: string;
}

/**
 * Books the first vehicle that the search for the booking's dates lists (`search`: its other parameters; the cheapest
 * first unless told otherwise), paid in full unless its `payment_plan` says deposit, with the demo terms accepted: as the customer with `token`, or as a
 * guest with the `guestPass` the mailed code gave.
 */
export async function bookViaApi(
  api: ShopApi,
  who: { token: string } | { guestPass: string },
  booking: ApiBooking,
  search = 'sort=price_asc',
): Promise<BookedViaApi> {
  const query = `pickup_date=${booking.pickup_date}&return_date=${booking.return_date}&${search}&per_page=1`;
  const free = await api.call<{ data: { items: { vehicle_id: number }[] } }>(
    'GET',
    `/rova-rental/v2/vehicles/search?${query}`,
    { status: 200 },
  );
  const guest = 'guestPass' in who;
  const made = await api.call<{ data: { booking: BookedViaApi } }>(
    'POST',
    guest ? '/rova-rental/v2/guest/booking/create' : '/rova-rental/v2/booking/create',
    {
      ...(guest ? { headers: { 'x-rova-guest-pass': who.guestPass } } : { token: who.token }),
      status: 201,
      body: { vehicle_id: free.data.items[0]!.vehicle_id, payment_plan: 'full', ...booking, ...TERMS_ACCEPTED },
    },
  );
  return made.data.booking;
}

/** A guest pass for `email`: asked for, the code read from the mailed subject, confirmed. */
export async function guestPass(api: ShopApi, email: string, name: string): Promise<string> {
  const asked = await api.call<{ data: { verification_id: number } }>('POST', '/rova-rental/v2/guest/verification', {
    body: { email, name },
    status: 200,
  });
  const code = /Your booking code: (\d{6})/.exec((await api.mail(email, 'guest_code')).subject)![1]!;
  const pass = await api.call<{ data: { guest_pass: string } }>('POST', '/rova-rental/v2/guest/verification/confirm', {
    body: { verification_id: asked.data.verification_id, code },
    status: 200,
  });
  return pass.data.guest_pass;
}
