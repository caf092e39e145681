// `npm run bench -- <scenario> [--duration S] [--connections N]` runs bench/<scenario>.ts with tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${scenario}.ts`, ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
