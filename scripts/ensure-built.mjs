// Builds dist/ when it is missing or older than the sources (used by `npm start` and the `rova` launcher).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const entry = join(root, 'dist', 'main.js');

const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};

/** Returns the entry point, building first when needed; exits the process when the build fails. */
export function ensureBuilt() {
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  // A package installed without its sources (no src/) runs the dist/ it ships.
  if (built && !existsSync(join(root, 'src'))) return entry;
  // The admin app counts too: its sources (admin/) against its own output.
  const admin = existsSync(join(root, 'admin', 'index.html'));
  const adminBuilt = existsSync(join(root, 'dist', 'admin', 'index.html'))
    ? statSync(join(root, 'dist', 'admin', 'index.html')).mtimeMs
    : 0;
  const adminStale = admin && (!adminBuilt || newest(join(root, 'admin')) > adminBuilt);
  if (
    !built ||
    adminStale ||
    newest(join(root, 'src')) > built ||
    statSync(join(root, 'package.json')).mtimeMs > built
  ) {
    const t0 = Date.now();
    process.stderr.write(
      'rova: building the server, the browser scripts and the admin app (sources changed or first start)…\n',
    );
    // stdout of the build goes to stderr: `rova apikey create` must print only the key on stdout.
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 2, 'inherit'] });
    if (r.status !== 0) process.exit(r.status ?? 1);
    process.stderr.write(`rova: built in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return entry;
}
