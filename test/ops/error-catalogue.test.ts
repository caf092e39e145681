import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A catalogue is a file named errors.ts: the only place an HTTP error is declared. */
const isCatalogue = (rel: string) => path.basename(rel) === 'errors.ts';

/** `file:line` of every match of `re` outside the catalogues. */
function outsideCatalogues(re: RegExp): string[] {
  return sourceFiles(SRC).flatMap((file) => {
    const rel = path.relative(SRC, file);
    if (isCatalogue(rel)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (re.test(line) ? [`${rel}:${i + 1}`] : []));
  });
}

describe('one error catalogue per namespace', () => {
  it('no HttpError is built outside a catalogue', () => {
    expect(outsideCatalogues(/new HttpError\(/)).toEqual([]);
  });

  it('no catalogue entry is declared outside a catalogue', () => {
    expect(outsideCatalogues(/\berrorKind\(/)).toEqual([]);
  });

  // (the browser code under web/ reads HTTP answers: their statuses are its input, not errors of ours)
  it('nothing on the server tells an error apart by its HTTP status', () => {
    expect(outsideCatalogues(/\.status\s*[!=]==\s*4\d\d\b/).filter((hit) => !hit.startsWith('web/'))).toEqual([]);
  });
});
