// Builds the admin app (admin/ → dist/admin/, Vite) and prints every JS chunk's size; fails when the shell's
// first-load JavaScript (the entry and the chunks index.html preloads) is over the 250 KB gzip budget.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN_OUT = path.join(root, 'dist/admin');
export const SHELL_BUDGET = 250 * 1024;

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Sizes of the built app: every JS file, and the first-load set referenced by index.html. */
export function adminSizes(dir = ADMIN_OUT) {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const firstLoad = new Set([...html.matchAll(/(?:src|href)="\/admin\/assets\/([^"]+\.js)"/g)].map((m) => m[1]));
  const files = readdirSync(path.join(dir, 'assets'))
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .map((f) => {
      const buf = readFileSync(path.join(dir, 'assets', f));
      return { file: f, bytes: buf.length, gzip: gz(buf), firstLoad: firstLoad.has(f) };
    })
    .sort((a, b) => Number(b.firstLoad) - Number(a.firstLoad) || b.gzip - a.gzip);
  const shellGzip = files.filter((f) => f.firstLoad).reduce((s, f) => s + f.gzip, 0);
  return { files, shellGzip };
}

export async function buildAdmin({ quiet = false } = {}) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'admin/vite.config.ts'), logLevel: quiet ? 'silent' : 'warn' });
  return adminSizes();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, shellGzip } = await buildAdmin();
  for (const f of files)
    console.log(
      `dist/admin/assets/${f.file}  ${kb(f.bytes)}, ${kb(f.gzip)} gzip${f.firstLoad ? '  (first load)' : ''}`,
    );
  console.log(`admin shell first-load JS: ${kb(shellGzip)} gzip (budget ${kb(SHELL_BUDGET)})`);
  if (shellGzip > SHELL_BUDGET) {
    console.error(
      `admin shell first-load JS ${kb(shellGzip)} gzip exceeds the ${kb(SHELL_BUDGET)} budget: move code into lazy screen chunks`,
    );
    process.exit(1);
  }
}
