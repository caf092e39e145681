import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every relative import of every file under src/ (type-only imports and re-exports count: they couple too). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps: string[] = [];
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), ref.fileName);
      const candidates = [
        base.replace(/\.js$/, '.ts'),
        base.replace(/\.js$/, '.tsx'),
        base,
        base + '.ts',
        path.join(base, 'index.ts'),
      ];
      const hit = candidates.find((c) => known.has(c));
      if (hit) deps.push(hit);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.map((f) => path.relative(SRC, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('module wiring', () => {
  it('src/ has no import circle (type imports included)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(circles(graph)).toEqual([]);
  });

  it('the contracts file imports nothing above it', () => {
    const deps = importGraph().get(path.join(SRC, 'modules', 'types.ts')) ?? [];
    const above = deps.map((d) => path.relative(SRC, d)).filter((d) => !d.startsWith('platform/') && d !== 'config.ts');
    expect(above).toEqual([]);
  });
});

/** The module a file under src/modules/<name>/ belongs to (null for src/modules/index.ts, types.ts and outside). */
function moduleOf(file: string): string | null {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null;
}

const rel = (f: string) => path.relative(SRC, f);
const isRoutes = (f: string) => /(^|-)routes\.ts$/.test(path.basename(f));
const isRepo = (f: string) => /(^|-)repo\.ts$/.test(path.basename(f));
const isService = (f: string) => /(^|-)service\.ts$/.test(path.basename(f));

describe('where things go (docs/contributors/architecture.md)', () => {
  const graph = importGraph();

  it('a module uses another only through its index.ts', () => {
    const crossings = [...graph].flatMap(([file, deps]) =>
      deps
        .filter((d) => moduleOf(file) && moduleOf(d) && moduleOf(d) !== moduleOf(file))
        .filter((d) => path.relative(path.join(SRC, 'modules', moduleOf(d)!), d) !== 'index.ts')
        .map((d) => `${rel(file)} → ${rel(d)}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the platform imports no module', () => {
    const up = [...graph].flatMap(([file, deps]) =>
      rel(file).startsWith('platform/')
        ? deps.filter((d) => rel(d).startsWith('modules/') && rel(d) !== 'modules/types.ts').map((d) => rel(d))
        : [],
    );
    expect(up).toEqual([]);
  });

  it('a request goes routes → service → repository: no route file imports a repository', () => {
    const skips = [...graph].flatMap(([file, deps]) =>
      isRoutes(file) ? deps.filter(isRepo).map((d) => `${rel(file)} → ${rel(d)}`) : [],
    );
    expect(skips).toEqual([]);
  });

  it('services hold rules, not SQL: no service file imports drizzle-orm', () => {
    const sqlInServices = sourceFiles(SRC)
      .filter(isService)
      .filter((f) =>
        ts.preProcessFile(readFileSync(f, 'utf8'), true, true).importedFiles.some((r) => r.fileName === 'drizzle-orm'),
      )
      .map(rel);
    expect(sqlInServices).toEqual([]);
  });
});
