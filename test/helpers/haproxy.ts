import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

export const HAPROXY = '/usr/sbin/haproxy';
export const hasHaproxy = (): boolean => existsSync(HAPROXY);

export interface Balancer {
  url: string;
  /** Servers HAProxy has in rotation now (node1, node2, ...), from its statistics page. */
  up(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * HAProxy with the repository's own deploy/haproxy.cfg (Debian package `haproxy`), on free ports, in front of the
 * given node ports (the config's node1… lines point at them, the others are dropped). Resolves once `inRotation`
 * nodes (default: every one) are in rotation (bounded: rejects after `timeoutMs`).
 */
export async function startBalancer(
  nodePorts: number[],
  timeoutMs = 30_000,
  inRotation = nodePorts.length,
): Promise<Balancer> {
  const [lb, stats] = [await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(tmpdir(), 'rova-haproxy-'));
  const cfg = readFileSync(path.resolve(import.meta.dirname, '../../deploy/haproxy.cfg'), 'utf8')
    .replace('log stdout format raw local0 info', 'log stdout format raw local0 warning')
    .replace('bind :8080', `bind 127.0.0.1:${lb}`)
    .replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${stats}`)
    .replace(/^(\s+server node(\d) )127\.0\.0\.1:808\d( check)$/gm, (_, head: string, n: string, tail: string) => {
      const port = nodePorts[Number(n) - 1];
      return port === undefined ? '' : `${head}127.0.0.1:${port}${tail}`;
    });
  writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
  const proc: ChildProcess = spawn(HAPROXY, ['-f', path.join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  const up = async () => {
    const csv = await fetch(`http://127.0.0.1:${stats}/stats;csv`).then(
      (r) => r.text(),
      () => '',
    );
    return csv
      .split('\n')
      .filter((l) => l.startsWith('rova_nodes,node') && l.split(',')[17] === 'UP')
      .map((l) => l.split(',')[1]!);
  };
  const stop = async () => {
    if (proc.exitCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while ((await up()).length < inRotation) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(
        proc.exitCode !== null
          ? `haproxy exited with ${proc.exitCode}`
          : `haproxy: not ${inRotation} node(s) in rotation within ${timeoutMs} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://127.0.0.1:${lb}`, up, stop };
}
