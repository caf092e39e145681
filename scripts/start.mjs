// `npm start`: build when sources are newer than dist/, then serve with demo data on a fresh database.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const entry = join(root, 'dist', 'main.js');
const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
if (!built || newest(join(root, 'src')) > built || statSync(join(root, 'package.json')).mtimeMs > built) {
  console.error('rova: building…');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const env = { ...process.env, ROVA_DEMO: process.env.ROVA_DEMO ?? '1' };
const r = spawnSync(process.execPath, [entry, 'serve', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
