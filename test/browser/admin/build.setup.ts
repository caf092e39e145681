import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Vitest global setup of the browser suite: the admin tests drive the BUILT app (dist/admin), as users get it. */
export default function setup(): void {
  const index = path.join(root, 'dist/admin/index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newest(path.join(root, 'admin'))) return;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-admin.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('admin build failed');
}
