import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Tests that start Rova as a child process (CLI commands, `rova serve`) run the sources transpiled once per test run
 * into `.test-dist/` (same depth as src/, so paths relative to a module resolve alike) instead of through tsx in
 * every child: a child starts in about a second instead of several. esbuild only strips types; `npm run typecheck`
 * checks them.
 */
export const TEST_DIST = '.test-dist';

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      // browser scripts are bundled separately (scripts/build-web.mjs)
      if (e.name !== 'web' || path.basename(dir) !== 'src') sources(p, out);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Transpiles src/ into .test-dist/ and returns the CLI entry (`.test-dist/main.js`). */
export async function transpileForChildren(root: string): Promise<string> {
  const outdir = path.join(root, TEST_DIST);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: sources(path.join(root, 'src')),
    outdir,
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return path.join(outdir, 'main.js');
}
