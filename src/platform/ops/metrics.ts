import { timingSafeEqual, createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { cachesOf } from '../cache-sizes.js';
import type { Platform } from '../context.js';
import type { DbHandle } from '../db/connect.js';
import type { JobRunObserver } from '../jobs.js';
import type { Limits } from '../limits/limiter.js';
import type { BusLink } from '../kv/bus.js';
import type { RedisHealth } from '../kv/redis-state.js';
import { RovaErrors } from '../errors.js';

/** The app's Prometheus registry (one per app, so tests and several apps in one process do not mix counts). */
export interface Metrics {
  registry: Registry;
  /** Counts limiter decisions per bucket (wraps the platform's Limits). */
  countLimits(limits: Limits): Limits;
  jobObserver: JobRunObserver;
}

/** What the Redis and bus gauges read (the app's RedisState and the bus's heartbeat link). */
export interface SharedDependencies {
  redis: { health(): RedisHealth };
  bus: BusLink;
}

export function createMetrics(dbHandle: DbHandle, shared?: SharedDependencies): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'rova_' });
  const limiterHits = new Counter({
    name: 'rova_rate_limit_hits_total',
    help: 'Rate-limiter decisions by bucket and outcome (allowed, limited)',
    labelNames: ['bucket', 'outcome'] as const,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'rova_job_runs_total',
    help: 'Scheduled job runs by job and outcome (success, failure)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'rova_job_duration_seconds',
    help: 'Scheduled job run time',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  new Gauge({
    name: 'rova_db_pool_connections',
    help: 'Database connections by state (PostgreSQL pool: total, idle, waiting clients; embedded PGlite: one connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (dbHandle.kind === 'postgres') {
        const pool = dbHandle.raw as pg.Pool;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      } else {
        this.set({ state: 'total' }, 1);
        this.set({ state: 'idle' }, 0);
        this.set({ state: 'waiting' }, 0);
      }
    },
  });
  if (shared) {
    // Redis is not part of readiness (every node shares it): these say when it is away or the bus is late
    new Gauge({
      name: 'rova_redis_up',
      help: '1 while the Redis connections are ready, 0 while Redis is away (-1: REDIS_URL not set)',
      registers: [registry],
      collect() {
        const h = shared.redis.health();
        this.set(h.configured ? (h.up ? 1 : 0) : -1);
      },
    });
    new Gauge({
      name: 'rova_bus_flowing',
      help: "1 while every node's bus heartbeat (this one's through Redis included) arrived within 250 ms: announcements flow and the holding index answers from memory; 0: answers come from the database",
      registers: [registry],
      collect() {
        this.set(shared.bus.state().flowing ? 1 : 0);
      },
    });
    new Gauge({
      name: 'rova_bus_heartbeat_age_seconds',
      help: 'Age of the oldest last heartbeat among the nodes heard on the bus (-1 before this node heard its own)',
      registers: [registry],
      collect() {
        const ms = shared.bus.state().oldestHeartbeatMs;
        this.set(ms < 0 ? -1 : ms / 1000);
      },
    });
  }
  return {
    registry,
    countLimits: (limits) => ({
      ...limits,
      async hit(bucket, key, limit, windowSeconds) {
        const r = await limits.hit(bucket, key, limit, windowSeconds);
        limiterHits.inc({ bucket, outcome: r.allowed ? 'allowed' : 'limited' });
        return r;
      },
      reset: (bucket, key, windowSeconds) => limits.reset(bucket, key, windowSeconds),
      giveBack: (bucket, key, windowSeconds) => limits.giveBack(bucket, key, windowSeconds),
    }),
    jobObserver: (job, outcome, seconds) => {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job }, seconds);
    },
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Request rate and latency per route pattern, method and status (`rova_http_request_duration_seconds`, whose
 * `_count` is the request counter), and GET /metrics: METRICS=public → anyone, METRICS=token → only
 * `Authorization: Bearer METRICS_TOKEN` (compared in constant time), otherwise the route does not exist.
 */
export function installMetrics(app: FastifyInstance, platform: Platform, metrics: Metrics): void {
  const { config } = platform;
  const caches = cachesOf(platform);
  const read = () => [...caches].map(([cache, size]) => ({ cache, ...size() }));
  new Gauge({
    name: 'rova_cache_entries',
    help: 'Entries each in-memory cache of this node holds (answers, windows, quotes, accounts; the holding index: holding bookings)',
    labelNames: ['cache'] as const,
    registers: [metrics.registry],
    collect() {
      for (const c of read()) this.set({ cache: c.cache }, c.entries);
    },
  });
  new Gauge({
    name: 'rova_cache_bytes',
    help: 'Estimated bytes each in-memory cache of this node holds',
    labelNames: ['cache'] as const,
    registers: [metrics.registry],
    collect() {
      for (const c of read()) this.set({ cache: c.cache }, c.bytes);
    },
  });
  new Gauge({
    name: 'rova_cache_limit',
    help: 'The bound each cache keeps under, of entries or of bytes (+Inf: the holding index mirrors every holding booking ahead)',
    labelNames: ['cache', 'of'] as const,
    registers: [metrics.registry],
    collect() {
      for (const c of read()) {
        this.set({ cache: c.cache, of: 'entries' }, c.maxEntries);
        this.set({ cache: c.cache, of: 'bytes' }, c.maxBytes);
      }
    },
  });
  const duration = new Histogram({
    name: 'rova_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // Route patterns, never raw URLs: ids and query strings would explode the label set (and may hold secrets).
    const route = req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched');
    if (route === '/metrics') return;
    duration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  const wanted = config.metrics.token ? sha256(`Bearer ${config.metrics.token}`) : null;
  app.get(
    '/metrics',
    {
      config: { auth: 'public' },
      logLevel: 'warn',
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (METRICS=public, or METRICS=token with Authorization: Bearer METRICS_TOKEN)',
        security: config.metrics.mode === 'token' ? [{ bearer: [] }] : [],
        produces: ['text/plain'],
        response: {
          200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }),
          401: Type.Object({
            code: Type.String(),
            message: Type.String(),
            data: Type.Object({ status: Type.Number() }),
          }),
        },
      },
    },
    async (req, reply) => {
      if (wanted) {
        const given = sha256(req.headers.authorization ?? '');
        if (!timingSafeEqual(given, wanted)) {
          throw RovaErrors.metricsUnauthorized('Send Authorization: Bearer <METRICS_TOKEN>.', undefined, {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          });
        }
      }
      const text = await metrics.registry.metrics();
      return reply.header('Content-Type', metrics.registry.contentType).header('Cache-Control', 'no-store').send(text);
    },
  );
}
