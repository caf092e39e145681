// The contracts between the app, its feature modules and the CLI. This file sits at the bottom of the import
// graph: it may import the platform and the configuration (types only), never the app, the CLI or a module,
// so every import arrow points down (test/ops/import-graph.test.ts fails on a circle).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.js';
import type { AuthFailureAudit } from '../platform/audit/auth-failures.js';
import type { Platform } from '../platform/context.js';
import type { MigrateResult } from '../platform/db/migrate.js';
import type { NamespaceInfo } from '../platform/http/namespaces.js';

/** A running (or ready-to-run) app: what buildApp returns and what CLI commands open. */
export interface BuiltApp {
  app: FastifyInstance;
  platform: Platform;
  migration: MigrateResult;
  /** Collapsed authentication-failure audit entries (tests flush it to read the counted entries). */
  authFailures: AuthFailureAudit;
}

/** What a CLI command receives: the validated configuration, its own arguments, and a way to open the app. */
export interface CliContext {
  config: Config;
  /** The arguments after the command name (`rova apikey create --user x` → `['create', '--user', 'x']`). */
  args: string[];
  /**
   * Builds the app without listening (jobs off), for one-shot commands. Close it when done. `platformOnly`: no
   * module starts (no catalogue, rates or index loads) — for commands that only touch users, keys and the database.
   */
  open(opts?: { platformOnly?: boolean }): Promise<BuiltApp>;
  /** Where the command reads and writes: never process.stdout & co. directly, so a command also runs in-process. */
  io: CliIo;
}

/**
 * A command's streams: the process's own under `rova`, captured ones when a test runs the command in-process.
 * stdout is the command's output only (a key, an export file); messages and warnings go to stderr.
 */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Help text of a CLI command, shown by `rova help`, `rova help <command>` and `rova <command> --help`. */
export interface CliHelp {
  /** One line for the command list. */
  summary?: string;
  /** Usage lines without the leading `rova ` (e.g. `rates sync`). */
  usage?: string[];
  /** Further lines: options, examples. */
  details?: string[];
}

/**
 * A CLI command: returns the exit code (0 ok, 1 failure, 2 usage or configuration error). `--help` never
 * reaches it: the CLI prints the help attached with `command()` (src/cli/command.ts) instead.
 */
export type CliCommand = ((ctx: CliContext) => Promise<number>) & { help?: CliHelp };

/**
 * A feature module: its namespaces, its routes, its settings, what it starts, and its demo data. `Settings` is what
 * checkConfig returns: the module's typed settings (the rental module's RentalModuleSettings, fx's FxEnv, …).
 */
export interface RovaModule<Settings = unknown> {
  name: string;
  namespaces?: NamespaceInfo[];
  /** Registered with prefix REST_ROOT (paths start with the namespace, e.g. `/wc/v3/products`). */
  routes?: FastifyPluginAsync;
  /** Registered at the server root (assets, demo pages, docs). */
  rootRoutes?: FastifyPluginAsync;
  /**
   * Reads and validates this module's settings from the environment before anything connects, and returns them
   * typed; throws ConfigError naming the variable. Runs for `serve` and every CLI command that opens the app. Only
   * the module's settings files read the environment (config.env); everything else receives typed values.
   */
  checkConfig?(config: Config): Settings;
  /** Runs once the platform is up, before the server listens: caches, subscriptions, jobs. */
  start?(platform: Platform): Promise<void> | void;
  /** Runs when the app closes (modules in order, each awaited), before the database does: stops what `start` began. */
  stop?(platform: Platform): Promise<void> | void;
  /** Adds this module's demo data. Must be idempotent (`rova seed --demo` may run again). */
  seedDemo?(platform: Platform): Promise<void>;
  /** `rova seed --bookings N`: adds N synthetic bookings (load and report tests). */
  seedBookings?(platform: Platform, count: number): Promise<void>;
  /** Extra CLI commands, e.g. `rates` → `rova rates sync`. */
  commands?: Record<string, CliCommand>;
}
