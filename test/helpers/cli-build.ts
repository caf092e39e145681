import { rmSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error -- a plain ES module of the build scripts, shared with `npm run build`
import { buildServer } from '../../scripts/build-server.mjs';

/**
 * Tests that start Rova as a child process (CLI commands, `rova serve`) run the sources transpiled once per test run
 * into `.test-dist/` (same depth as src/, so paths relative to a module resolve alike) instead of through tsx in
 * every child: a child starts in about a second instead of several.
 */
export const TEST_DIST = '.test-dist';

/** Transpiles src/ into .test-dist/ and returns the CLI entry (`.test-dist/main.js`). */
export async function transpileForChildren(root: string): Promise<string> {
  const outdir = path.join(root, TEST_DIST);
  rmSync(outdir, { recursive: true, force: true });
  return (buildServer as (root: string, outdir: string, o: { sourcemap: 'inline' }) => Promise<string>)(root, outdir, {
    sourcemap: 'inline',
  });
}
