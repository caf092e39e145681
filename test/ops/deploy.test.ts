import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';
import { allDocs } from '../readme/pages.js';

// The files of deploy/ are what docs/operators/production.md and several-nodes.md tell an operator to install: each is
// checked by the tool that will read it.
const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy');
const has = (bin: string) => existsSync(bin);

describe('deploy/', () => {
  it.skipIf(!has('/usr/sbin/haproxy'))(
    'haproxy.cfg is valid for HAProxy (health check on /readyz, three nodes)',
    () => {
      const r = spawnSync('/usr/sbin/haproxy', ['-c', '-f', path.join(DEPLOY, 'haproxy.cfg')], { encoding: 'utf8' });
      expect(r.status, r.stderr + r.stdout).toBe(0);
      const cfg = readFileSync(path.join(DEPLOY, 'haproxy.cfg'), 'utf8');
      expect(cfg).toMatch(/http-check send meth GET uri \/readyz/);
      expect(cfg.match(/^\s+server node\d 127\.0\.0\.1:808\d check$/gm)).toHaveLength(3);
    },
  );

  it.skipIf(!has('/usr/bin/systemd-analyze'))('rova@.service passes systemd-analyze verify', () => {
    const r = spawnSync('/usr/bin/systemd-analyze', ['verify', '--man=no', path.join(DEPLOY, 'rova@.service')], {
      encoding: 'utf8',
    });
    // a missing /opt/rova or user on this machine is not the unit's fault; anything else is
    const problems = (r.stderr + r.stdout)
      .split('\n')
      .filter(
        (l) =>
          l.trim() &&
          !/\/opt\/rova|\/usr\/bin\/node|rova\.env|User=rova|Failed to prepare filename|is not executable|No such file/.test(
            l,
          ),
      );
    expect(problems).toEqual([]);
  });

  it('rova.env.example names only settings the docs document (a row of a settings table), and the drain outlasts the health check', () => {
    const readme = allDocs();
    const env = readFileSync(path.join(DEPLOY, 'rova.env.example'), 'utf8');
    const keys = [...env.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(8);
    for (const k of keys) expect(readme, k).toContain(`| \`${k}\` |`);
    const drain = Number(/^SHUTDOWN_DRAIN_MS=(\d+)/m.exec(env)![1]);
    const cfg = readFileSync(path.join(DEPLOY, 'haproxy.cfg'), 'utf8');
    const [, inter, fall] = /inter (\d+)s fall (\d+)/.exec(cfg)!;
    expect(drain).toBeGreaterThan(Number(inter) * 1000 * Number(fall));
    const unit = readFileSync(path.join(DEPLOY, 'rova@.service'), 'utf8');
    const stopSec = Number(/^TimeoutStopSec=(\d+)/m.exec(unit)![1]);
    const timeout = Number(/^SHUTDOWN_TIMEOUT_MS=(\d+)/m.exec(env)![1]);
    expect(stopSec * 1000).toBeGreaterThan(drain + timeout);
  });

  it('npm start and rova@.service run the server with the V8 flags of scripts/server-flags.mjs (the benches use them too)', () => {
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    const start = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts.start!;
    expect(start).toBe(`exec node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`);
    const unit = readFileSync(path.join(DEPLOY, 'rova@.service'), 'utf8');
    expect(/^ExecStart=(.*)$/m.exec(unit)![1]).toBe(
      `/usr/bin/node ${SERVER_NODE_FLAGS.join(' ')} /opt/rova/dist/main.js serve`,
    );
  });
});
