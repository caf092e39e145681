import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rovaArgs } from '../helpers/rova-process.js';

/** Temporary directories removed by cleanup(). */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    make(prefix = 'rova-ops-'): string {
      const d = mkdtempSync(path.join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    cleanup(): void {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** A clean environment: nothing of the developer's shell leaks into the spawned process's configuration. */
export function cleanEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
}

/** Runs the CLI from the sources (tsx), waiting for it to exit. */
export function rovaSync(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, rovaArgs(...args), { env: cleanEnv(env), encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Running {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the base URL once the server logged "ready at". */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a long-running process and collects its output. */
export function start(cmd: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(cmd, args, { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let onData: () => void = () => undefined;
  const collect = (b: Buffer) => {
    out += b.toString('utf8');
    onData();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const ready = new Promise<string>((resolve, reject) => {
    onData = () => {
      const m = /ready at (http:\/\/[^/\s]+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    void exited.then(({ code }) => reject(new Error(`exited with ${code} before ready:\n${out}`)));
  });
  return { child, output: () => out, ready, exited };
}
