import { parseArgs } from 'node:util';
import { readImportSettings } from '../settings.js';
import { command, fail } from '../../../cli/command.js';
import type { CliContext } from '../../types.js';
import { fxRuntime } from '../../fx/index.js';
import { CATALOGUE_TOPIC as RENTAL_CATALOGUE } from '../../rental/index.js';
import { CATALOGUE_TOPIC as STORE_CATALOGUE } from '../../store/index.js';
import { ENTITIES, type Entity, type ImportReport } from './report.js';
import { refreshPlannerStatistics } from '../../../platform/db/statistics.js';
import { importWordPress } from './service.js';
import { describeUrl, openMysqlSource, SourceError, type WpSource } from './source.js';

const USAGE =
  'usage: rova import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only products,variations,…]';

/** A bar on a terminal, one line per entity otherwise. */
export function progressWriter(ctx: Pick<CliContext, 'io'>) {
  const out = ctx.io.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const tty = out.isTTY === true;
  let last = '';
  return {
    tick(entity: Entity, done: number, total: number) {
      if (!tty) return;
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      out.write(`\r${entity.padEnd(15)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      last = entity;
    },
    end(line: string) {
      out.write(tty && last ? `\r\x1b[K${line}\n` : `${line}\n`);
      last = '';
    },
  };
}

/**
 * What the command says when the run stops: the error's message only (a statement's error carries its text, never
 * its parameters: platform/db/query-errors.ts), and what was kept: nothing in a dry run.
 */
export function stopMessage(err: unknown, dryRun: boolean): string {
  const after = dryRun
    ? 'Dry run: nothing was written.'
    : 'What was imported before stays; run the same command again to go on.';
  return `rova: import stopped: ${err instanceof Error ? err.message : String(err)}\n${after}\n`;
}

export function formatReport(r: ImportReport): string {
  const lines: string[] = [r.dryRun ? 'Dry run: nothing was written.' : 'Import finished.'];
  if (r.site) {
    lines.push(
      `Read: MHM Rentiva ${r.site.pluginVersion ?? '(no version stored: add-ons priced by their stored pricing type, per day where none)'} (${r.site.pluginGeneration}.x names), site time zone ${r.site.timeZone}.`,
    );
  }
  lines.push(
    '',
    `${'entity'.padEnd(15)} ${'read'.padStart(6)} ${'created'.padStart(8)} ${'updated'.padStart(8)} ${'skipped'.padStart(8)} ${'warnings'.padStart(9)}`,
  );
  for (const e of r.entities) {
    lines.push(
      `${e.entity.padEnd(15)} ${String(e.read).padStart(6)} ${String(e.created).padStart(8)} ${String(e.updated).padStart(8)} ${String(e.skipped.length).padStart(8)} ${String(e.warnings.length).padStart(9)}`,
    );
  }
  const skipped = r.entities.flatMap((e) => e.skipped.map((s) => `  ${e.entity} ${s.id}: ${s.reason}`));
  if (skipped.length) lines.push('', 'Skipped:', ...skipped);
  const warnings = r.entities.flatMap((e) => e.warnings.map((w) => `  ${e.entity}: ${w}`));
  if (warnings.length) lines.push('', 'Warnings:', ...warnings);
  const values = r.entities.flatMap((e) => e.values.map((v) => `  ${e.entity} ${v.id} ${v.key}: ${v.reason}`));
  if (values.length) lines.push('', 'Values not read as they stood:', ...values);
  const left = r.notImported.filter((n) => n.count > 0);
  if (left.length) lines.push('', 'Not imported:', ...left.map((n) => `  ${String(n.count).padStart(6)}  ${n.what}`));
  if (r.ledger.length) {
    lines.push('', 'Vendor balances (original → Rova):');
    for (const b of r.ledger) {
      lines.push(
        `  vendor ${b.vendorId} ${b.currency}: available ${b.original.available} → ${b.rova.available}, pending ${b.original.pending} → ${b.rova.pending}${b.matches ? '' : '  MISMATCH'}`,
      );
    }
  }
  return lines.join('\n');
}

export const importCommand = command(
  {
    summary:
      'import a WordPress + WooCommerce site (catalogue, currencies, users, rental data) from its MySQL database',
    usage: ['import wordpress --from mysql://user:pass@host:3306/db [--prefix wp_] [--dry-run] [--only ENTITY,…]'],
    details: [
      `Entities (in order): ${ENTITIES.join(', ')}.`,
      'Ids the storefront knows stay the same (products, variations, terms, vehicles, bookings); re-running updates in place.',
      '--dry-run reads and maps everything in a transaction that is rolled back: counts and warnings, nothing written.',
      'Vendor IBANs: set WP_AUTH_KEY and WP_SECURE_AUTH_SALT (from wp-config.php) to carry them over, sealed with ROVA_SECRET.',
      'See docs/operators/import-wordpress.md.',
    ],
  },
  async (ctx) => {
    const [sub, ...rest] = ctx.args;
    if (sub !== 'wordpress') return fail(ctx, USAGE);
    const { values } = parseArgs({
      args: rest,
      options: {
        from: { type: 'string' },
        prefix: { type: 'string' },
        'dry-run': { type: 'boolean' },
        only: { type: 'string' },
      },
      strict: true,
    });
    if (!values.from) return fail(ctx, `import wordpress: missing --from\n${USAGE}`);
    let only: Entity[] | undefined;
    if (values.only !== undefined) {
      const names = values.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = names.filter((n) => !(ENTITIES as readonly string[]).includes(n));
      if (unknown.length || !names.length)
        return fail(
          ctx,
          `--only: unknown entit${unknown.length === 1 ? 'y' : 'ies'} ${unknown.join(', ') || '(none given)'}; known: ${ENTITIES.join(', ')}`,
        );
      only = names as Entity[];
    }
    const { wpKeys } = readImportSettings(ctx.config);
    let source: WpSource;
    try {
      source = await openMysqlSource(values.from, values.prefix ?? 'wp_');
    } catch (err) {
      if (err instanceof SourceError) {
        ctx.io.stderr.write(`rova: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    const progress = progressWriter(ctx);
    const { app, platform } = await ctx.open();
    try {
      ctx.io.stderr.write(`importing from ${describeUrl(values.from)}${values['dry-run'] ? ' (dry run)' : ''}\n`);
      const report = await importWordPress(
        { db: platform.db, transaction: (f) => platform.transaction(f), secret: platform.config.secret },
        source,
        {
          only,
          dryRun: values['dry-run'] === true,
          wpKeys,
          progress: (entity, done, total) => progress.tick(entity, done, total),
        },
      );
      for (const e of report.entities)
        progress.end(`${e.entity}: ${e.created} created, ${e.updated} updated, ${e.skipped.length} skipped`);
      if (!report.dryRun) {
        await refreshPlannerStatistics(platform.db);
        // running nodes drop what they cached of the catalogue, the vehicles and the currencies, and read the
        // store's currency again
        await platform.storeCurrency.changed();
        await platform.bus.publish(STORE_CATALOGUE, 'changed');
        await platform.bus.publish(RENTAL_CATALOGUE, '');
        await fxRuntime(platform).changed();
      }
      ctx.io.stdout.write(formatReport(report) + '\n');
      return report.ledger.some((b) => !b.matches) ? 1 : 0;
    } catch (err) {
      ctx.io.stderr.write(stopMessage(err, values['dry-run'] === true));
      return 1;
    } finally {
      await source.close();
      await app.close();
    }
  },
);
