import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Platform } from '../context.js';
import { takeBackup } from './take.js';

// The embedded database belongs to one process. `rova backup` beside a running server leaves a request file in
// DATA_DIR/backup-requests and sends the server SIGUSR2; the server takes the backup in its own snapshot and writes
// the result next to the request. Only someone who can write DATA_DIR and signal the server's user can ask.

const REQUESTS = 'backup-requests';
/** A backup of a large embedded database takes minutes; the CLI gives up waiting after this. */
const WAIT_MS = 30 * 60_000;

type Result = { dir: string } | { error: string };

/** The pid of a live server holding the embedded database in dataDir (its lock file), else null. */
export function embeddedServerPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'pgdata.lock');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export async function askServerForBackup(dataDir: string, pid: number, into: string): Promise<Result> {
  const dir = path.join(dataDir, REQUESTS);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const id = randomBytes(8).toString('hex');
  const result = path.join(dir, `${id}.result.json`);
  await writeFile(path.join(dir, `${id}.tmp`), JSON.stringify({ into }), { mode: 0o600 });
  await rename(path.join(dir, `${id}.tmp`), path.join(dir, `${id}.request.json`));
  process.kill(pid, 'SIGUSR2');
  const until = Date.now() + WAIT_MS;
  try {
    while (Date.now() < until) {
      if (existsSync(result)) return JSON.parse(await readFile(result, 'utf8')) as Result;
      try {
        process.kill(pid, 0);
      } catch {
        return { error: `the server (pid ${pid}) stopped before it answered` };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return { error: `no answer from the server (pid ${pid}) within ${WAIT_MS / 60_000} minutes` };
  } finally {
    await rm(result, { force: true });
    await rm(path.join(dir, `${id}.request.json`), { force: true });
  }
}

/** On the embedded database: SIGUSR2 makes the server take the backups requested in DATA_DIR/backup-requests. */
export function answerBackupRequests(p: Platform): () => void {
  if (p.dbHandle.kind !== 'pglite' || p.config.memoryDb) return () => undefined;
  const dir = path.join(p.config.dataDir, REQUESTS);
  let busy = Promise.resolve();
  const onSignal = () => {
    busy = busy
      .then(() => takeRequested(p, dir))
      .catch((err: unknown) => p.log.error({ err }, 'backup request failed'));
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}

async function takeRequested(p: Platform, dir: string): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.request.json'));
  for (const name of names) {
    const id = name.slice(0, -'.request.json'.length);
    let result: Result;
    try {
      const { into } = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { into: string };
      await rm(path.join(dir, name), { force: true });
      const t = await takeBackup(p.dbHandle, p.storage, { into, secret: p.config.secret });
      p.log.info({ backup: t.dir }, 'backup taken on request (rova backup)');
      result = { dir: t.dir };
    } catch (err) {
      result = { error: (err as Error).message };
    }
    await writeFile(path.join(dir, `${id}.tmp-result`), JSON.stringify(result), { mode: 0o600 });
    await rename(path.join(dir, `${id}.tmp-result`), path.join(dir, `${id}.result.json`));
  }
}
