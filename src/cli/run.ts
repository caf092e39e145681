import { buildApp } from '../app.js';
import { ConfigError, loadConfig, type Config, type LoadConfigOptions } from '../config.js';
import { modules } from '../modules/index.js';
import type { CliCommand, CliContext, CliIo } from '../modules/types.js';
import { command } from './command.js';
import { cliCommands } from './commands.js';
import { commandHelp, overview, wantsHelp } from './help.js';
import { serve } from './serve.js';

const builtins: Record<string, CliCommand> = {
  serve: command(
    {
      summary: 'start the HTTP server (migrates first; seeds demo data when ROVA_DEMO=1 and the database is new)',
      usage: ['serve'],
      details: ['Stops gracefully on SIGTERM or SIGINT (see docs/operators/production.md, "Signals and shutdown").'],
    },
    (ctx) => serve(ctx.config),
  ),
  migrate: command({ summary: 'apply pending database migrations', usage: ['migrate'] }, async (ctx) => {
    const { app, migration } = await ctx.open({ platformOnly: true });
    ctx.io.stdout.write(
      migration.applied.length ? `applied: ${migration.applied.join(', ')}\n` : 'database is up to date\n',
    );
    await app.close();
    return 0;
  }),
};

const allCommands = (): Record<string, CliCommand> => ({ ...cliCommands, ...builtins });

/** Every setting, the core ones and each module's, validated before anything connects or writes. */
function loadAndCheckConfig(env: NodeJS.ProcessEnv, opts: LoadConfigOptions = {}): Config {
  const config = loadConfig(env, opts);
  for (const m of modules) m.checkConfig?.(config);
  return config;
}

/**
 * `rova <command> …` with the given environment and streams; resolves with the exit code (negative: the command
 * keeps running, as `serve` does). Never exits the process, so a test can run a command in-process.
 */
export async function runRova(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, env, io);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`rova: configuration error: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`rova: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  const commands = allCommands();
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic !== undefined) {
      const cmd = commands[topic];
      if (!cmd) {
        io.stderr.write(`rova: unknown command "${topic}" (rova help lists them)\n`);
        return 1;
      }
      io.stdout.write(commandHelp(topic, cmd) + '\n');
      return 0;
    }
    (name ? io.stdout : io.stderr).write(overview(commands) + '\n');
    return name ? 0 : 1;
  }
  const cmd = commands[name];
  if (!cmd) {
    io.stderr.write(`rova: unknown command "${name}" (rova help lists them)\n`);
    return 1;
  }
  // Help is answered before the configuration is read: it must not create DATA_DIR, a secret or a database.
  if (wantsHelp(rest)) {
    io.stdout.write(commandHelp(name, cmd) + '\n');
    return 0;
  }
  // Only the server and `migrate` may start on a database without the server's secret: anything else would write
  // keys and tokens the server refuses.
  const config = loadAndCheckConfig(env, { createSecret: name === 'serve' || name === 'migrate' });
  // A one-shot command's warnings on a terminal: one plain line each, not JSON (LOG_FORMAT still wins)
  const logFormat =
    name !== 'serve' && !env.LOG_FORMAT?.trim() && (io.stderr as { isTTY?: boolean }).isTTY === true
      ? 'line'
      : config.logFormat;
  const ctx: CliContext = {
    config,
    args: rest,
    io,
    // stdout is the command's output (a key, an export file): its log lines and warnings go to stderr
    open: (o) =>
      buildApp(
        { ...config, logFormat, jobs: false, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
        { logTo: io.stderr, http: false, startModules: !o?.platformOnly },
      ),
  };
  try {
    return await cmd(ctx);
  } catch (err) {
    // parseArgs: unknown option, missing option value, unexpected positional argument.
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      io.stderr.write(`rova ${name}: ${(err as Error).message}\n${commandHelp(name, cmd)}\n`);
      return 2;
    }
    throw err;
  }
}
