// `npm run lint:openapi`: generates the OpenAPI document from the sources (in-memory database, no server) and
// lints it with Redocly CLI against redocly.yaml. Exit code: Redocly's (non-zero on any error).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { buildApp } = await import('../src/app.ts');
const { loadConfig } = await import('../src/config.ts');

const config = { ...loadConfig({ LOG_LEVEL: 'silent' }, { ephemeral: true }), jobs: false };
const { app } = await buildApp(config, { logger: false });
const doc = await app.inject({ method: 'GET', url: '/openapi.json' });
await app.close();

const dir = mkdtempSync(join(tmpdir(), 'rova-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(JSON.parse(doc.body), null, 2)); // pretty: Redocly then points at readable lines
const r = spawnSync(
  process.execPath,
  [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(root, 'redocly.yaml')],
  {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
rmSync(dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
