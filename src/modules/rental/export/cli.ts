import { createWriteStream, openSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { command } from '../../../cli/command.js';
import type { CliContext } from '../../types.js';
import { HttpError } from '../../../platform/http/errors.js';
import { EXPORT_TYPES } from './registry.js';
import { parseExportRequest, parseFormat } from './request.js';
import { startExport } from './service.js';

export const EXPORT_USAGE = `usage: rova export <type> --format csv|json|ndjson [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--status S] [--out FILE]
  types: ${EXPORT_TYPES.map((t) => t.name).join(', ')}
  Writes to stdout unless --out is given (written to FILE.partial, renamed when complete). The run is
  recorded in the export history (user_id null).`;

function fail(ctx: CliContext, message: string): number {
  ctx.io.stderr.write(`rova: ${message}\n${EXPORT_USAGE}\n`);
  return 2;
}

async function writeAll(out: NodeJS.WritableStream, chunks: AsyncIterable<Buffer>): Promise<void> {
  for await (const c of chunks) if (!out.write(c)) await once(out, 'drain');
}

/** `rova export <type> --format …`: the same file as POST /admin/export, run by the operator (every type). */
export const exportCommand = command(
  {
    summary:
      'export bookings, transfers, vehicles, customers, messages, payouts, ledger_entries or audit_log (stdout by default)',
    usage: ['export <type> --format csv|json|ndjson [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--status S] [--out FILE]'],
    details: [
      `types: ${EXPORT_TYPES.map((t) => t.name).join(', ')}`,
      'Writes to stdout unless --out is given (FILE.partial, renamed when complete); recorded in the export history.',
    ],
  },
  async (ctx) => {
    let parsed;
    try {
      parsed = parseArgs({
        args: ctx.args,
        allowPositionals: true,
        strict: true,
        options: {
          format: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          status: { type: 'string' },
          out: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (err) {
      return fail(ctx, err instanceof Error ? err.message : String(err));
    }
    const { values, positionals } = parsed;
    if (values.help) {
      ctx.io.stdout.write(EXPORT_USAGE + '\n');
      return 0;
    }
    if (positionals.length !== 1) return fail(ctx, 'export needs exactly one type');
    if (!values.format) return fail(ctx, 'export needs --format');
    const input = {
      type: positionals[0],
      format: values.format,
      date_from: values.from,
      date_to: values.to,
      status: values.status,
    };
    try {
      // Bad input is refused before the database is opened.
      parseFormat(input.format);
      parseExportRequest(input, ctx.config.storeTimezone);
    } catch (err) {
      if (err instanceof HttpError) return fail(ctx, err.message);
      throw err;
    }

    const { app, platform } = await ctx.open();
    try {
      const run = await startExport(
        {
          db: platform.db,
          transients: platform.transients,
          timeZone: platform.config.storeTimezone,
          now: () => new Date(),
        },
        input,
        { userId: null, can: () => true },
      );
      if (!values.out) {
        // A reader that goes away (`| head`) ends the run as failed instead of crashing on EPIPE.
        ctx.io.stdout.on('error', () => undefined);
        await writeAll(ctx.io.stdout, run.body);
        await new Promise<void>((resolve) => ctx.io.stdout.write('', () => resolve()));
      } else {
        const partial = `${values.out}.partial`;
        let fd: number;
        try {
          fd = openSync(partial, 'w');
        } catch (err) {
          return fail(ctx, `cannot write ${values.out}: ${err instanceof Error ? err.message : String(err)}`);
        }
        const file = createWriteStream('', { fd });
        try {
          await writeAll(file, run.body);
          file.end();
          await once(file, 'finish');
          renameSync(partial, values.out);
        } catch (err) {
          file.destroy();
          rmSync(partial, { force: true });
          throw err;
        }
        ctx.io.stderr.write(`${run.filename} written to ${values.out}\n`);
      }
      return 0;
    } catch (err) {
      // the export's refusals are catalogue errors (all of them the request's fault); anything else is a crash
      if (err instanceof HttpError) return fail(ctx, err.message);
      throw err;
    } finally {
      await app.close();
    }
  },
);
