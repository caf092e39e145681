import { buildApp, seedDemo } from '../app.js';
import type { Config } from '../config.js';
import { ensureDemoAdmin, type DemoAdmin } from '../platform/auth/demo-admin.js';
import { firstAdministrator } from '../platform/auth/repo.js';
import { answerBackupRequests } from '../platform/backup/handoff.js';
import { legacyUploads } from './legacy-uploads.js';

/**
 * `rova serve`: listens until SIGTERM or SIGINT, then shuts down gracefully: with SHUTDOWN_DRAIN_MS it first fails
 * /readyz and keeps serving for that long (no new jobs), then stops accepting connections (new requests on
 * kept-alive ones get 503), lets in-flight requests finish, waits for a running job, hands its job leases back,
 * closes Redis and the database (releasing the embedded database's lock) and exits 0. After SHUTDOWN_TIMEOUT_MS
 * (counted from the end of the drain), or on a second signal, it exits 1 at once.
 */
export async function serve(config: Config): Promise<number> {
  const { app, platform, migration } = await buildApp(config);
  // the first start takes a while: say what it did, step by step
  if (migration.applied.length)
    app.log.info(
      `database ${migration.wasEmpty ? 'created' : 'updated'}: ${migration.applied.length} migration${migration.applied.length === 1 ? '' : 's'} applied`,
    );
  let demoAdmin: DemoAdmin | null = null;
  if (config.demo && migration.wasEmpty && !(await platform.options.get('demo_seeded_at'))) {
    const t0 = Date.now();
    app.log.info('seeding the demo data (first start with ROVA_DEMO=1)…');
    await seedDemo(platform);
    demoAdmin = await ensureDemoAdmin(platform);
    app.log.info(`demo data seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const legacy = await legacyUploads(config.dataDir);
  if (legacy > 0 && platform.storage.kind !== 'file') {
    app.log.warn(
      `${legacy} uploaded file${legacy === 1 ? '' : 's'} in ${config.dataDir}/uploads ${legacy === 1 ? 'is' : 'are'} not in the shared storage (${platform.storage.label}) and answer 404 until moved: run "npx rova storage migrate"`,
    );
  }
  let closing = false;
  const stop = () => {
    const timer = setTimeout(() => {
      app.log.error({ timeout_ms: config.shutdownTimeoutMs }, 'graceful shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    closing = true;
    // Behind a load balancer: /readyz fails first and the node keeps serving (closing each connection after its
    // response) until the health check has taken it out; only then does it stop accepting.
    platform.lifecycle.draining = true;
    if (config.shutdownDrainMs > 0) {
      app.log.info(
        { signal, drain_ms: config.shutdownDrainMs },
        'draining: /readyz answers 503, requests are still served; no new jobs',
      );
      void platform.jobs.stop();
      setTimeout(() => {
        app.log.info({ timeout_ms: config.shutdownTimeoutMs }, 'drained; shutting down: finishing requests and jobs');
        stop();
      }, config.shutdownDrainMs).unref();
    } else {
      app.log.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'shutting down: draining requests and jobs');
      stop();
    }
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  answerBackupRequests(platform);
  await app.listen({ port: config.port, host: config.host });
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${(app.server.address() as { port: number }).port}`;
  app.log.info(`Rova ${config.restRoot}/ ready at ${base}${config.restRoot}/ — API docs at ${base}/docs`);
  if (demoAdmin) {
    // Shown this once (first start with demo data): the password is stored only as a hash.
    const how =
      demoAdmin.generatedPassword === null
        ? 'the password in ROVA_ADMIN_PASSWORD'
        : `password ${demoAdmin.generatedPassword} (generated; shown only now)`;
    app.log.info(`Admin app: ${base}/admin — log in as "${demoAdmin.login}" with ${how}`);
  } else if (!(await firstAdministrator(platform.db).catch(() => 'unknown'))) {
    // an empty production database: nobody can log in yet, and nothing else would say so
    app.log.warn(
      `No administrator yet: run "npx rova setup" (or "node dist/main.js setup") to create the first one; the admin app is at ${base}/admin`,
    );
  }
  return -1;
}
