#!/usr/bin/env node
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version') {
  // answered before the app's modules load: a version check takes no more than starting Node
  process.stdout.write(`rova ${VERSION}\n`);
} else {
  const { runRova } = await import('./cli/run.js');
  const code = await runRova(argv, process.env, process);
  if (code >= 0) process.exit(code);
}
