import type { CliCommand, CliContext, CliHelp } from '../modules/types.js';

/** A CLI command with its help text (modules use it too: help comes from the definition, nothing to register). */
export function command(help: CliHelp, run: (ctx: CliContext) => Promise<number>): CliCommand {
  return Object.assign(run, { help });
}

/** A usage or configuration error: the message on stderr, exit code 2. */
export function fail(ctx: CliContext, message: string): number {
  ctx.io.stderr.write(`rova: ${message}\n`);
  return 2;
}
