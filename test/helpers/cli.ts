import { Readable, Writable } from 'node:stream';
import { runRova } from '../../src/cli/run.js';
import type { CliIo } from '../../src/modules/types.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as written (an export's byte-order mark, binary output). */
  stdoutBytes: Buffer;
}

function collector(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
}

/**
 * Runs `rova <args>` in this process through the CLI's own entry (src/cli/run.ts: argument parsing, configuration
 * from `env`, the command, exit code), with captured streams. For what a command does; what only a real process
 * shows (a signal, a terminal, the lock another process holds, process start-up) keeps a spawned `rova`.
 */
export async function rovaInProcess(
  args: string[],
  env: Record<string, string>,
  opts: { stdin?: string } = {},
): Promise<CliRun> {
  const c = capturedIo(opts.stdin);
  const code = await runRova(args, { LOG_LEVEL: 'silent', ...env }, c.io);
  const stdoutBytes = c.stdoutBytes();
  return { code, stdout: stdoutBytes.toString('utf8'), stderr: c.stderr(), stdoutBytes };
}

/** Streams for a command's context that keep what it writes (stdin: `input`, not a terminal). */
export function capturedIo(input?: string) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdin = Object.assign(Readable.from(input === undefined ? [] : [input]), { isTTY: false });
  const io: CliIo = { stdout: collector(out), stderr: collector(err), stdin };
  return {
    io,
    stdoutBytes: () => Buffer.concat(out),
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
}
