import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';

/** The Stripe.js stand-in the booking widget's browser tests load (GET /v3/ of this server). */
const STRIPE_JS = new URL('../../browser/stripe-standin.js', import.meta.url);

export interface StripeCall {
  method: string;
  path: string;
  /** The form-encoded body decoded to flat keys as Stripe's SDK sends them (`metadata[booking_id]`). */
  params: Record<string, string>;
  authorization: string;
  idempotencyKey: string | undefined;
}

export interface PaymentIntentJson {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  description: string | null;
  created: number;
  livemode: false;
  last_payment_error: null | { code: string; message: string; type: string };
  automatic_payment_methods: { enabled: boolean } | null;
  latest_charge: string | null;
  cancellation_reason?: string | null;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A local HTTP server speaking the few Stripe API calls Rova makes — POST /v1/payment_intents,
 * GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel, POST /v1/refunds — with Stripe's JSON shapes,
 * its Idempotency-Key replay and its error envelope; every call is recorded, and outages (503, dropped connections,
 * answers too late) can be made to happen (`fault`). The real `stripe` SDK is pointed at it (STRIPE_API_BASE).
 * For browsers (with `publishableKey`): GET /v3/ serves the Stripe.js stand-in, and
 * POST /v1/payment_intents/:id/confirm (publishable key + client_secret, CORS open like Stripe's) succeeds the
 * intent — or declines card 4000000000000002 — and then, like Stripe, sends the signed
 * `payment_intent.succeeded` webhook to the endpoint set by `webhookTo`.
 */
export async function startStripe(opts: { secretKey: string; publishableKey?: string }) {
  const calls: StripeCall[] = [];
  const intents = new Map<string, PaymentIntentJson>();
  const refunds: Record<string, unknown>[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  let failNext = 0;
  /** Outages to come, each for one API call whose path matches (see `fault`). */
  const faults: { kind: 'unavailable' | 'timeout' | 'reset'; path: RegExp; delayMs: number }[] = [];
  let hook: { url: string; secret: string } | null = null;
  const webhooks: { type: string; status: number }[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': id('req'),
      'access-control-allow-origin': '*',
    });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, type: string, message: string, param?: string) =>
    send(res, status, { error: { type, message, ...(param ? { param } : {}) } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const url = new URL(req.url ?? '/', 'http://x');
    const idem = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': String(
          req.headers['access-control-request-headers'] ?? 'authorization, content-type',
        ),
        'access-control-max-age': '600',
      });
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === '/v3/' && opts.publishableKey) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(readFileSync(STRIPE_JS));
    }
    calls.push({
      method: req.method ?? '',
      path: url.pathname,
      params,
      authorization: String(req.headers.authorization ?? ''),
      idempotencyKey: idem,
    });
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(url.pathname);
    if (
      req.method === 'POST' &&
      confirm &&
      opts.publishableKey &&
      req.headers.authorization === `Bearer ${opts.publishableKey}`
    ) {
      const pi = intents.get(confirm[1]!);
      if (!pi || params.client_secret !== pi.client_secret)
        return error(res, 404, 'invalid_request_error', `No such payment_intent: '${confirm[1]}'`, 'intent');
      if (pi.status === 'canceled' || pi.status === 'succeeded')
        return error(
          res,
          400,
          'invalid_request_error',
          `This PaymentIntent's status is ${pi.status}: it cannot be confirmed.`,
          'intent',
        );
      if (params['payment_method_data[card][number]'] === '4000000000000002') {
        send(res, 402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
        void notify('payment_intent.payment_failed', fail(pi.id));
        return;
      }
      send(res, 200, succeed(pi.id));
      void notify('payment_intent.succeeded', pi);
      return;
    }
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`)
      return error(res, 401, 'invalid_request_error', 'Invalid API Key provided.');
    if (failNext > 0) {
      failNext -= 1;
      return error(res, 402, 'card_error', 'Your card was declined.');
    }
    const at = faults.findIndex((f) => f.path.test(url.pathname));
    const outage = at >= 0 ? faults.splice(at, 1)[0] : undefined;
    // before anything executes: nothing is stored under the key, as with Stripe's own 503s and dropped connections
    if (outage?.kind === 'unavailable') return error(res, 503, 'api_error', 'Stripe is temporarily unavailable.');
    if (outage?.kind === 'reset') return void req.socket.destroy();
    // a timeout: the call executes (its result kept under its key), but the answer comes too late
    const respond = (status: number, body: unknown) => {
      if (outage?.kind === 'timeout') setTimeout(() => send(res, status, body), outage.delayMs);
      else send(res, status, body);
    };
    const replayKey = idem ? `${req.method} ${url.pathname} ${idem}` : '';
    if (replayKey && replies.has(replayKey)) {
      const r = replies.get(replayKey)!;
      res.setHeader('idempotent-replayed', 'true');
      return respond(r.status, r.body);
    }
    const answer = (status: number, body: unknown) => {
      if (replayKey) replies.set(replayKey, { status, body });
      respond(status, body);
    };
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1)
        return error(res, 400, 'invalid_request_error', 'Invalid integer', 'amount');
      if (!/^[a-z]{3}$/.test(params.currency ?? ''))
        return error(res, 400, 'invalid_request_error', 'Invalid currency', 'currency');
      const pid = id('pi');
      const metadata = Object.fromEntries(
        Object.entries(params)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice(9, -1), v]),
      );
      const pi: PaymentIntentJson = {
        id: pid,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: params.currency!,
        status: 'requires_payment_method',
        client_secret: `${pid}_secret_${randomBytes(12).toString('hex')}`,
        metadata,
        description: params.description ?? null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        last_payment_error: null,
        automatic_payment_methods: params['automatic_payment_methods[enabled]']
          ? { enabled: params['automatic_payment_methods[enabled]'] === 'true' }
          : null,
        latest_charge: null,
      };
      intents.set(pid, pi);
      return answer(200, pi);
    }
    const get = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && get) {
      const pi = intents.get(get[1]!);
      return pi
        ? send(res, 200, pi)
        : error(res, 404, 'invalid_request_error', `No such payment_intent: '${get[1]}'`, 'id');
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const pi = intents.get(cancel[1]!);
      if (!pi) return error(res, 404, 'invalid_request_error', `No such payment_intent: '${cancel[1]}'`, 'intent');
      if (pi.status === 'succeeded' || pi.status === 'canceled')
        return answer(400, {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
            payment_intent: pi,
          },
        });
      pi.status = 'canceled';
      pi.cancellation_reason = params.cancellation_reason ?? null;
      return answer(200, pi);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const pi = intents.get(params.payment_intent ?? '');
      if (!pi)
        return error(
          res,
          404,
          'invalid_request_error',
          `No such payment_intent: '${params.payment_intent}'`,
          'payment_intent',
        );
      const amount = params.amount ? Number(params.amount) : pi.amount;
      const metadata = Object.fromEntries(
        Object.entries(params)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice(9, -1), v]),
      );
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: pi.currency,
        payment_intent: pi.id,
        charge: pi.latest_charge,
        status: 'succeeded',
        reason: null,
        metadata,
        created: Math.floor(Date.now() / 1000),
      };
      refunds.push(refund);
      return answer(200, refund);
    }
    return error(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${url.pathname}).`);
  }

  function succeed(piId: string): PaymentIntentJson {
    const pi = intents.get(piId)!;
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    pi.latest_charge = id('ch');
    return pi;
  }
  function fail(piId: string): PaymentIntentJson {
    const pi = intents.get(piId)!;
    pi.status = 'requires_payment_method';
    pi.last_payment_error = { code: 'card_declined', message: 'Your card was declined.', type: 'card_error' };
    return pi;
  }
  /** Stripe's side of a confirmation: the signed event to the webhook endpoint (recorded with its answer). */
  async function notify(type: string, object: PaymentIntentJson): Promise<void> {
    if (!hook) return;
    const payload = stripeEvent(type, object);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: hook.secret });
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    }).catch(() => null);
    webhooks.push({ type, status: r?.status ?? 0 });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => error(res, 500, 'api_error', String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    intents,
    refunds,
    /** The next n API calls answer 402 card_error (a provider refusal). */
    failNext(n = 1) {
      failNext = n;
    },
    /**
     * The next n API calls whose path matches fail as an outage would: `unavailable` answers 503 and `reset` drops
     * the connection before anything executes; `timeout` executes the call (its result kept under its idempotency
     * key) and answers only after `delayMs` (default 5 s), past the client's timeout.
     */
    fault(kind: 'unavailable' | 'timeout' | 'reset', n = 1, o: { path?: RegExp; delayMs?: number } = {}) {
      for (let i = 0; i < n; i++) faults.push({ kind, path: o.path ?? /^\/v1\//, delayMs: o.delayMs ?? 5000 });
    },
    /** Clears outages not yet used. */
    heal() {
      faults.length = 0;
    },
    /** What the customer's browser does with the client secret: the intent succeeds (Stripe then sends the webhook). */
    succeed,
    fail,
    /** Where confirmations from browsers send their signed webhook (Rova's endpoint and its whsec_ secret). */
    webhookTo(url: string, secret: string) {
      hook = { url, secret };
    },
    /** Webhooks sent, with Rova's answer status. */
    webhooks,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An app that answers requests in process (a test app, one node of two). */
interface Injectable {
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
}

/** `payload` (a stripeEvent) to `app`'s Stripe webhook, signed with `secret` as Stripe signs it. */
export function sendStripeWebhook(app: Injectable, payload: string, secret: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/wp-json/rova-rental/v2/payments/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    payload,
  });
}

/** A Stripe event envelope (API shape) around a PaymentIntent. */
export function stripeEvent(type: string, object: unknown, eventId = id('evt')): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}
