import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('admin typed client', () => {
  it('admin/src/api/schema.d.ts is generated from the current routes (run `npm run admin:api` after changing one)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin-api.mjs', '--check'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr + r.stdout).not.toContain('stale');
    expect(r.status).toBe(0);
  }, 120_000);
});
