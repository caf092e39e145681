import { envBool, envInt, ConfigError, type Config } from '../../../config.js';
import type { Platform } from '../../../platform/context.js';
import { IDEMPOTENCY_LEASE_MS } from '../../../platform/idempotency/store.js';
import { perPlatform } from '../../../platform/per-platform.js';

export type ProviderName = 'offline' | 'stripe';

/** The Stripe account the `stripe` provider talks to; `api` overrides the endpoint (tests, stripe-mock). */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Seconds a webhook's signed timestamp may be off (the SDK's tolerance). */
  webhookToleranceSeconds: number;
  api: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /** pk_test_…/pk_live_… for Stripe.js in the booking widget; null: the widget offers no card payment. */
  publishableKey: string | null;
  /** Where the booking widget loads Stripe.js from (ROVA_STRIPE_JS_URL; a local stand-in in tests). */
  jsUrl: string;
  /** Milliseconds one call to Stripe may take before it counts as failed and is retried (STRIPE_API_TIMEOUT_MS). */
  apiTimeoutMs: number;
}

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** Settings of the customer journey (environment; see docs/integrators/rova-rental-v2.md). */
export interface JourneySettings {
  /** Minutes a new pending_payment booking paid by card (or the generic `offline`) holds its slot. */
  holdMinutes: number;
  /** Days a booking paid by bank transfer has to pay (never past its pick-up); pay at pick-up has no deadline. */
  bankTransferDays: number;
  /** Hours before a payment deadline the reminder mail goes out (to bookings given longer than that to pay). */
  paymentReminderHours: number;
  /** A customer cancels free of charge until this many hours before pickup. */
  freeCancelHours: number;
  /** After that, this percent of the amount paid is kept. */
  cancelFeePercent: number;
  offlineInstructions: string;
  /** Payment methods a customer may choose in POST /booking/create. */
  paymentProviders: ReadonlySet<ProviderName>;
  stripe: StripeSettings | null;
  /** Milliseconds GET /vehicles/search reuses which vehicles are held for a window (0 = ask the database each time). */
  searchCacheMs: number;
  /** Milliseconds a create holds its Idempotency-Key before a retry may take it over (the request timeout). */
  idempotencyLeaseMs: number;
  /**
   * BOOKING_BATCHING: customers' bookings that arrive together share one statement (bookings/create/statement.ts);
   * off: each goes in a transaction of its own (what a keyed request does anyway).
   */
  batching: boolean;
}

function readStripe(c: Config, required: boolean): StripeSettings | null {
  const key = c.env.STRIPE_SECRET_KEY?.trim() ?? '';
  const hook = c.env.STRIPE_WEBHOOK_SECRET?.trim() ?? '';
  if (!required && !key && !hook) return null;
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(key))
    throw new ConfigError(
      'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…) when BOOKING_PAYMENT_PROVIDERS includes stripe',
    );
  if (!/^whsec_[A-Za-z0-9+/=_]+$/.test(hook))
    throw new ConfigError(
      "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…) when BOOKING_PAYMENT_PROVIDERS includes stripe",
    );
  const base = c.env.STRIPE_API_BASE?.trim();
  let api: StripeSettings['api'] = null;
  if (base) {
    let u: URL;
    try {
      u = new URL(base);
    } catch {
      throw new ConfigError(`STRIPE_API_BASE must be an http(s) URL such as http://127.0.0.1:12111 (got "${base}")`);
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || (u.pathname !== '/' && u.pathname !== ''))
      throw new ConfigError(`STRIPE_API_BASE must be an http(s) URL with no path (got "${base}")`);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    api = {
      protocol,
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443,
    };
  }
  const pk = c.env.STRIPE_PUBLISHABLE_KEY?.trim() || null;
  if (pk !== null && !/^pk_(test|live)_[A-Za-z0-9_]+$/.test(pk))
    throw new ConfigError('STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_… or pk_live_…)');
  const jsUrl = c.env.ROVA_STRIPE_JS_URL?.trim() || STRIPE_JS_URL;
  let js: URL;
  try {
    js = new URL(jsUrl);
  } catch {
    throw new ConfigError(`ROVA_STRIPE_JS_URL must be an http(s) URL (got "${jsUrl}")`);
  }
  if (js.protocol !== 'https:' && js.protocol !== 'http:')
    throw new ConfigError(`ROVA_STRIPE_JS_URL must be an http(s) URL (got "${jsUrl}")`);
  return {
    secretKey: key,
    webhookSecret: hook,
    webhookToleranceSeconds: envInt(c, 'STRIPE_WEBHOOK_TOLERANCE_SECONDS', 300, 1, 3600),
    api,
    publishableKey: pk,
    jsUrl: js.href,
    apiTimeoutMs: envInt(c, 'STRIPE_API_TIMEOUT_MS', 20_000, 100, 120_000),
  };
}

/** Reads and checks the journey's variables (also at start, through the rental module's checkConfig: exit 2). */
export function readJourneySettings(c: Config): JourneySettings {
  const fee = envInt(c, 'BOOKING_CANCEL_FEE_PERCENT', 20, 0);
  const names = (c.env.BOOKING_PAYMENT_PROVIDERS ?? 'offline')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const providers = new Set<ProviderName>();
  for (const n of names) {
    if (n !== 'offline' && n !== 'stripe')
      throw new ConfigError(
        `BOOKING_PAYMENT_PROVIDERS must be a comma list of offline, stripe (got "${c.env.BOOKING_PAYMENT_PROVIDERS}")`,
      );
    providers.add(n);
  }
  if (providers.size === 0)
    throw new ConfigError('BOOKING_PAYMENT_PROVIDERS must name at least one of offline, stripe');
  return {
    holdMinutes: envInt(c, 'BOOKING_HOLD_MINUTES', 15, 1),
    bankTransferDays: envInt(c, 'BOOKING_BANK_TRANSFER_DAYS', 2, 1, 60),
    paymentReminderHours: envInt(c, 'BOOKING_PAYMENT_REMINDER_HOURS', 24, 1, 24 * 30),
    freeCancelHours: envInt(c, 'BOOKING_FREE_CANCEL_HOURS', 24, 0),
    cancelFeePercent: Math.min(fee, 100),
    offlineInstructions:
      c.env.PAYMENT_OFFLINE_INSTRUCTIONS?.trim() ||
      'Pay at pickup (cash or card), or by bank transfer quoting the booking reference.',
    paymentProviders: providers,
    stripe: readStripe(c, providers.has('stripe')),
    searchCacheMs: envInt(c, 'BOOKING_SEARCH_CACHE_MS', 1000, 0, 60_000),
    idempotencyLeaseMs: envInt(c, 'BOOKING_IDEMPOTENCY_LEASE_SECONDS', IDEMPOTENCY_LEASE_MS / 1000, 1, 3600) * 1000,
    batching: envBool(c, 'BOOKING_BATCHING', true),
  };
}

export const journeySettings: (p: Platform) => JourneySettings = perPlatform((p) => readJourneySettings(p.config));
