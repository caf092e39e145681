import { openStorage } from './platform/storage/index.js';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify, { LogController } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import { envInt, isTimeZone, type Config } from './config.js';
import { sql } from 'drizzle-orm';
import { modules as defaultModules } from './modules/index.js';
import type { BuiltApp, RovaModule } from './modules/types.js';
import { AuthFailureAudit } from './platform/audit/auth-failures.js';
import { appendAudit, type AuditEntry } from './platform/audit/log.js';
import { AuditWriter } from './platform/audit/writer.js';
import { announceWritesOf, transactionAnnounced } from './platform/db/announce.js';
import { scheduleAuditRetention } from './platform/audit/retention.js';
import { scheduleBackups } from './platform/backup/job.js';
import { enforcePolicy, policyOf } from './platform/auth/guard.js';
import { createRedisReplayCache } from './platform/auth/replay-cache.js';
import { AuthService } from './platform/auth/service.js';
import { ANONYMOUS } from './platform/auth/types.js';
import type { Platform } from './platform/context.js';
import { connectDatabase, type ConnectOptions, type DbHandle } from './platform/db/connect.js';
import { migrate } from './platform/db/migrate.js';
import { isDatabaseUnavailable } from './platform/db/outage.js';
import { one, type Db } from './platform/db/types.js';
import { Filters } from './platform/hooks.js';
import { clientAddress } from './platform/http/client-ip.js';
import { installErrorHandling } from './platform/http/error-handler.js';
import { protectHtmlPages } from './platform/http/html-security.js';
import { useJsonBodies } from './platform/http/json-body.js';
import { finiteNumbers } from './platform/http/finite-numbers.js';
import { refuseNulCharacters } from './platform/http/nul-guard.js';
import { enforceNonceRule, MethodRules } from './platform/http/method-rules.js';
import { NamespaceRegistry } from './platform/http/namespaces.js';
import { acceptNonceInBody } from './platform/http/nonce-body.js';
import { swaggerOptions } from './platform/http/openapi/document.js';
import { swaggerUiOptions } from './platform/http/openapi/ui.js';
import { registerRestIndex, RouteCatalogue } from './platform/http/rest-index.js';
import { JobRunner } from './platform/jobs.js';
import { createMemoryBus, createRedisBus, type InvalidationBus } from './platform/kv/bus.js';
import { dbPresence } from './platform/kv/presence.js';
import { createOptions } from './platform/kv/options.js';
import { RedisState, resilientRedisOptions } from './platform/kv/redis-state.js';
import { createDbTransients, createRedisTransients } from './platform/kv/transients.js';
import { createLimits } from './platform/limits/limiter.js';
import { sharedCompilers } from './platform/http/compilers.js';
import { logEachRequest, loggerOptions, type LogDestination } from './platform/http/logging.js';
import { createMetrics, installMetrics } from './platform/ops/metrics.js';
import { registerProbes } from './platform/ops/probes.js';
import { registerLandingPage } from './platform/routes/landing.js';
import { registerAdminApp } from './platform/routes/admin-app.js';
import { enforceQuota } from './platform/limits/quotas.js';
import { securitySettings } from './platform/security-settings.js';
import { establishStoreCurrency, StoreCurrency } from './platform/store-currency.js';
import './platform/fastify-augment.js';

export interface BuildOptions {
  modules?: RovaModule[];
  /** Use an existing database handle (tests share setup); it is closed with the app unless keepDb. */
  dbHandle?: DbHandle;
  connect?: ConnectOptions;
  keepDb?: boolean;
  /** Skip migrations (the handle is known to be migrated). */
  skipMigrate?: boolean;
  logger?: boolean;
  /** Where log lines go: stdout for the server; stderr for CLI commands, whose stdout is their output (a key, a file). */
  logTo?: LogDestination;
  /**
   * false: the platform and the modules' start only, no routes (CLI commands). Compiling every route's schemas is
   * most of a command's own time, and a command never answers a request.
   */
  http?: boolean;
  /** false: the modules' `start` does not run (CLI commands that need only the platform: users, keys, migrations). */
  startModules?: boolean;
}

export type { BuiltApp };

/** Hop count → proxy-addr function (trust that many proxies nearest to us); lists pass through. */
function trustProxyOption(v: Config['trustProxy']): boolean | string[] | ((addr: string, hop: number) => boolean) {
  if (typeof v === 'number') return (_addr, hop) => hop < v;
  return v;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * STORE_TIMEZONE when set; otherwise the store's stored zone (option store_timezone, which `rova import wordpress`
 * takes from the WordPress site), else UTC.
 */
async function withStoredTimezone(config: Config, db: Db): Promise<Config> {
  if (config.env.STORE_TIMEZONE?.trim()) return config;
  const r = await one<{ value: unknown }>(db, sql`SELECT value FROM rova_options WHERE name = 'store_timezone'`);
  return typeof r?.value === 'string' && isTimeZone(r.value) && r.value !== config.storeTimezone
    ? { ...config, storeTimezone: r.value }
    : config;
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const modules = opts.modules ?? defaultModules;
  // Module settings are checked before anything connects: a bad RENTAL_* or FX_* value stops the start.
  for (const m of modules) m.checkConfig?.(config);
  const dbHandle = opts.dbHandle ?? (await connectDatabase(config, opts.connect));
  const migration = opts.skipMigrate ? { applied: [], wasEmpty: false } : await migrate(dbHandle);
  config = await withStoredTimezone(config, dbHandle.db);
  let storeCurrency: string;
  try {
    storeCurrency = await establishStoreCurrency(dbHandle.db, config);
  } catch (err) {
    if (!opts.keepDb) await dbHandle.close();
    throw err;
  }

  let redis: Redis | null = null;
  let redisSub: Redis | null = null;
  let bus: InvalidationBus;
  let redisState = RedisState.none();
  if (config.redisUrl) {
    const ro = resilientRedisOptions(envInt(config, 'REDIS_COMMAND_TIMEOUT_MS', 500, 10));
    redis = new Redis(config.redisUrl, ro);
    redisSub = new Redis(config.redisUrl, ro);
    redisState = new RedisState([redis, redisSub]);
    try {
      await redis.connect();
      await redisSub.connect();
    } catch (err) {
      redis.disconnect();
      redisSub.disconnect();
      if (!opts.keepDb) await dbHandle.close();
      throw new Error(`cannot connect to Redis at REDIS_URL: ${err instanceof Error ? err.message : String(err)}`);
    }
    bus = await createRedisBus(redis, redisSub, config.redisPrefix, redisState, dbPresence(dbHandle.db));
  } else {
    bus = createMemoryBus();
  }

  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config, opts.logTo),
    // one line per request instead of Fastify's two (logEachRequest)
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{8,100}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // finiteNumbers: coerced "1e309" / "Infinity" (and JSON 1e309) are a 400 on every route, decided once here.
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false },
      plugins: [finiteNumbers],
    },
    schemaController: { compilersFactory: sharedCompilers },
  });

  redisState.log = app.log;
  const db: Db = dbHandle.db;
  const metrics = config.metrics.mode === 'off' ? null : createMetrics(dbHandle, { redis: redisState, bus: bus.link });
  const rawLimits = createLimits(redis, config.redisPrefix);
  const limits = metrics ? metrics.countLimits(rawLimits) : rawLimits;
  const namespaces = new NamespaceRegistry(config.restRoot);
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
    namespaces,
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
  app.addHook('onClose', async () => {
    for (const m of modules) m.stop?.(platform);
    authFailures.stop();
    await authFailures.flush().catch((err: unknown) => app.log.error({ err }, 'audit log write failed'));
    await jobs.stop();
    await platform.storage.close();
    redisState.close();
    await bus.close();
    redis?.disconnect();
    redisSub?.disconnect();
    if (!opts.keepDb) await dbHandle.close();
  });

  try {
    await configure();
    await app.ready();
  } catch (err) {
    // A module that fails to start must not leave the database or Redis connections open.
    await app.close().catch(() => undefined);
    throw err;
  }
  return { app, platform, migration, authFailures };

  async function configure(): Promise<void> {
    namespaces.register({ name: 'rova/v1', shape: 'wp' });
    for (const m of modules) for (const ns of m.namespaces ?? []) namespaces.register(ns);
    if (opts.http !== false) await configureHttp();
    if (opts.startModules !== false) for (const m of modules) await m.start?.(platform);
    if (config.jobs) {
      scheduleAuditRetention(platform);
      scheduleBackups(platform);
    }
    for (const file of config.extensions) await loadExtension(file, platform);
    if (config.bootstrapAdminKey) await platform.auth.ensureBootstrapAdmin(config.bootstrapAdminKey);
  }

  async function configureHttp(): Promise<void> {
    useJsonBodies(app);
    await app.register(cookie);
    if (config.corsOrigins.length > 0) {
      // Storefronts on another origin call /convert and the public rental reads with keys or none; cookies
      // never cross origins (credentials off), so CORS cannot be used to ride an admin session.
      const any = config.corsOrigins.includes('*');
      await app.register(cors, {
        origin: any ? '*' : config.corsOrigins,
        credentials: false,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Content-Type', 'X-Rova-API-Key', 'Authorization', 'X-Request-Id', 'Idempotency-Key'],
        exposedHeaders: [
          'X-Request-Id',
          'X-WP-Total',
          'X-WP-TotalPages',
          'Link',
          'Retry-After',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'RateLimit',
          'RateLimit-Policy',
          'Allow',
          'Content-Disposition',
          'X-Rova-Export-Id',
        ],
        maxAge: 600,
      });
    }
    installErrorHandling(app, namespaces);
    protectHtmlPages(app);
    logEachRequest(app);
    if (metrics) installMetrics(app, config, metrics);
    new MethodRules(namespaces, config.restRoot, securitySettings(config).strictMethods).install(app);

    const catalogue = new RouteCatalogue(config.restRoot);
    app.addHook('onRoute', (r) => catalogue.add(r));
    app.addHook('onRoute', acceptNonceInBody(config.restRoot));

    app.decorateRequest('auth', null as unknown as typeof ANONYMOUS);
    // one synchronous hook for both (every request passes here: no promise, no extra hook step)
    app.addHook('onRequest', (req, reply, done) => {
      req.auth = ANONYMOUS;
      reply.header('X-Request-Id', req.id);
      done();
    });
    // Body is parsed by now, so a `_wpnonce` body parameter counts; validation runs after the permission check.
    app.addHook('preValidation', async (req, reply) => {
      req.auth = await platform.auth.resolve(req);
      enforceNonceRule(req, namespaces.forUrl(req.url));
      enforcePolicy(req, req.auth, policyOf(req, config.restRoot));
      await enforceQuota(req, reply);
    });
    app.addHook('preValidation', refuseNulCharacters);
    // Written before the response leaves (onSend), so a caller that reads the log next sees its own write.
    app.addHook('onSend', async (req, reply, payload) => {
      // Requests answered before the auth hook ran (CORS preflight) count as anonymous.
      const auth = req.auth ?? ANONYMOUS;
      const status = reply.statusCode;
      const isWrite = WRITE_METHODS.has(req.method) && req.routeOptions.config?.readOnly !== true;
      // the admin app's session probe asks whether its cookie still holds a session: a question, never an event
      if (req.routeOptions.config?.sessionProbe === true) return payload;
      // A read is an event when refused, or when the credentials it carried failed (someone trying keys or tokens).
      // A session cookie without its nonce is not such a failure: browsers send the cookie with every request.
      const failedCredentials = auth.failure !== null && auth.failure !== 'missing_nonce';
      if (!isWrite && status !== 401 && status !== 403 && !failedCredentials) return payload;
      if (!req.url.startsWith(config.restRoot + '/') && !isWrite) return payload;
      const params = req.params as Record<string, unknown> | undefined;
      const target =
        req.auditTarget ?? (params && (params.id ?? params.vid) !== undefined ? String(params.id ?? params.vid) : null);
      // Authentication failures go through the collapser (counted per address and minute beyond the first few);
      // a failure the route described itself (e.g. a refresh-token reuse that revoked a session) is an incident,
      // always written in full.
      const authFailure =
        status >= 400 && (status === 401 || status === 403 || auth.failure !== null) && !req.auditDetails;
      const write = authFailure ? (e: AuditEntry) => authFailures.record(e) : (e: AuditEntry) => auditWriter.append(e);
      try {
        await write({
          requestId: String(req.id),
          actorUserId: auth.user?.id ?? null,
          actorLogin: auth.user?.login ?? null,
          authMethod: auth.method,
          apiKeyId: auth.apiKeyId,
          ip: clientAddress(req),
          method: req.method,
          route: req.routeOptions.url ?? req.url.split('?')[0] ?? '',
          path: (req.url.split('?')[0] ?? '').slice(0, 500),
          target,
          status,
          outcome: status === 401 || status === 403 ? 'denied' : status < 400 ? 'success' : 'failure',
          details:
            auth.failure || req.auditDetails
              ? { ...(req.auditDetails ?? {}), ...(auth.failure ? { auth_failure: auth.failure } : {}) }
              : null,
        });
      } catch (err) {
        if (isDatabaseUnavailable(err))
          req.log.warn(
            { method: req.method, route: req.routeOptions.url, status },
            'audit row not written: database unavailable',
          );
        else req.log.error({ err }, 'audit log write failed');
      }
      return payload;
    });

    await app.register(swagger, swaggerOptions({ restRoot: config.restRoot, namespaces }));
    await app.register(swaggerUi, swaggerUiOptions());
    app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());
    registerLandingPage(app);
    registerAdminApp(app);

    for (const m of modules) {
      if (m.routes) await app.register(m.routes, { prefix: config.restRoot });
      if (m.rootRoutes) await app.register(m.rootRoutes);
    }
    registerRestIndex(app, catalogue, namespaces);
    registerProbes(app, platform);
  }
}

/** ROVA_EXTENSIONS: an ES module whose default (or `register`) export receives the platform, e.g. to add filters. */
async function loadExtension(file: string, platform: Platform): Promise<void> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown; register?: unknown };
  const fn = typeof mod.default === 'function' ? mod.default : mod.register;
  if (typeof fn !== 'function')
    throw new Error(`ROVA_EXTENSIONS: ${file} must export a default function (platform) => void`);
  await (fn as (p: Platform) => unknown)(platform);
  platform.log.info({ file }, 'extension loaded');
}

/** Runs every module's demo seed in order and records when it ran. */
export async function seedDemo(platform: Platform, modules: RovaModule[] = defaultModules): Promise<void> {
  for (const m of modules) {
    if (m.seedDemo) {
      platform.log.info({ module: m.name }, 'seeding demo data');
      await m.seedDemo(platform);
    }
  }
  await platform.options.set('demo_seeded_at', new Date().toISOString());
}
