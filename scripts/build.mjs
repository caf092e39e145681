// Builds the server (esbuild, one file per source → dist/; `npm run typecheck` checks the types), the browser
// scripts (esbuild → dist/web/, when src/web exists) and the admin app (Vite → dist/admin/, when admin/ exists;
// fails over the shell's JS budget).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  await buildServer(root, root + 'dist');
} catch (err) {
  console.error(`build: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
if (existsSync(root + 'scripts/build-web.mjs')) {
  const web = spawnSync(process.execPath, [root + 'scripts/build-web.mjs'], { stdio: 'inherit' });
  if (web.status !== 0) process.exit(web.status ?? 1);
}
if (existsSync(root + 'admin/index.html')) {
  const admin = spawnSync(process.execPath, [root + 'scripts/build-admin.mjs'], { stdio: 'inherit' });
  if (admin.status !== 0) process.exit(admin.status ?? 1);
}
