import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markedForIntegration, OWN_PROCESS, testFiles } from '../helpers/suites.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('which suite runs a test file', () => {
  const marked = markedForIntegration(ROOT);
  const files = testFiles(ROOT).filter((f) => !f.startsWith('test/integration/') && !f.startsWith('test/browser/'));

  it('a file that only runs on PostgreSQL or Redis is marked for the integration run (otherwise it runs nowhere)', () => {
    const onlyThere = files.filter((f) =>
      /skipIf\(\s*!TEST_PG|skipIf\(\s*!TEST_REDIS/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(onlyThere.length).toBeGreaterThan(0);
    expect(onlyThere.filter((f) => !marked.has(f))).toEqual([]);
  });

  it('every mark is on the first line and gives a reason', () => {
    const misplaced = files.filter((f) => {
      const lines = readFileSync(path.join(ROOT, f), 'utf8').split('\n');
      return lines.slice(1).some((l) => l.startsWith('// @integration'));
    });
    expect(misplaced).toEqual([]);
    for (const [f, why] of marked) expect(why.trim().length, f).toBeGreaterThan(15);
  });

  it("a file that measures process memory runs in a process of its own (the shared worker carries earlier files' slack)", () => {
    const measuring = testFiles(ROOT).filter((f) =>
      /process\.memoryUsage\(/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(measuring.length).toBeGreaterThan(0);
    expect(measuring.filter((f) => !OWN_PROCESS.includes(f))).toEqual([]);
  });
});
