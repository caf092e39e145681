/** The v2 rental API and the platform's customer auth, as the widget uses them (fetch, JSON, errors in words). */
import type {
  ChangeAnswer,
  ChangeBody,
  CheckBody,
  CreateBody,
  NewThreadBody,
  PasswordBody,
  PayDueBody,
  PaymentConfigAnswer,
  ProfileBody,
  RegisterBody,
  SearchQuery,
  TokenAnswer,
} from './api-types.js';
import type { Cancelled, DuePayment, MyBooking, MyBookingDetail, Profile, Thread, ThreadSummary } from './account.js';
import type { BookingDriver, DriverFields, DriverRules } from './driver.js';
import type { Alternative, Booked, Card, Check, Chosen, PayMethod, Query } from './journey.js';

export interface Location {
  id: number;
  name: string;
  city: string;
  address?: string;
  /** airport, hotel, office, …: an airport pick-up may name a flight. */
  type?: string;
  latitude?: number | null;
  longitude?: number | null;
  /** null: always open; a missing day: closed (store time zone). */
  opening_hours?: Partial<Record<Weekday, { open: string; close: string }>> | null;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface SearchPage {
  items: Card[];
  total: number;
  next_cursor: string | null;
  facets: { category: Record<string, number>; fuel_type?: Record<string, number> };
}

/** A currency the store offers (the storefront config object's list: base first). */
export interface Currency {
  code: string;
  name: string;
}

/** GET /v2/payments/config: card payment is offered when `stripe` is set. */
export type PaymentConfig = PaymentConfigAnswer;

/** An answer of the API that is not a success, with the server's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The customer's session: the token pair lives in memory only (never a password, never storage). */
let accessToken: string | null = null;
let refreshToken: string | null = null;

export function signedIn(): boolean {
  return accessToken !== null;
}

/** A guest's pass (guest-view.ts), in memory only: without a session, a booking is made with it. */
let guestPass: string | null = null;

/** Ends the widget's session on this page (the tokens are forgotten; the server's refresh token expires on its own). */
export function forget(): void {
  accessToken = null;
  refreshToken = null;
}

type TokenPair = Pick<TokenAnswer, 'access_token' | 'refresh_token'>;

function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: { message?: unknown }; data?: { params?: unknown } };
    // "Invalid parameter(s): password" names the field; its reason ("password must NOT have fewer than 10
    // characters") is what a person can act on
    const params = b.data?.params;
    if (params && typeof params === 'object' && !Array.isArray(params)) {
      const why = Object.values(params).filter((v): v is string => typeof v === 'string');
      if (why.length > 0) return why.join('; ');
    }
    if (typeof b.message === 'string' && b.message) return b.message;
    if (typeof b.error?.message === 'string') return b.error.message;
  }
  return `HTTP ${status}`;
}

export interface PasswordPolicy {
  min_length: number;
  max_length: number;
  rule: string;
}

let policy: Promise<PasswordPolicy> | null = null;

export class Api {
  constructor(readonly root: string) {}

  protected async call<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    retried = false,
  ): Promise<T> {
    const h: Record<string, string> = { Accept: 'application/json', ...headers };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const sent = accessToken;
    if (sent) h.Authorization = `Bearer ${sent}`;
    // credentials omitted: the widget authenticates with its bearer token, never with a cookie session
    const res = await fetch(this.root + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
    });
    let json: unknown = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    // a wrong password (the password change's current password) is a 401 too, but not a dead token
    const wrongPassword = (json as { code?: unknown } | null)?.code === 'rova_invalid_credentials';
    if (res.status === 401 && sent && !retried && !wrongPassword) {
      // the access token expired (15 min): one refresh, then the same request again (same Idempotency-Key)
      if (await this.refresh()) return this.call<T>(method, path, body, headers, true);
    }
    if (!res.ok) throw new ApiError(res.status, messageOf(json, res.status));
    return json as T;
  }

  /**
   * The visitor's currency as the currency service detects it (country of the visitor, when the store has
   * auto-detection on): POST /rova-fx/v1/convert with `currency: null`, as the converter script asks it, with no
   * product. Null when nothing was detected (then the store's currency).
   */
  async detectCurrency(): Promise<string | null> {
    const r = await this.call<{ currency?: unknown; detected?: unknown }>('POST', '/rova-fx/v1/convert', {
      currency: null,
      product_ids: [],
    });
    return r.detected === true && typeof r.currency === 'string' && /^[A-Z]{3}$/.test(r.currency) ? r.currency : null;
  }

  /** The currencies the fx switcher offers: GET {origin}/assets/rova-fx/config.json (a public, cacheable file). */
  async currencies(origin: string): Promise<Currency[]> {
    const res = await fetch(`${origin}/assets/rova-fx/config.json`, {
      credentials: 'omit',
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) throw new ApiError(res.status, `HTTP ${res.status}`);
    const cfg = (await res.json()) as { currencies?: { code?: unknown; name?: unknown }[] };
    return (cfg.currencies ?? [])
      .filter((c) => typeof c.code === 'string' && /^[A-Z]{3}$/.test(c.code))
      .map((c) => ({ code: String(c.code), name: typeof c.name === 'string' ? c.name : String(c.code) }));
  }

  async locations(): Promise<Location[]> {
    const r = await this.call<{ data: { items: Location[] } }>('GET', '/rova-rental/v1/locations');
    return r.data.items;
  }

  async search(q: Query, currency: string | null, cursor: string | null, perPage = 12): Promise<SearchPage> {
    // the parameter names are the document's: a renamed one fails the typecheck
    const params: { [K in keyof SearchQuery]?: string } = {
      pickup_date: q.pickupDate,
      return_date: q.returnDate,
      pickup_time: q.pickupTime,
      return_time: q.returnTime,
      per_page: String(perPage),
    };
    if (q.location) params.location_id = String(q.location);
    if (q.category) params.category = q.category;
    if (q.transmission === 'manual' || q.transmission === 'automatic') params.transmission = q.transmission;
    if (q.fuel) params.fuel_type = q.fuel;
    if (q.seats) params.seats = String(q.seats);
    if (q.sort) params.sort = q.sort;
    if (currency) params.currency = currency;
    if (cursor) params.cursor = cursor;
    const p = new URLSearchParams(params as Record<string, string>);
    const r = await this.call<{ data: SearchPage }>('GET', `/rova-rental/v2/vehicles/search?${p.toString()}`);
    return r.data;
  }

  private slot(q: Query, vehicleId: number, extras: Chosen = {}): CheckBody {
    const b: CheckBody = {
      vehicle_id: vehicleId,
      pickup_date: q.pickupDate,
      return_date: q.returnDate,
      pickup_time: q.pickupTime,
      return_time: q.returnTime,
    };
    if (q.location) b.pickup_location_id = q.location;
    if (q.returnLocation) b.return_location_id = q.returnLocation;
    const addons = Object.entries(extras).filter(([, n]) => n > 0);
    if (addons.length) b.addons = addons.map(([code, quantity]) => ({ code, quantity }));
    return b;
  }

  /** `currency`: the visitor's display currency, for `display` (the total as the search shows prices). */
  async check(
    q: Query,
    vehicleId: number,
    extras: Chosen = {},
    currency: string | null = null,
  ): Promise<Check & { alternatives?: Alternative[] }> {
    const body: CheckBody = { ...this.slot(q, vehicleId, extras), ...(currency ? { currency } : {}) };
    const r = await this.call<{ data: Check }>('POST', '/rova-rental/v2/booking/check', body);
    return r.data;
  }

  async signIn(email: string, password: string): Promise<void> {
    const r = await this.call<TokenPair>('POST', '/rova/v1/auth/token', {
      login: email,
      password,
      device: 'Rova booking widget',
    });
    accessToken = r.access_token;
    refreshToken = r.refresh_token;
  }

  /** A new token pair for the refresh token; false (and signed out) when the session is over. */
  private async refresh(): Promise<boolean> {
    const token = refreshToken;
    accessToken = null;
    refreshToken = null;
    if (!token) return false;
    try {
      const r = await this.call<TokenPair>('POST', '/rova/v1/auth/token/refresh', { refresh_token: token });
      accessToken = r.access_token;
      refreshToken = r.refresh_token;
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the session on the server (its access tokens stop working at once), then forgets the pair; best effort. */
  async signOut(): Promise<void> {
    const token = refreshToken;
    forget();
    if (token)
      await this.call<unknown>('POST', '/rova/v1/auth/token/revoke', { refresh_token: token }).catch(() => undefined);
  }

  async register(input: RegisterBody & { password: string }): Promise<void> {
    await this.call<unknown>('POST', '/rova/v1/auth/register', input);
    await this.signIn(input.email, input.password);
  }

  /** Mails a reset link (the same answer whether or not the address has an account). */
  async forgotPassword(email: string): Promise<void> {
    await this.call<unknown>('POST', '/rova/v1/auth/password/forgot', { email });
  }

  /** Sets a new password with the mailed token; the customer signs in with it afterwards. */
  async resetPassword(token: string, password: string): Promise<void> {
    await this.call<unknown>('POST', '/rova/v1/auth/password/reset', { token, password });
  }

  /** The server's password rule (asked once per page). */
  passwordPolicy(): Promise<PasswordPolicy> {
    policy ??= this.call<PasswordPolicy>('GET', '/rova/v1/auth/password/policy').catch(() => {
      policy = null;
      return { min_length: 10, max_length: 200, rule: '' };
    });
    return policy;
  }

  /** A guest's first step: a 6-digit code is mailed to the address; the answer is the verification's id. */
  async guestCode(email: string, name: string): Promise<number> {
    const r = await this.call<{ data: { verification_id: number } }>('POST', '/rova-rental/v2/guest/verification', {
      email,
      name,
    });
    return r.data.verification_id;
  }

  /** The mailed code: right → the guest pass is kept (in memory) and the journey may book. */
  async guestConfirm(verificationId: number, code: string): Promise<void> {
    const r = await this.call<{ data: { guest_pass: string } }>('POST', '/rova-rental/v2/guest/verification/confirm', {
      verification_id: verificationId,
      code,
    });
    guestPass = r.data.guest_pass;
  }

  /** Creates the booking; `key` is the attempt's Idempotency-Key (a retry with it answers the same booking). */
  async create(
    q: Query,
    vehicleId: number,
    key: string,
    method: PayMethod = 'offline',
    extras: Chosen = {},
    driver: DriverFields = {},
  ): Promise<Booked> {
    const body: CreateBody = {
      ...this.slot(q, vehicleId, extras),
      ...driver,
      payment_method: method === 'offline' ? 'pay_at_pickup' : method,
      payment_plan: 'full',
    };
    const r = await this.call<{
      data: {
        booking: { id: number; reference: string; total: number; currency: string; payment_deadline: string | null };
        payment?: { instructions?: string; client_secret?: string };
      };
    }>(
      'POST',
      !accessToken && guestPass ? '/rova-rental/v2/guest/booking/create' : '/rova-rental/v2/booking/create',
      body,
      { 'Idempotency-Key': key, ...(!accessToken && guestPass ? { 'X-Rova-Guest-Pass': guestPass } : {}) },
    );
    const b = r.data.booking;
    const secret = r.data.payment?.client_secret;
    return {
      id: b.id,
      reference: b.reference,
      total: b.total,
      currency: b.currency,
      instructions: r.data.payment?.instructions ?? '',
      clientSecret: method === 'stripe' && secret ? secret : null,
      paid: false,
      deadline: b.payment_deadline ?? null,
    };
  }

  async driverRules(): Promise<DriverRules> {
    return (await this.call<{ data: DriverRules }>('GET', '/rova-rental/v2/booking/driver-rules')).data;
  }

  async myBookingDriver(id: number): Promise<BookingDriver | null> {
    return (await this.call<{ data: BookingDriver | null }>('GET', `/rova-rental/v2/my/bookings/${id}/driver`)).data;
  }

  async paymentConfig(): Promise<PaymentConfig> {
    const r = await this.call<{ data: PaymentConfig }>('GET', '/rova-rental/v2/payments/config');
    return r.data;
  }

  // ── account mode ──────────────────────────────────────────────────────────

  /** The customer's latest 100 bookings, or the one with `reference`. */
  async myBookings(reference?: string): Promise<MyBooking[]> {
    const only = reference === undefined ? '' : `&reference=${encodeURIComponent(reference)}`;
    const r = await this.call<{ data: { items: MyBooking[] } }>(
      'GET',
      `/rova-rental/v2/my/bookings?per_page=100${only}`,
    );
    return r.data.items;
  }

  async myBooking(id: number): Promise<MyBookingDetail> {
    const r = await this.call<{ data: MyBookingDetail }>('GET', `/rova-rental/v2/my/bookings/${id}`);
    return r.data;
  }

  /**
   * "Pay the rest" of a booking whose price went up: a card payment's client secret, or offline instructions. `key` is
   * the attempt's Idempotency-Key: asked again with it (a lost answer), the server answers the same payment.
   */
  async payDue(id: number, method: PayDueBody['payment_method'] | undefined, key: string): Promise<DuePayment> {
    const body: PayDueBody = method ? { payment_method: method } : {};
    const r = await this.call<{ data: DuePayment }>('POST', `/rova-rental/v2/my/bookings/${id}/pay-due`, body, {
      'Idempotency-Key': key,
    });
    return r.data;
  }

  /** What moving a booking to other dates (or another vehicle of its category) would cost; nothing is written. */
  async changeQuote(id: number, body: ChangeBody): Promise<ChangeAnswer> {
    const r = await this.call<{ data: ChangeAnswer }>('POST', `/rova-rental/v2/my/bookings/${id}/change/quote`, body);
    return r.data;
  }

  /** Moves the booking; `key` is the attempt's Idempotency-Key (a retry with it answers the same change). */
  async changeBooking(id: number, body: ChangeBody, key: string): Promise<ChangeAnswer> {
    const r = await this.call<{ data: ChangeAnswer }>('POST', `/rova-rental/v2/my/bookings/${id}/change`, body, {
      'Idempotency-Key': key,
    });
    return r.data;
  }

  async cancel(id: number): Promise<Cancelled & { message: string }> {
    const r = await this.call<{
      data: { fee: number; refund: number; booking: { currency: string } };
      message: string;
    }>('POST', `/rova-rental/v2/my/bookings/${id}/cancel`);
    return { fee: r.data.fee, refund: r.data.refund, currency: r.data.booking.currency, message: r.message };
  }

  async threads(): Promise<ThreadSummary[]> {
    const r = await this.call<{ data: { items: ThreadSummary[] } }>('GET', '/rova-rental/v1/my/messages?per_page=100');
    return r.data.items;
  }

  async thread(id: number): Promise<Thread> {
    const r = await this.call<{ data: Thread }>('GET', `/rova-rental/v1/my/messages/${id}`);
    return r.data;
  }

  async startThread(input: NewThreadBody): Promise<Thread> {
    const r = await this.call<{ data: Thread }>('POST', '/rova-rental/v1/my/messages', input);
    return r.data;
  }

  async reply(id: number, message: string): Promise<void> {
    await this.call<unknown>('POST', `/rova-rental/v1/my/messages/${id}/reply`, { message });
  }

  async profile(): Promise<Profile> {
    const r = await this.call<{ user: Profile }>('GET', '/rova/v1/profile');
    return r.user;
  }

  async saveProfile(input: ProfileBody): Promise<Profile> {
    const r = await this.call<{ user: Profile }>('PUT', '/rova/v1/profile', input);
    return r.user;
  }

  /** Changes the password; the server ends every session, so the widget signs in again with the new one. */
  async changePassword(email: string, current: string, next: string): Promise<void> {
    const body: PasswordBody = { current_password: current, new_password: next };
    await this.call<unknown>('PUT', '/rova/v1/auth/password', body);
    forget();
    await this.signIn(email, next);
  }
}
