#!/usr/bin/env node
import { buildApp } from './app.js';
import { command } from './cli/command.js';
import { cliCommands } from './cli/commands.js';
import { commandHelp, overview, wantsHelp } from './cli/help.js';
import { serve } from './cli/serve.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { modules } from './modules/index.js';
import type { CliCommand, CliContext } from './modules/types.js';
import { VERSION } from './version.js';

const builtins: Record<string, CliCommand> = {
  serve: command(
    { summary: 'start the HTTP server (migrates first; seeds demo data when ROVA_DEMO=1 and the database is new)', usage: ['serve'], details: ['Stops gracefully on SIGTERM or SIGINT (see README, "Operations").'] },
    (ctx) => serve(ctx.config),
  ),
  migrate: command({ summary: 'apply pending database migrations', usage: ['migrate'] }, async (ctx) => {
    const { app, migration } = await ctx.open();
    process.stdout.write(migration.applied.length ? `applied: ${migration.applied.join(', ')}\n` : 'database is up to date\n');
    await app.close();
    return 0;
  }),
};

const allCommands = (): Record<string, CliCommand> => ({ ...cliCommands, ...builtins });

function configError(message: string): number {
  process.stderr.write(`rova: configuration error: ${message}\n`);
  return 2;
}

/** Every setting, the core ones and each module's, validated before anything connects or writes. */
function loadAndCheckConfig(): Config {
  const config = loadConfig(process.env);
  for (const m of modules) m.checkConfig?.(config);
  return config;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const commands = allCommands();
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`rova ${VERSION}\n`);
    return 0;
  }
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic !== undefined) {
      const cmd = commands[topic];
      if (!cmd) {
        process.stderr.write(`rova: unknown command "${topic}" (rova help lists them)\n`);
        return 1;
      }
      process.stdout.write(commandHelp(topic, cmd) + '\n');
      return 0;
    }
    (name ? process.stdout : process.stderr).write(overview(commands) + '\n');
    return name ? 0 : 1;
  }
  const cmd = commands[name];
  if (!cmd) {
    process.stderr.write(`rova: unknown command "${name}" (rova help lists them)\n`);
    return 1;
  }
  // Help is answered before the configuration is read: it must not create DATA_DIR, a secret or a database.
  if (wantsHelp(rest)) {
    process.stdout.write(commandHelp(name, cmd) + '\n');
    return 0;
  }
  const config = loadAndCheckConfig();
  const ctx: CliContext = {
    config,
    args: rest,
    // stdout is the command's output (a key, an export file): its log lines and warnings go to stderr
    open: () => buildApp({ ...config, jobs: false, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel }, { logTo: 'stderr', http: false }),
  };
  try {
    return await cmd(ctx);
  } catch (err) {
    // parseArgs: unknown option, missing option value, unexpected positional argument.
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      process.stderr.write(`rova ${name}: ${(err as Error).message}\n${commandHelp(name, cmd)}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError) process.exit(configError(err.message));
    process.stderr.write(`rova: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
