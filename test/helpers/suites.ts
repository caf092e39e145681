import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which test files the PostgreSQL + Redis run repeats. A file that already ran on PGlite runs again there only when
 * it says why on its first line: `// @integration: <what depends on PostgreSQL or Redis>` (concurrency between
 * connections, state kept in Redis, server-side SQL behaviour). test/integration/** runs there only.
 */
export const INTEGRATION_MARK = /^\/\/ @integration: (.+)$/;

export function testFiles(root: string, dir = 'test'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...testFiles(root, rel));
    else if (e.name.endsWith('.test.ts')) out.push(rel);
  }
  return out.sort();
}

/** Files of the unit tree marked to run again on PostgreSQL + Redis, with their reasons. */
export function markedForIntegration(root: string): Map<string, string> {
  const marked = new Map<string, string>();
  for (const f of testFiles(root)) {
    if (f.startsWith('test/integration/') || f.startsWith('test/browser/')) continue;
    const first = readFileSync(path.join(root, f), 'utf8').split('\n', 1)[0] ?? '';
    const m = INTEGRATION_MARK.exec(first);
    if (m?.[1]) marked.set(f, m[1]);
  }
  return marked;
}

/**
 * Files that measure their own process (memory growth): they run in a fresh process. In the shared worker
 * (`isolate: false`) the resident size also carries the heap slack and buffers left by every earlier file — the
 * export's 31 MB stream measured 2–9 MB of growth alone and 85–118 MB after twenty other files on Node 24.
 */
export const OWN_PROCESS = ['test/rental/export/large.test.ts'];
