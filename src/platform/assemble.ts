import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AuthFailureAudit } from './audit/auth-failures.js';
import { appendAudit } from './audit/log.js';
import { AuditWriter } from './audit/writer.js';
import { createRedisReplayCache } from './auth/replay-cache.js';
import { AuthService } from './auth/service.js';
import type { Platform } from './context.js';
import { announceWritesOf, transactionAnnounced } from './db/announce.js';
import type { DbHandle } from './db/connect.js';
import type { Db } from './db/types.js';
import { Filters } from './hooks.js';
import { NamespaceRegistry } from './http/namespaces.js';
import { JobRunner } from './jobs.js';
import { closeRedis, type RedisLink } from './kv/connect.js';
import { createOptions } from './kv/options.js';
import { createDbTransients, createRedisTransients } from './kv/transients.js';
import { createLimits } from './limits/limiter.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { openStorage } from './storage/index.js';
import { StoreCurrency } from './store-currency.js';

/** The platform and the parts of it only the app's wiring holds (the HTTP pipeline and the close need them). */
export interface AssembledPlatform {
  platform: Platform;
  /** null when METRICS is off. */
  metrics: Metrics | null;
  auditWriter: AuditWriter;
  /** Collapsed authentication-failure audit entries, flushed on a timer and on close. */
  authFailures: AuthFailureAudit;
  redisLink: RedisLink;
}

/**
 * Builds the Platform every module receives from the connected database and Redis, on the app's logger, and hangs
 * it on the app (`app.platform`). Starts the authentication-failure collapser's flush timer.
 */
export function assemblePlatform(
  app: FastifyInstance,
  config: Config,
  dbHandle: DbHandle,
  storeCurrency: string,
  redisLink: RedisLink,
): AssembledPlatform {
  const { redis, redisState, bus } = redisLink;
  redisState.log = app.log;
  const db: Db = dbHandle.db;
  const metrics = config.metrics.mode === 'off' ? null : createMetrics(dbHandle, { redis: redisState, bus: bus.link });
  const rawLimits = createLimits(redis, config.redisPrefix);
  const limits = metrics ? metrics.countLimits(rawLimits) : rawLimits;
  const jobs = new JobRunner(db, app.log, config.jobTickMs);
  if (metrics) jobs.observe(metrics.jobObserver);
  // committed changes other nodes keep in memory (e.g. the holding index) go out on the bus
  const announce = (topic: string, keys: readonly string[]) => {
    bus.publish(topic, keys.join(',')).catch((err: unknown) => app.log.error({ err, topic }, 'bus publish failed'));
  };
  announceWritesOf(db, announce);
  const platform: Platform = {
    config,
    storeCurrency: new StoreCurrency(db, bus, storeCurrency, (err) =>
      app.log.error({ err }, 'store currency reload failed'),
    ),
    db,
    dbHandle,
    options: createOptions(db, bus),
    transients: redis ? createRedisTransients(redis, config.redisPrefix) : createDbTransients(db),
    limits,
    bus,
    filters: new Filters(),
    jobs,
    namespaces: new NamespaceRegistry(config.restRoot),
    auth: new AuthService(db, config.secret, limits),
    redis,
    redisState,
    log: app.log,
    storage: openStorage(config.storageUrl, db),
    lifecycle: { draining: false },
    transaction: (fn) => transactionAnnounced(db, announce, fn),
  };
  platform.auth.useKeyCache(bus, config.authCacheSeconds * 1000);
  if (redis) platform.auth.woo.useReplayCache(createRedisReplayCache(redis, config.redisPrefix));
  app.decorate('platform', platform);
  const auditWriter = new AuditWriter(db);
  const authFailures = new AuthFailureAudit(
    (e) => appendAudit(db, e),
    (err) => app.log.error({ err }, 'audit log write failed'),
  );
  authFailures.start();
  return { platform, metrics, auditWriter, authFailures, redisLink };
}

/**
 * Closes what assemblePlatform started, after the modules stopped: the pending audit rows, the jobs, storage, Redis
 * and the bus, then the database unless the caller keeps it.
 */
export async function closePlatform(parts: AssembledPlatform, closeDb: boolean): Promise<void> {
  const { platform, authFailures } = parts;
  authFailures.stop();
  await authFailures.flush().catch((err: unknown) => platform.log.error({ err }, 'audit log write failed'));
  await platform.jobs.stop();
  await platform.storage.close();
  await closeRedis(parts.redisLink);
  if (closeDb) await platform.dbHandle.close();
}
