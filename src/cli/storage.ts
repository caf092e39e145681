import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkStorageUrl, openStorage, type ObjectStorage } from '../platform/storage/index.js';
import { migrateStorage } from '../platform/storage/migrate.js';
import type { CliCommand, CliContext } from '../modules/types.js';
import { command, fail } from './command.js';

/** Where Rova versions before shared storage kept uploads: DATA_DIR/uploads/vendor-documents/<name>. */
export const legacyUploadsUrl = (dataDir: string) => pathToFileURL(path.join(dataDir, 'uploads')).href;

const USAGE = 'usage: rova storage migrate [--from URL] [--to URL] [--delete-source] | rova storage check';

async function migrate(ctx: CliContext, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { from: { type: 'string' }, to: { type: 'string' }, 'delete-source': { type: 'boolean' } },
    strict: true,
  });
  const fromUrl = values.from ?? legacyUploadsUrl(ctx.config.dataDir);
  for (const [flag, url] of [
    ['--from', fromUrl],
    ['--to', values.to],
  ] as const) {
    const problem = url === undefined ? null : checkStorageUrl(url);
    if (problem) return fail(ctx, `${flag}: ${problem.replace(/^STORAGE_URL:? ?/, '')}`);
  }
  const toUrl = values.to ?? ctx.config.storageUrl ?? 'database';
  if (fromUrl.trim() === toUrl.trim())
    return fail(ctx, `--from and --to are the same storage (${toUrl}); STORAGE_URL sets the default --to`);
  const { app, platform } = await ctx.open();
  let from: ObjectStorage | undefined;
  let to: ObjectStorage | undefined;
  try {
    from = openStorage(fromUrl, platform.db);
    to = values.to === undefined ? platform.storage : openStorage(values.to, platform.db);
    if (from.label === to.label)
      return fail(ctx, `--from and --to are the same storage (${to.label}); STORAGE_URL sets the default --to`);
    ctx.io.stderr.write(
      `moving files from ${from.label} to ${to.label}${values['delete-source'] ? ' (deleting each source file once its copy reads back)' : ''}\n`,
    );
    const r = await migrateStorage(from, to, {
      deleteSource: values['delete-source'] === true,
      onObject: (key, action) => ctx.io.stdout.write(`${action} ${key}\n`),
    });
    for (const name of r.ignored) ctx.io.stderr.write(`rova: left alone (not a file Rova stored): ${name}\n`);
    ctx.io.stdout.write(
      `${r.copied} copied, ${r.unchanged} already there, ${r.deleted} deleted from the source, ${r.ignored.length} ignored\n`,
    );
    return 0;
  } catch (err) {
    ctx.io.stderr.write(
      `rova: storage migrate stopped: ${(err as Error).message}\nWhat was copied stays copied; run the same command again to go on.\n`,
    );
    return 1;
  } finally {
    if (from && from !== platform.storage) await from.close();
    if (to && to !== platform.storage) await to.close();
    await app.close();
  }
}

/** Writes, reads back and deletes a probe object: proves STORAGE_URL and its credentials before the first upload. */
async function check(ctx: CliContext): Promise<number> {
  const { app, platform } = await ctx.open();
  const key = `probe/${randomBytes(8).toString('hex')}.txt`;
  const body = Buffer.from(`rova storage check ${new Date().toISOString()}\n`);
  try {
    await platform.storage.put(key, body, 'text/plain');
    const back = await platform.storage.get(key);
    await platform.storage.delete(key);
    if (!back || !back.data.equals(body)) {
      ctx.io.stderr.write(`rova: ${platform.storage.label} did not read back what was written\n`);
      return 1;
    }
    ctx.io.stdout.write(`storage ${platform.storage.label}: write, read back and delete ok\n`);
    return 0;
  } catch (err) {
    ctx.io.stderr.write(
      `rova: storage ${platform.storage.label} failed: ${(err as Error).message}\nCheck STORAGE_URL and, for S3, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.\n`,
    );
    return 1;
  } finally {
    await app.close();
  }
}

export const storageCommand: CliCommand = command(
  {
    summary: 'check the file storage, or move stored files between storages (vendor documents)',
    usage: ['storage migrate [--from URL] [--to URL] [--delete-source]', 'storage check'],
    details: [
      'URLs as STORAGE_URL: database, s3://bucket[/prefix]?endpoint=…&region=…, file:///absolute/dir.',
      '--from defaults to file://$DATA_DIR/uploads (where earlier versions kept uploads on the receiving node), --to to STORAGE_URL.',
      'Every copy is read back before it counts (and before --delete-source removes the original); re-running skips',
      'files already copied, so an interrupted move is finished by running it again.',
    ],
  },
  async (ctx) => {
    const [sub, ...rest] = ctx.args;
    if (sub === 'migrate') return migrate(ctx, rest);
    if (sub === 'check' && rest.length === 0) return check(ctx);
    return fail(ctx, USAGE);
  },
);
