import type { ObjectStorage } from './storage/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { AuthService } from './auth/service.js';
import type { DbHandle } from './db/connect.js';
import type { Db } from './db/types.js';
import type { Filters } from './hooks.js';
import type { NamespaceRegistry } from './http/namespaces.js';
import type { JobRunner } from './jobs.js';
import type { InvalidationBus } from './kv/bus.js';
import type { Options } from './kv/options.js';
import type { RedisState } from './kv/redis-state.js';
import type { Transients } from './kv/transients.js';
import type { Limits } from './limits/limiter.js';
import type { StoreCurrency } from './store-currency.js';

/** Everything a module gets from the platform. One instance per running app. */
export interface Platform {
  config: Config;
  /** The store's currency, the database's fact kept in memory (never STORE_CURRENCY: see store-currency.ts). */
  storeCurrency: StoreCurrency;
  db: Db;
  dbHandle: DbHandle;
  options: Options;
  transients: Transients;
  limits: Limits;
  bus: InvalidationBus;
  filters: Filters;
  jobs: JobRunner;
  namespaces: NamespaceRegistry;
  auth: AuthService;
  redis: Redis | null;
  /** Up/down state of Redis (health, readiness); `configured: false` without REDIS_URL. */
  redisState: RedisState;
  log: FastifyBaseLogger;
  /** Files every node can read (vendor documents, statements): STORAGE_URL, the database by default. */
  storage: ObjectStorage;
  /** Set on SIGTERM: /readyz fails and responses close their connection, so the load balancer moves traffic away. */
  lifecycle: { draining: boolean };
  /** Runs fn in one database transaction (multi-row writes must be atomic). */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
}
