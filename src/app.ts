import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { modules as defaultModules } from './modules/index.js';
import type { BuiltApp, RovaModule } from './modules/types.js';
import { assemblePlatform, closePlatform } from './platform/assemble.js';
import type { Platform } from './platform/context.js';
import { connectDatabase, type ConnectOptions, type DbHandle } from './platform/db/connect.js';
import { migrate } from './platform/db/migrate.js';
import { sharedCompilers } from './platform/http/compilers.js';
import { finiteNumbers } from './platform/http/finite-numbers.js';
import { loggerOptions, type LogDestination } from './platform/http/logging.js';
import { finishHttp, installHttpPipeline } from './platform/http/pipeline.js';
import { connectRedis } from './platform/kv/connect.js';
import { establishStoreCurrency } from './platform/store-currency.js';
import { withStoredTimezone } from './platform/store-timezone.js';
import { refreshPlannerStatistics } from './platform/db/statistics.js';
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

/**
 * The app, top to bottom: check the settings, connect and migrate the database, connect Redis, create Fastify,
 * assemble the platform, install the HTTP pipeline, register the modules' routes, start the modules, ready.
 * Each step is a named function in its platform folder; this function only says in which order they run.
 */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const modules = opts.modules ?? defaultModules;
  // Module settings are checked before anything connects: a bad RENTAL_* or FX_* value stops the start.
  for (const m of modules) m.checkConfig?.(config);

  const dbHandle = opts.dbHandle ?? (await connectDatabase(config, opts.connect));
  const closeDb = () => (opts.keepDb ? undefined : dbHandle.close());
  const migration = opts.skipMigrate ? { applied: [], wasEmpty: false } : await migrate(dbHandle);
  config = await withStoredTimezone(config, dbHandle.db);
  let storeCurrency: string;
  let redisLink;
  try {
    storeCurrency = await establishStoreCurrency(dbHandle.db, config);
    redisLink = await connectRedis(config, dbHandle.db);
  } catch (err) {
    await closeDb();
    throw err;
  }

  const app = createFastify(config, opts);
  const parts = assemblePlatform(app, config, dbHandle, storeCurrency, redisLink);
  const { platform, authFailures } = parts;
  app.addHook('onClose', async () => {
    for (const m of modules) await m.stop?.(platform);
    await closePlatform(parts, !opts.keepDb);
  });

  try {
    platform.namespaces.register({ name: 'rova/v1', shape: 'wp' });
    for (const m of modules) for (const ns of m.namespaces ?? []) platform.namespaces.register(ns);
    if (opts.http !== false) {
      const catalogue = await installHttpPipeline(app, parts);
      await registerModuleRoutes(app, modules, config.restRoot);
      finishHttp(app, platform, catalogue);
    }
    if (opts.startModules !== false) for (const m of modules) await m.start?.(platform);
    for (const file of config.extensions) await loadExtension(file, platform);
    if (config.bootstrapAdminKey) await platform.auth.ensureBootstrapAdmin(config.bootstrapAdminKey);
    await app.ready();
  } catch (err) {
    // A module that fails to start must not leave the database or Redis connections open.
    await app.close().catch(() => undefined);
    throw err;
  }
  return { app, platform, migration, authFailures };
}

function createFastify(config: Config, opts: BuildOptions): FastifyInstance {
  return Fastify({
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
}

/** Each module's routes in module order: under REST_ROOT (`routes`), then at the server root (`rootRoutes`). */
async function registerModuleRoutes(app: FastifyInstance, modules: RovaModule[], restRoot: string): Promise<void> {
  for (const m of modules) {
    if (m.routes) await app.register(m.routes, { prefix: restRoot });
    if (m.rootRoutes) await app.register(m.rootRoutes);
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
  await refreshPlannerStatistics(platform.db);
}
