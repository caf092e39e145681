import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { defaultWritesPerMinute } from './settings.js';
import type { Platform } from '../context.js';
import { HttpErrors } from '../http/errors.js';
import { RovaErrors } from '../errors.js';
import { perPlatform } from '../per-platform.js';
import * as repo from './plans-repo.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Weight of one request to this route in a key's quota (default 1); a plan's route_costs override it. */
    quotaCost?: number;
  }
}

export interface QuotaPlan {
  name: string;
  requestsPerMinute: number;
  requestsPerDay: number | null;
  /** `"METHOD /namespace/path/{param}"` → weight of one request. */
  routeCosts: Record<string, number>;
  /** The default plan counts only writes in namespaces that ask for it (`writeQuota`); plans count every request. */
  writesOnly: boolean;
}

export interface QuotaWindow {
  policy: 'minute' | 'day';
  limit: number;
  used: number;
  remaining: number;
  reset_seconds: number;
}

const WINDOWS = { minute: 60, day: 86_400 } as const;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const TOPIC = 'quota:plans';
const HUGE = Number.MAX_SAFE_INTEGER;

/**
 * Per-API-key quotas: requests per minute and per day, each request weighted by its route's cost. Counted in
 * Redis when there is one (atomic, so every node sees the same numbers), in memory on a single node.
 */
export class Quotas {
  private readonly limiters: Record<'minute' | 'day', RateLimiterAbstract>;
  private readonly cache = new Map<number, QuotaPlan | null>();

  constructor(private readonly p: Platform) {
    const make = (w: 'minute' | 'day') => {
      const opts = { keyPrefix: `${p.config.redisPrefix}quota:${w}`, points: HUGE, duration: WINDOWS[w] };
      // Like the platform limiter: while Redis is away, each node counts on its own instead of failing requests.
      return p.redis
        ? new RateLimiterRedis({
            ...opts,
            storeClient: p.redis,
            useRedisPackage: false,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(opts),
          })
        : new RateLimiterMemory(opts);
    };
    this.limiters = { minute: make('minute'), day: make('day') };
    p.bus.subscribe(TOPIC, (id) => {
      if (id === '*') this.cache.clear();
      else this.cache.delete(Number(id));
    });
  }

  /** The existing per-key write limit (RENTAL_WRITE_RATE_LIMIT, default 60/min) is the default plan. */
  defaultPlan(): QuotaPlan {
    return {
      name: 'default',
      requestsPerMinute: defaultWritesPerMinute(this.p.config),
      requestsPerDay: null,
      routeCosts: {},
      writesOnly: true,
    };
  }

  async planOf(apiKeyId: number): Promise<QuotaPlan> {
    if (!this.cache.has(apiKeyId)) {
      const r = await repo.findPlan(this.p.db, apiKeyId);
      this.cache.set(apiKeyId, r ? { ...r, writesOnly: false } : null);
    }
    return this.cache.get(apiKeyId) ?? this.defaultPlan();
  }

  async setPlan(apiKeyId: number, plan: repo.PlanRow): Promise<QuotaPlan> {
    if (!(await repo.apiKeyExists(this.p.db, apiKeyId)))
      throw RovaErrors.apiKeyNotFound(`API key ${apiKeyId} not found`);
    await repo.upsertPlan(this.p.db, apiKeyId, plan);
    await this.changed(apiKeyId);
    return this.planOf(apiKeyId);
  }

  async clearPlan(apiKeyId: number): Promise<QuotaPlan> {
    if (!(await repo.apiKeyExists(this.p.db, apiKeyId)))
      throw RovaErrors.apiKeyNotFound(`API key ${apiKeyId} not found`);
    await repo.deletePlan(this.p.db, apiKeyId);
    await this.changed(apiKeyId);
    return this.defaultPlan();
  }

  private async changed(apiKeyId: number): Promise<void> {
    this.cache.delete(apiKeyId);
    await this.p.bus.publish(TOPIC, String(apiKeyId));
  }

  private windowsOf(plan: QuotaPlan): ('minute' | 'day')[] {
    return plan.requestsPerDay === null ? ['minute'] : ['minute', 'day'];
  }

  private limitOf(plan: QuotaPlan, w: 'minute' | 'day'): number {
    return w === 'minute' ? plan.requestsPerMinute : (plan.requestsPerDay ?? HUGE);
  }

  /** Counts `cost` against every window of the plan; a refused request is given back (429s burn nothing). */
  async consume(
    apiKeyId: number,
    plan: QuotaPlan,
    cost: number,
  ): Promise<{ allowed: boolean; windows: QuotaWindow[] }> {
    const key = String(apiKeyId);
    const windows: QuotaWindow[] = [];
    for (const w of this.windowsOf(plan)) {
      let res: RateLimiterRes;
      try {
        res = await this.limiters[w].consume(key, cost);
      } catch (err) {
        if (err instanceof RateLimiterRes) res = err;
        else throw err;
      }
      windows.push(view(w, this.limitOf(plan, w), res));
    }
    const allowed = windows.every((w) => w.used <= w.limit);
    if (!allowed) {
      for (const w of this.windowsOf(plan)) await this.limiters[w].reward(key, cost);
      for (const w of windows) w.used = Math.max(0, w.used - cost);
    }
    for (const w of windows) w.remaining = Math.max(0, w.limit - w.used);
    return { allowed, windows };
  }

  /** Current counts without counting anything. */
  async usage(apiKeyId: number, plan: QuotaPlan): Promise<QuotaWindow[]> {
    const out: QuotaWindow[] = [];
    for (const w of this.windowsOf(plan))
      out.push(view(w, this.limitOf(plan, w), await this.limiters[w].get(String(apiKeyId))));
    return out;
  }

  /** Reset a key's counters (tests, support). */
  async reset(apiKeyId: number): Promise<void> {
    for (const l of Object.values(this.limiters)) await l.delete(String(apiKeyId));
  }
}

function view(policy: 'minute' | 'day', limit: number, res: RateLimiterRes | null): QuotaWindow {
  const used = res?.consumedPoints ?? 0;
  const reset = res ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : WINDOWS[policy];
  return { policy, limit, used, remaining: Math.max(0, limit - used), reset_seconds: reset };
}

export const quotasOf: (p: Platform) => Quotas = perPlatform((p) => new Quotas(p));

/** The cost of this request under the plan. */
export function routeCost(req: FastifyRequest, plan: QuotaPlan, restRoot: string): number {
  const url = req.routeOptions.url ?? '';
  const rel = (url.startsWith(restRoot) ? url.slice(restRoot.length) : url).replace(/:([A-Za-z_]+)/g, '{$1}');
  return plan.routeCosts[`${req.method} ${rel}`] ?? req.routeOptions.config?.quotaCost ?? 1;
}

/** IETF draft fields (RateLimit-Policy, RateLimit) plus the X-RateLimit-* trio the rental spec names. */
export function quotaHeaders(windows: QuotaWindow[]): Record<string, string> {
  const policy = windows.map((w) => `"${w.policy}";q=${w.limit};w=${WINDOWS[w.policy]}`).join(', ');
  // RateLimit names the window closest to running out
  const tight = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  const h: Record<string, string> = {
    'RateLimit-Policy': policy,
    RateLimit: `"${tight.policy}";r=${tight.remaining};t=${tight.reset_seconds}`,
    'X-RateLimit-Limit': String(tight.limit),
    'X-RateLimit-Remaining': String(tight.remaining),
    'X-RateLimit-Reset': String(tight.reset_seconds),
  };
  return h;
}

/**
 * Runs after authentication and the route's permission check: an API-key request is counted against its
 * key's plan (the default plan counts writes only, in namespaces with `writeQuota`) and every answer to a
 * key carries the quota headers; over the quota → 429 with Retry-After in the namespace's error shape.
 */
export async function enforceQuota(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const keyId = req.auth.apiKeyId;
  if (keyId === null || keyId === undefined) return;
  const p = req.server.platform;
  if (!req.url.startsWith(p.config.restRoot + '/')) return;
  const quotas = quotasOf(p);
  const plan = await quotas.planOf(keyId);
  let counted = !plan.writesOnly;
  if (plan.writesOnly) {
    const ns = p.namespaces.forUrl(req.url);
    counted = ns?.writeQuota === true && WRITES.has(req.method) && req.routeOptions.config?.readOnly !== true;
  }
  if (!counted) {
    reply.headers(quotaHeaders(await quotas.usage(keyId, plan)));
    return;
  }
  const cost = routeCost(req, plan, p.config.restRoot);
  const r = await quotas.consume(keyId, plan, cost);
  const headers = quotaHeaders(r.windows);
  if (!r.allowed) {
    const over = r.windows.filter((w) => w.used + cost > w.limit);
    const retry = Math.max(...(over.length ? over : r.windows).map((w) => w.reset_seconds));
    throw HttpErrors.tooManyRequests(`Quota of this API key exceeded. Try again in ${retry} s.`, undefined, {
      ...headers,
      'Retry-After': String(retry),
    });
  }
  reply.headers(headers);
}
