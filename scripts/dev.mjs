// `npm run dev`: the API from source with --watch (restarts on change) on PORT (default 8080), and the admin
// app's Vite dev server (hot reload) on ADMIN_DEV_PORT (default 5173) proxying /wp-json to the API, so the admin
// at http://127.0.0.1:5173/admin/ is same-origin with its API as in production. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const apiPort = process.env.PORT ?? '8080';
process.env.ROVA_API_ORIGIN ??= `http://127.0.0.1:${apiPort}`;

const api = spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/main.ts', 'serve'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

const { createServer } = await import('vite');
const vite = await createServer({ configFile: root + 'admin/vite.config.ts' });
await vite.listen();
const url = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${process.env.ADMIN_DEV_PORT ?? 5173}/admin/`;
console.log(`admin (hot reload): ${url}  →  API ${process.env.ROVA_API_ORIGIN}`);

let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  api.kill('SIGTERM');
  await vite.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
api.on('exit', (code) => void stop(code ?? 0));
