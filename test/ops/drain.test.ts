import { rmSync } from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { migratedDataDir, rovaArgs } from '../helpers/rova-process.js';
import { start } from './spawn.js';

// Graceful drain (issue 23 item 3): on SIGTERM a node behind a load balancer fails /readyz first and keeps serving
// for SHUTDOWN_DRAIN_MS, closing each connection after its response, then stops and exits 0.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * One keep-alive request on a raw socket: its status line, and whether the server closed the socket afterwards
 * (waiting `linger` ms for it). fetch pools its connections out of sight, so only a socket of our own shows this.
 */
function keepAliveGet(
  base: string,
  route: string,
  linger: number,
): Promise<{ status: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    const sock = net.connect(Number(port), hostname, () => {
      sock.write(`GET ${route} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
    });
    const status = () => data.split('\r\n')[0] ?? '';
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      data += chunk;
      if (!timer && data.includes('\r\n\r\n')) {
        timer = setTimeout(() => {
          sock.destroy();
          resolve({ status: status(), closedByServer: false });
        }, linger);
      }
    });
    sock.on('end', () => {
      clearTimeout(timer);
      resolve({ status: status(), closedByServer: true });
    });
    sock.on('error', reject);
  });
}

describe.skipIf(!!TEST_PG)('SIGTERM with SHUTDOWN_DRAIN_MS', () => {
  it('/readyz → 503 draining at once, requests still 200 with Connection: close, then exit 0 after the drain', async () => {
    const dir = migratedDataDir('rova-drain-');
    dirs.push(dir);
    const run = start(process.execPath, rovaArgs('serve'), {
      DATA_DIR: dir,
      HOME: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '1500',
      ROVA_JOBS: 'true',
    });
    try {
      const base = await run.ready;
      const before = await fetch(`${base}/readyz`);
      expect(before.status).toBe(200);
      expect(await before.json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', redis: 'skipped', migrations: 'ok' },
        failed: [],
      });
      // the control: before SIGTERM a kept-alive connection stays open after its response
      expect(await keepAliveGet(base, '/livez', 300)).toEqual({ status: 'HTTP/1.1 200 OK', closedByServer: false });

      const signalled = Date.now();
      run.child.kill('SIGTERM');
      let ready: Response | undefined;
      for (let i = 0; i < 40; i++) {
        ready = await fetch(`${base}/readyz`);
        if (ready.status === 503) break;
        await ready.body?.cancel();
        await new Promise((r) => setTimeout(r, 10));
      }
      const noticed = Date.now() - signalled;
      expect(ready!.status).toBe(503);
      expect(noticed).toBeLessThan(1000);
      expect(ready!.headers.get('connection')).toBe('close');
      expect(await ready!.json()).toEqual({
        status: 'draining',
        checks: { database: 'ok', redis: 'skipped', migrations: 'ok' },
        failed: ['draining'],
      });

      // still serving while the load balancer notices
      const live = await fetch(`${base}/livez`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const api = await fetch(`${base}/wp-json/rova-rental/v1/locations`);
      expect(api.status).toBe(200);
      expect(api.headers.get('connection')).toBe('close');
      expect(((await api.json()) as { success: boolean }).success).toBe(true);
      // the server itself ends a kept-alive connection after the response, so the client reconnects via the LB
      expect(await keepAliveGet(base, '/livez', 1000)).toEqual({ status: 'HTTP/1.1 200 OK', closedByServer: true });

      const exit = await run.exited;
      const took = Date.now() - signalled;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeGreaterThanOrEqual(1500);
      const lines = run
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string });
      const msgs = lines.map((l) => l.msg);
      const at = (m: string) => msgs.findIndex((x) => x.startsWith(m));
      expect(at('draining: /readyz answers 503')).toBeGreaterThan(-1);
      expect(at('drained; shutting down')).toBeGreaterThan(at('draining: /readyz answers 503'));
      expect(at('stopped')).toBeGreaterThan(at('drained; shutting down'));
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    }
  }, 120_000);
});
