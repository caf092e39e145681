import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, seedDemo, type BuiltApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { pgliteTemplateFile } from './db-template.js';
import { createDatabase } from './pg-admin.js';
import type { Platform } from '../../src/platform/context.js';
import type { Role } from '../../src/platform/auth/roles.js';
import type { RovaModule } from '../../src/modules/types.js';

/**
 * The suite runs on embedded PGlite by default. With ROVA_TEST_DATABASE_URL (an admin connection to a
 * PostgreSQL server) every app gets its own fresh database; with ROVA_TEST_REDIS_URL limits, transients and
 * the bus use Redis under a random key prefix.
 */
export const TEST_PG = process.env.ROVA_TEST_DATABASE_URL ?? '';
export const TEST_REDIS = process.env.ROVA_TEST_REDIS_URL ?? '';

let templateDump: Promise<Blob> | null = null;

/**
 * A database dump held in memory, handed to PGlite's `loadDataDir`, which reads it whole with `arrayBuffer()`. Node's
 * Blob reads its bytes back in small chunks and joins them (about a second for the 44 MB dump, once per test app);
 * this one answers with one copy of a buffer.
 */
class DumpBlob extends Blob {
  constructor(private readonly content: Uint8Array) {
    super();
  }
  override get size(): number {
    return this.content.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.content.slice().buffer);
  }
}

/** The migrated PGlite dump: made once per run by the global setup (test/helpers/global-setup.ts), read once per worker. */
async function pgliteTemplate(): Promise<Blob> {
  templateDump ??= (async () => {
    const file = (inject('pgliteTemplate') as string | undefined) || (await pgliteTemplateFile());
    return new DumpBlob(await readFile(file));
  })();
  return templateDump;
}

/** A database of its own for one app, copied from the run's migrated template (test/helpers/global-setup.ts). */
function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rova_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return createDatabase(TEST_PG, name, (inject('postgresTemplate') as string | undefined) || undefined);
}

export interface TestApp extends BuiltApp {
  config: Config;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Creates a user with the role and returns a key with the scopes (default read+write). */
  userWithKey(
    role: Role,
    scopes?: ('read' | 'write')[],
    login?: string,
  ): Promise<{ userId: number; key: string; keyId: number }>;
  close(): Promise<void>;
}

export interface MakeAppOptions {
  env?: Record<string, string>;
  modules?: RovaModule[];
  /** Start with the demo data (as `seedDemo` leaves it); seeded once per worker and settings, then copied. */
  demo?: boolean;
  /** Start on this embedded database (a restart: `dataDirDump(app)` of an earlier app) instead of the migrated template. */
  fromDump?: Blob;
}

/** The embedded database of a running app, for `makeApp({ fromDump })` (PGlite only). */
export async function dataDirDump(t: BuiltApp): Promise<Blob> {
  const raw = t.platform.dbHandle.raw as { dumpDataDir(c?: 'none' | 'gzip'): Promise<Blob> };
  return new DumpBlob(new Uint8Array(await (await raw.dumpDataDir('none')).arrayBuffer()));
}

interface SeededTemplate {
  dump: Blob;
  /** The seed sealed secrets (vendor IBANs) with this key: every copy must use it. */
  secret: string;
}
const seeded = new Map<string, Promise<SeededTemplate>>();

/** The demo seed takes seconds on PGlite; apps with the same settings start from one seeded copy per worker. */
function seededTemplate(env: Record<string, string>, modules: RovaModule[] | undefined): Promise<SeededTemplate> {
  const key = JSON.stringify(Object.entries(env).sort()) + (modules ? modules.map((m) => m.name).join(',') : '');
  let tpl = seeded.get(key);
  if (!tpl) {
    tpl = (async () => {
      const secret = env.ROVA_SECRET || randomBytes(32).toString('hex');
      const config = loadConfig({ ...env, ROVA_SECRET: secret }, { ephemeral: true });
      const built = await buildApp(config, {
        modules,
        connect: { loadDataDir: await pgliteTemplate() },
        logger: false,
      });
      try {
        await seedDemo(built.platform, modules);
        const raw = built.platform.dbHandle.raw as { dumpDataDir(c?: 'none' | 'gzip'): Promise<Blob> };
        return { dump: new DumpBlob(new Uint8Array(await (await raw.dumpDataDir('none')).arrayBuffer())), secret };
      } finally {
        await built.app.close();
      }
    })();
    seeded.set(key, tpl);
  }
  return tpl;
}

export async function makeApp(opts: MakeAppOptions = {}): Promise<TestApp> {
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    STORE_CURRENCY: 'USD',
    STORE_TIMEZONE: 'UTC',
    ...(opts.env ?? {}),
  };
  let drop: (() => Promise<void>) | null = null;
  if (TEST_PG && !env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase();
    env.DATABASE_URL = fresh.url;
    drop = fresh.drop;
  }
  if (TEST_REDIS && !env.REDIS_URL) {
    env.REDIS_URL = TEST_REDIS;
    env.REDIS_PREFIX = `rova-test:${randomBytes(6).toString('hex')}:`;
  }
  let built: BuiltApp;
  let config: Config;
  if (!env.DATABASE_URL && opts.demo) {
    const tpl = await seededTemplate(env, opts.modules);
    config = loadConfig({ ...env, ROVA_SECRET: tpl.secret }, { ephemeral: true });
    built = await buildApp(config, { modules: opts.modules, connect: { loadDataDir: tpl.dump }, logger: false });
  } else if (!env.DATABASE_URL) {
    config = loadConfig(env, { ephemeral: true });
    built = await buildApp(config, {
      modules: opts.modules,
      connect: { loadDataDir: opts.fromDump ?? (await pgliteTemplate()) },
      logger: false,
    });
  } else {
    config = loadConfig(env, { ephemeral: true });
    built = await buildApp(config, { modules: opts.modules, logger: false });
    if (opts.demo) await seedDemo(built.platform, opts.modules);
  }
  const app: FastifyInstance = built.app;
  const platform: Platform = built.platform;
  let n = 0;
  return {
    ...built,
    config,
    inject: (o) => app.inject(o),
    async userWithKey(role, scopes = ['read', 'write'], login) {
      n += 1;
      const name = login ?? `${role}_${n}_${randomBytes(3).toString('hex')}`;
      const u = await platform.auth.createUser({
        login: name,
        email: `${name}@example.test`,
        role,
        password: 'correct horse battery',
      });
      const k = await platform.auth.createApiKey({ userId: u.id, scopes, name: 'test' });
      return { userId: u.id, key: k.key, keyId: k.view.id };
    },
    async close() {
      await app.close();
      if (drop) await drop();
    },
  };
}
