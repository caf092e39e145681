// `npm start`: build when sources are newer than dist/, then serve (demo data on a fresh database) IN THIS
// PROCESS: no child to orphan, so SIGTERM/SIGINT sent to this process (or forwarded by npm) reach the server,
// which shuts down gracefully and exits with its own code.
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const entry = ensureBuilt();
process.env.ROVA_DEMO ??= '1';
process.argv.splice(1, process.argv.length - 1, entry, 'serve', ...process.argv.slice(2));
await import(pathToFileURL(entry).href);

// Under npm (`exec` in the start script makes this process npm's child, so npm's SIGTERM/SIGINT forwarding
// reaches it): when npm itself dies without forwarding (SIGKILL), stop too instead of living on as an orphan
// that holds the port and the database lock.
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
}
