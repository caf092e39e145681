// `npm run bench -- <scenario> [--duration S] [--connections N]` runs bench/<scenario>.ts.
// The servers under test run what `npm start` runs: dist/ (built first when older than the sources), in plain Node,
// not under tsx — tsx's loader thread and transforms added ~100 MB to the server's resident memory, which the
// memory figures would have carried. So the bench files are transpiled one to one into .bench-build/bench/, beside
// links src → dist and scripts → scripts: their `../src/…js` imports reach the built server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureBuilt, root } from '../scripts/ensure-built.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const [scenario, ...rest] = process.argv.slice(2);
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!scenario || !/^[a-z0-9-]+$/.test(scenario) || !existsSync(`${dir}${scenario}.ts`)) {
  process.stderr.write(
    `usage: npm run bench -- <scenario> [--duration S] [--connections N]\nscenarios: ${available.join(', ') || '(none)'}\n`,
  );
  process.exit(2);
}
ensureBuilt();
const out = path.join(root, '.bench-build');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
symlinkSync(path.join(root, 'dist'), path.join(out, 'src'), 'dir');
symlinkSync(path.join(root, 'scripts'), path.join(out, 'scripts'), 'dir');
const sources = (d) =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && e.name !== 'results'
      ? sources(path.join(d, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
        ? [path.join(d, e.name)]
        : [],
  );
await build({
  entryPoints: sources(dir),
  outdir: path.join(out, 'bench'),
  outbase: dir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [path.join(out, 'bench', `${scenario}.js`), ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
