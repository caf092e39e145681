#!/usr/bin/env node
// The `rova` command (package.json "bin"): builds dist/ on demand, so `npx rova …` works on a fresh clone,
// then runs the CLI in this process (signals reach it directly).
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const entry = ensureBuilt();
process.argv.splice(1, 1, entry);
await import(pathToFileURL(entry).href);
