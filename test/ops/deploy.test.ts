import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';
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
    const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=\${${k}:-${v}}`);
    expect(start).toBe(`${env.join(' ')} exec node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`);
    const unit = readFileSync(path.join(DEPLOY, 'rova@.service'), 'utf8');
    expect(/^ExecStart=(.*)$/m.exec(unit)![1]).toBe(
      `/usr/bin/node ${SERVER_NODE_FLAGS.join(' ')} /opt/rova/dist/main.js serve`,
    );
    for (const [k, v] of Object.entries(SERVER_ENV)) expect(unit).toMatch(new RegExp(`^Environment=${k}=${v}$`, 'm'));
  });

  it('the Containerfile starts node as PID 1 with the same flags, as user 10001, with /readyz as its health check', () => {
    const file = readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
    expect(JSON.parse(/^ENTRYPOINT (.*)$/m.exec(file)![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/main.js']);
    expect(/^CMD (.*)$/m.exec(file)![1]).toBe('["serve"]');
    expect(file).toMatch(/^USER 10001:10001$/m);
    for (const [k, v] of Object.entries(SERVER_ENV)) expect(file).toMatch(new RegExp(`^ENV ${k}=${v}$`, 'm'));
    expect(file).toMatch(/^VOLUME \/var\/lib\/rova$/m);
    expect(file).toMatch(/^ARG BASE=docker\.io\/library\/node:24-trixie-slim$/m);
    expect(file).toMatch(
      /^HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:'[^\n]*\/readyz'\)/m,
    );
  });

  interface KubeContainer {
    image: string;
    args: string[];
    ports: Array<{ name: string }>;
    env: Array<{ name: string; value: string }>;
    envFrom: Array<{ secretRef: { name: string } }>;
    readinessProbe: { httpGet: unknown };
    livenessProbe: { httpGet: unknown };
    resources: { requests: { memory: string } };
  }
  interface KubeDoc {
    kind: string;
    metadata: { name: string };
    spec: {
      template: {
        spec: {
          containers: KubeContainer[];
          restartPolicy?: string;
          securityContext?: object;
          terminationGracePeriodSeconds: number;
        };
      };
      selector: { matchLabels?: Record<string, string> } & Record<string, unknown>;
      ports: Array<{ targetPort: string }>;
    };
  }
  const kube = (): KubeDoc[] =>
    readdirSync(path.join(DEPLOY, 'kube'))
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => YAML.parseAllDocuments(readFileSync(path.join(DEPLOY, 'kube', f), 'utf8')).map((d) => d.toJS()));

  it('deploy/kube: a Deployment probed on /readyz and /livez with memory requests, its Service, a migration Job', () => {
    const docs = kube();
    const of = (kind: string) => docs.find((d) => d.kind === kind)!;
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'Job', 'Secret', 'Service']);
    const pod = of('Deployment').spec.template;
    const ctr = pod.spec.containers[0]!;
    expect(ctr.args).toEqual(['serve']);
    expect(ctr.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(ctr.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(ctr.resources.requests.memory).toMatch(/^\d+Mi$/);
    expect(ctr.envFrom[0]!.secretRef.name).toBe(of('Secret').metadata.name);
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
    // the pod must be given longer than the drain and the shutdown timeout before SIGKILL
    const env = Object.fromEntries(ctr.env.map((e) => [e.name, Number(e.value)]));
    expect(pod.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
      env.SHUTDOWN_DRAIN_MS! + env.SHUTDOWN_TIMEOUT_MS!,
    );
    const service = of('Service');
    expect(service.spec.selector).toEqual(of('Deployment').spec.selector.matchLabels);
    expect(ctr.ports.map((p) => p.name)).toContain(service.spec.ports[0]!.targetPort);
    const job = of('Job').spec.template.spec;
    expect(job.restartPolicy).toBe('Never');
    expect(job.containers[0]!.args).toEqual(['migrate']);
    expect(job.containers[0]!.image).toBe(ctr.image);
  });

  it('deploy/compose.yaml: Rova from the Containerfile on PostgreSQL and Redis, every service with a health check; profile ha puts two nodes behind HAProxy', () => {
    const compose = YAML.parse(readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<
        string,
        {
          build?: { dockerfile: string };
          image?: string;
          healthcheck?: { test: string[] };
          profiles?: string[];
          env_file?: string;
          depends_on?: Record<string, unknown>;
        }
      >;
    };
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['haproxy', 'postgres', 'redis', 'rova', 'rova-1', 'rova-2']);
    for (const name of ['rova', 'rova-1', 'rova-2']) {
      expect(s[name]!.build!.dockerfile).toBe('Containerfile');
      expect(s[name]!.healthcheck!.test.join(' ')).toContain('/readyz');
      expect(s[name]!.env_file).toBe('compose.env');
      expect(Object.keys(s[name]!.depends_on!).sort()).toEqual(['postgres', 'redis']);
    }
    for (const name of ['postgres', 'redis']) expect(s[name]!.healthcheck).toBeDefined();
    // `rova backup` in the container: the image's pg_dump (PG_MAJOR) refuses a server newer than itself
    const containerfile = readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
    const clientMajor = Number(/^ARG PG_MAJOR=(\d+)$/m.exec(containerfile)?.[1]);
    const serverMajor = Number(/^docker\.io\/library\/postgres:(\d+)$/.exec(s.postgres!.image ?? '')?.[1]);
    expect(serverMajor).toBeGreaterThan(0);
    expect(clientMajor).toBeGreaterThanOrEqual(serverMajor);
    for (const name of ['rova-1', 'rova-2', 'haproxy']) expect(s[name]!.profiles).toEqual(['ha']);
    const cfg = readFileSync(path.join(DEPLOY, 'compose-haproxy.cfg'), 'utf8');
    expect(cfg.match(/^\s+server node\d (rova-\d):8080 check$/gm)).toEqual([
      '    server node1 rova-1:8080 check',
      '    server node2 rova-2:8080 check',
    ]);
    expect(cfg).toMatch(/http-check send meth GET uri \/readyz/);
    if (has('/usr/sbin/haproxy')) {
      const r = spawnSync('/usr/sbin/haproxy', ['-c', '-f', path.join(DEPLOY, 'compose-haproxy.cfg')], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr + r.stdout).toBe(0);
    }
  });
});
