// The server's JavaScript: every src/**/*.ts transpiled one to one (esbuild strips the types; it does not bundle),
// src/web excepted (the browser scripts are bundled by build-web.mjs). Types are checked by `npm run typecheck`,
// not here: a first `npm start` waits seconds for this instead of a whole type check.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

function sources(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'web' || path.basename(dir) !== 'src') sources(p, out);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Transpiles `root`/src into `outdir` (its earlier server files removed first); returns the entry (`outdir`/main.js). */
export async function buildServer(root, outdir, { sourcemap = true } = {}) {
  // the browser scripts and the admin app are built into the same directory by their own steps
  if (existsSync(outdir))
    for (const e of readdirSync(outdir))
      if (e !== 'web' && e !== 'admin') rmSync(path.join(outdir, e), { recursive: true, force: true });
  await build({
    entryPoints: sources(path.join(root, 'src')),
    outdir,
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap,
    logLevel: 'warning',
  });
  return path.join(outdir, 'main.js');
}
