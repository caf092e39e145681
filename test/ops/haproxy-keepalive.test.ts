import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { hasHaproxy, startBalancer, type Balancer } from '../helpers/haproxy.js';

// A Rova node says "Keep-Alive: timeout=72" (Fastify's keep-alive of 72 s): true of the node's side of HAProxy's
// pooled connections. HAProxy passed it on to clients although it closes an idle client connection itself after
// `timeout http-keep-alive` (10 s), so Node's fetch (undici) kept its sockets ~70 s and a request written as HAProxy
// closed one failed with "other side closed", logged nowhere (the scale test's rolling restart of 2026-11-28, CI of
// stop 50). The balancer must promise clients less than it keeps.

const configs = ['deploy/haproxy.cfg', 'deploy/compose-haproxy.cfg'];
const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8');
/** `timeout http-keep-alive` of a config, in seconds. */
const clientIdleSeconds = (cfg: string) => {
  const m = /^\s*timeout http-keep-alive (\d+)s$/m.exec(cfg);
  if (!m) throw new Error('no "timeout http-keep-alive <n>s" line');
  return Number(m[1]);
};

describe('deploy/*haproxy.cfg: the keep-alive promised to clients', () => {
  it.each(configs)('%s tells clients a keep-alive at most half of its own idle timeout', (file) => {
    const cfg = read(file);
    const told = /^\s*http-response set-header Keep-Alive timeout=(\d+)$/m.exec(cfg);
    expect(told, `${file} sets the Keep-Alive header of its responses`).not.toBeNull();
    expect(Number(told![1]) * 2).toBeLessThanOrEqual(clientIdleSeconds(cfg));
  });
});

describe.skipIf(!hasHaproxy())('deploy/haproxy.cfg in front of a Rova node', () => {
  let t: TestApp;
  let lb: Balancer;
  beforeAll(async () => {
    t = await makeApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    lb = await startBalancer([(t.app.server.address() as AddressInfo).port], 20_000);
  }, 60_000);
  afterAll(async () => {
    await lb?.stop();
    await t?.close();
  });

  it("answers with the balancer's keep-alive, not the node's", async () => {
    const direct = await fetch(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/livez`);
    expect(direct.status).toBe(200);
    // what the node says of itself (and why the balancer must not pass it on)
    expect(direct.headers.get('keep-alive')).toBe('timeout=72');
    const r = await fetch(`${lb.url}/livez`);
    expect(r.status).toBe(200);
    expect(r.headers.get('keep-alive')).toBe('timeout=5');
  });
});
