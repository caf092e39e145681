import type { CliCommand } from '../modules/types.js';

const INTRO = 'rova — headless back end for vehicle-rental storefronts';

/** `rova help`: every command's usage and summary, from the command definitions. */
export function overview(commands: Record<string, CliCommand>): string {
  const lines = [INTRO, '', 'Usage: rova <command> [options]', ''];
  for (const name of Object.keys(commands).sort()) {
    const h = commands[name]?.help;
    const usage = h?.usage?.length ? h.usage : [name];
    lines.push(`  rova ${usage[0]}`);
    for (const u of usage.slice(1)) lines.push(`  rova ${u}`);
    lines.push(`      ${h?.summary ?? '(no description)'}`);
  }
  lines.push(
    '',
    "  rova help [command]     this text, or one command's help (also: rova <command> --help)",
    '  rova --version          the version',
    '',
    'Configuration comes from the environment (docs/operators/configuration.md). Exit codes: 0 ok, 1 failure or',
    'unknown command, 2 bad arguments or configuration error.',
  );
  return lines.join('\n');
}

/** `rova help <command>` and `rova <command> --help`. */
export function commandHelp(name: string, cmd: CliCommand): string {
  const h = cmd.help;
  const usage = h?.usage?.length ? h.usage : [name];
  const lines = usage.map((u, i) => `${i === 0 ? 'Usage:' : '      '} rova ${u}`);
  if (h?.summary) lines.push('', h.summary);
  if (h?.details?.length) lines.push('', ...h.details);
  return lines.join('\n');
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
