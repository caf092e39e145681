import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '../auth/secret-box.js';
import type { Platform } from '../context.js';
import { toDate, toDateOrNull, type Db } from '../db/types.js';
import { isKnownFilter, matchesFilter } from '../events/registry.js';
import { RovaErrors } from '../errors.js';
import { perPlatform } from '../per-platform.js';
import * as repo from './repo.js';
import { SsrfError, checkUrlShape, checkUrlTarget, guardedLookup, isPrivateAddress } from './ssrf.js';

/** Seconds to wait after each failed attempt: ~3 days in all (Standard Webhooks' schedule, stretched). */
export const RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];
const JITTER = 0.1;
const TIMEOUT_MS = 10_000;
const POLL_MS = 2_000;
const OPT_ALLOW_PRIVATE = 'webhooks_allow_private_urls';
/** A receiver answering 410 Gone asks us to stop sending (Standard Webhooks): the endpoint is disabled. */
const GONE = 410;

export interface EndpointView {
  id: number;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret_rotating_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryView {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  response_status: number | null;
  response_time_ms: number | null;
  error: string | null;
  created_at: string;
  delivered_at: string | null;
}

const iso = (v: string | null) => toDateOrNull(v)?.toISOString() ?? null;

function endpointView(e: repo.EndpointRow): EndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    secret_rotating_until: iso(e.previousSecretUntil),
    created_at: toDate(e.createdAt).toISOString(),
    updated_at: toDate(e.updatedAt).toISOString(),
  };
}

function deliveryView(d: repo.DeliveryRow): DeliveryView {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: iso(d.nextAttemptAt),
    response_status: d.lastStatus,
    response_time_ms: d.lastDurationMs,
    error: d.lastError,
    created_at: toDate(d.createdAt).toISOString(),
    delivered_at: iso(d.deliveredAt),
  };
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Outbound webhooks: endpoints, fan-out of the rova_events outbox into deliveries, and delivery with
 * Standard Webhooks signatures, retries with backoff and jitter, and a log of every attempt.
 */
export class Webhooks {
  private readonly box: SecretBox;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  /** Clock and randomness, replaceable by tests. */
  now: () => number = () => Date.now();
  random: () => number = () => Math.random();

  constructor(private readonly p: Platform) {
    this.box = new SecretBox(p.config.secret, 'webhook-secret');
  }

  async allowPrivate(): Promise<boolean> {
    return (await this.p.options.get<boolean>(OPT_ALLOW_PRIVATE)) === true;
  }

  async setAllowPrivate(v: boolean): Promise<void> {
    await this.p.options.set(OPT_ALLOW_PRIVATE, v);
  }

  private async checkUrl(raw: string): Promise<string> {
    try {
      const u = checkUrlShape(raw);
      await checkUrlTarget(u, await this.allowPrivate());
      return u.toString();
    } catch (err) {
      if (err instanceof SsrfError) throw RovaErrors.webhookUrlRefused(err.message, { params: { url: err.message } });
      throw err;
    }
  }

  private checkEvents(events: string[]): string[] {
    const list = [...new Set(events.map((e) => e.trim()))];
    const unknown = list.filter((e) => !isKnownFilter(e));
    if (list.length === 0 || unknown.length) {
      throw RovaErrors.webhookUnknownEvent(
        `unknown event type(s): ${unknown.join(', ') || '(none given)'}; see GET /rova/v1/webhooks/event-types`,
        { params: { events: 'invalid' } },
      );
    }
    return list;
  }

  async create(input: {
    url: string;
    events: string[];
    description?: string;
    enabled?: boolean;
  }): Promise<{ endpoint: EndpointView; secret: string }> {
    return this.insert(this.p.db, await this.checked(input));
  }

  /** The URL (SSRF guard: a DNS lookup) and the event filter checked, before any transaction holds a connection. */
  async checked<T extends { url: string; events: string[] }>(input: T): Promise<T> {
    return { ...input, url: await this.checkUrl(input.url), events: this.checkEvents(input.events) };
  }

  /** Registers an endpoint whose input `checked` passed, in `db` (a transaction or the pool). */
  async insert(
    db: Db,
    input: { url: string; events: string[]; description?: string; enabled?: boolean },
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const secret = newSecret();
    const row = await repo.insertEndpoint(db, {
      url: input.url,
      events: input.events,
      description: input.description?.trim() ?? '',
      enabled: input.enabled ?? true,
      secretEnc: this.box.seal(secret),
    });
    return { endpoint: endpointView(row), secret };
  }

  async list(): Promise<EndpointView[]> {
    return (await repo.listEndpoints(this.p.db)).map(endpointView);
  }

  async get(id: number): Promise<EndpointView> {
    return endpointView(await this.row(id));
  }

  private async row(id: number): Promise<repo.EndpointRow> {
    const r = await repo.findEndpoint(this.p.db, id);
    if (!r) throw RovaErrors.webhookNotFound(`webhook endpoint ${id} not found`);
    return r;
  }

  async update(
    id: number,
    input: { url?: string; events?: string[]; description?: string; enabled?: boolean },
  ): Promise<EndpointView> {
    await this.row(id);
    const url = input.url !== undefined ? await this.checkUrl(input.url) : undefined;
    const events = input.events !== undefined ? this.checkEvents(input.events) : undefined;
    const r = await repo.updateEndpoint(this.p.db, id, {
      url,
      events,
      description: input.description?.trim(),
      enabled: input.enabled,
    });
    if (!r) throw RovaErrors.webhookNotFound(`webhook endpoint ${id} not found`);
    return endpointView(r);
  }

  async remove(id: number): Promise<void> {
    if (!(await repo.deleteEndpoint(this.p.db, id)))
      throw RovaErrors.webhookNotFound(`webhook endpoint ${id} not found`);
  }

  /** A new secret, shown once; the old one keeps signing alongside it for `overlapSeconds`. */
  /** A new signing secret, in `db` (the route's transaction, which commits its Idempotency-Key with it). */
  async rotateSecret(
    id: number,
    overlapSeconds: number,
    db: Db = this.p.db,
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const secret = newSecret();
    const until = new Date(this.now() + overlapSeconds * 1000).toISOString();
    const r = await repo.rotateSecret(db, id, this.box.seal(secret), until);
    if (!r) throw RovaErrors.webhookNotFound(`webhook endpoint ${id} not found`);
    return { endpoint: endpointView(r), secret };
  }

  async deliveries(id: number, page: number, perPage: number): Promise<{ items: DeliveryView[]; total: number }> {
    await this.row(id);
    const r = await repo.listDeliveries(this.p.db, id, page, perPage);
    return { items: r.items.map(deliveryView), total: r.total };
  }

  async attempts(endpointId: number, deliveryId: number) {
    const d = await repo.findDelivery(this.p.db, endpointId, deliveryId);
    if (!d) throw RovaErrors.deliveryNotFound(`delivery ${deliveryId} not found`);
    const attempts = (await repo.attemptsOf(this.p.db, d.id)).map((a) => ({
      attempted_at: toDate(a.attemptedAt).toISOString(),
      response_status: a.responseStatus,
      response_time_ms: a.durationMs,
      error: a.error,
    }));
    return { ...deliveryView(d), log: attempts };
  }

  /**
   * Manual replay: a new delivery of the same event, attempted at once. The delivery commits with the caller's
   * `record` (its Idempotency-Key, answering the delivery as pending should the attempt never finish: the job then
   * attempts it); the answer is the delivery after its attempt.
   */
  async replay(
    endpointId: number,
    deliveryId: number,
    record?: (tx: Db, pending: DeliveryView) => Promise<void>,
  ): Promise<DeliveryView> {
    const fresh = await this.p.transaction(async (tx) => {
      const d = await repo.findDelivery(tx, endpointId, deliveryId);
      if (!d) throw RovaErrors.deliveryNotFound(`delivery ${deliveryId} not found`);
      const id = await repo.insertDelivery(tx, endpointId, d.eventId, d.eventType, new Date(this.now()));
      const row = (await repo.findDelivery(tx, endpointId, id))!;
      if (record) await record(tx, deliveryView(row));
      return row;
    });
    await this.attempt(fresh);
    return deliveryView((await repo.findDelivery(this.p.db, endpointId, fresh.id))!);
  }

  /** One pass of the job: fan new events out to matching endpoints, then attempt every due delivery. */
  async runOnce(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.fanOut();
      for (;;) {
        const due = await repo.dueDeliveries(this.p.db, new Date(this.now()), 20);
        if (due.length === 0) break;
        await Promise.all(due.map((d) => this.attempt(d)));
        if (due.length < 20) break;
      }
    } finally {
      this.running = false;
    }
  }

  private async fanOut(): Promise<void> {
    const endpoints = (await repo.listEndpoints(this.p.db)).filter((e) => e.enabled);
    for (;;) {
      const n = await this.p.transaction(async (tx) => {
        const events = await repo.pendingEvents(tx, 200);
        for (const ev of events) {
          for (const e of endpoints)
            if (matchesFilter(e.events, ev.type))
              await repo.insertDelivery(tx, e.id, ev.eventId, ev.type, new Date(this.now()));
        }
        await repo.markFannedOut(
          tx,
          events.map((e) => e.eventId),
        );
        return events.length;
      });
      if (n < 200) return;
    }
  }

  private async attempt(d: repo.DeliveryRow): Promise<void> {
    const at = new Date(this.now());
    const e = await repo.findEndpoint(this.p.db, d.endpointId);
    const payload = await repo.eventPayload(this.p.db, d.eventId);
    if (!e || !e.enabled || payload === undefined) {
      await repo.recordAttempt(this.p.db, {
        id: d.id,
        status: 'failed',
        attempts: d.attempts,
        next: null,
        responseStatus: null,
        durationMs: 0,
        error: 'endpoint disabled',
        at,
      });
      return;
    }
    const secrets = [this.box.reveal(e.secretEnc)];
    if (e.previousSecretEnc && e.previousSecretUntil && toDate(e.previousSecretUntil).getTime() > at.getTime())
      secrets.push(this.box.reveal(e.previousSecretEnc));
    const signature = secrets.map((s) => new Webhook(s).sign(d.eventId, at, payload)).join(' ');
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Rova-Webhooks/1',
      'webhook-id': d.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const started = Date.now();
    const r = await post(e.url, headers, payload, await this.allowPrivate());
    const durationMs = Date.now() - started;
    const attempts = d.attempts + 1;
    if (r.status !== null && r.status >= 200 && r.status < 300) {
      await repo.recordAttempt(this.p.db, {
        id: d.id,
        status: 'delivered',
        attempts,
        next: null,
        responseStatus: r.status,
        durationMs,
        error: null,
        at,
      });
      return;
    }
    if (r.status === GONE) {
      // 410 Gone: the receiver asks us to stop (Standard Webhooks)
      await repo.recordAttempt(this.p.db, {
        id: d.id,
        status: 'failed',
        attempts,
        next: null,
        responseStatus: 410,
        durationMs,
        error: 'endpoint answered 410 Gone: disabled',
        at,
      });
      await repo.disableEndpoint(this.p.db, e.id, 'the endpoint answered 410 Gone');
      return;
    }
    const delay = RETRY_SCHEDULE_S[attempts - 1];
    const next =
      delay === undefined
        ? null
        : new Date(at.getTime() + Math.round(delay * 1000 * (1 - JITTER + 2 * JITTER * this.random())));
    await repo.recordAttempt(this.p.db, {
      id: d.id,
      status: next ? 'pending' : 'failed',
      attempts,
      next,
      responseStatus: r.status,
      durationMs,
      error: r.error,
      at,
    });
  }

  /** Starts the delivery loop: every node polls, the lease lets one deliver at a time. */
  start(): void {
    if (!this.p.config.jobs || this.timer) return;
    const tick = async () => {
      try {
        if (await this.p.jobs.acquireLease('webhooks-delivery', 30_000)) await this.runOnce();
      } catch (err) {
        this.p.log.error({ err }, 'webhook delivery pass failed');
      }
    };
    this.timer = setInterval(() => void tick(), POLL_MS).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<{ status: number | null; error: string | null }> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    // IP literals skip DNS (and so the guarded lookup): check them here
    if (!allowPrivate && isIP(host) && isPrivateAddress(host))
      return resolve({ status: null, error: `${host} is a private address` });
    const lib = u.protocol === 'https:' ? https : http;
    const req = lib.request(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: TIMEOUT_MS,
        lookup: guardedLookup(allowPrivate) as never,
      },
      (res) => {
        res.resume(); // the body is not needed; redirects are not followed (a 3xx is a failed attempt)
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? null,
            error: res.statusCode && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`,
          }),
        );
        res.on('error', (err) => resolve({ status: res.statusCode ?? null, error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => resolve({ status: null, error: err.message.slice(0, 300) }));
    req.end(body);
  });
}

export const webhooksOf: (p: Platform) => Webhooks = perPlatform((p) => new Webhooks(p));
