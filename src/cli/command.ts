import type { CliCommand, CliContext, CliHelp } from '../modules/types.js';

/** A CLI command with its help text (modules use it too: help comes from the definition, nothing to register). */
export function command(help: CliHelp, run: (ctx: CliContext) => Promise<number>): CliCommand {
  return Object.assign(run, { help });
}
