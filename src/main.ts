#!/usr/bin/env node
import { buildApp, seedDemo, type BuiltApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { cliCommands } from './cli/commands.js';

const HELP = `rova — headless back end for vehicle-rental storefronts

Usage: rova <command> [options]

  serve                       start the HTTP server (migrates first; seeds demo data when ROVA_DEMO=1 and the database is new)
  migrate                     apply pending database migrations
  seed --demo [--bookings N]  add the demo data (idempotent); --bookings adds N synthetic bookings for load tests
  user create --login L --email E --role R [--password P]
                              roles: administrator, shop_manager, vendor, customer
  apikey create --user LOGIN [--name N] [--scopes read,write] [--expires ISO]
                              prints only the new key on stdout
  apikey revoke <id>
  rates sync                  fetch exchange rates now (currency service)
  ledger verify               recompute every ledger balance from its entries; exit 1 on any difference

Configuration comes from the environment; see README.md.`;

export interface CliContext {
  config: Config;
  args: string[];
  /** Builds the app without listening (jobs off), for one-shot commands. */
  open(): Promise<BuiltApp>;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP + '\n');
    return command ? 0 : 1;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`rova: configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const ctx: CliContext = {
    config,
    args: rest,
    open: () => buildApp({ ...config, jobs: false, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel }),
  };
  if (command === 'serve') return serve(config);
  if (command === 'migrate') {
    const { app, migration } = await ctx.open();
    process.stdout.write(migration.applied.length ? `applied: ${migration.applied.join(', ')}\n` : 'database is up to date\n');
    await app.close();
    return 0;
  }
  const handler = cliCommands[command];
  if (!handler) {
    process.stderr.write(`rova: unknown command "${command}"\n\n${HELP}\n`);
    return 1;
  }
  return handler(ctx);
}

async function serve(config: Config): Promise<number> {
  const built = await buildApp(config);
  const { app, platform, migration } = built;
  if (config.demo && migration.wasEmpty && !(await platform.options.get('demo_seeded_at'))) {
    await seedDemo(platform);
    app.log.info('demo data seeded');
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${(app.server.address() as { port: number }).port}`;
  app.log.info(`Rova ${config.restRoot}/ ready at ${base}${config.restRoot}/ — API docs at ${base}/docs`);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`rova: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
