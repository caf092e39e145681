import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built storefront file (converter.js, switcher.css, …). */
export interface WebAsset {
  /** Logical (unhashed) name, e.g. `converter.js`. */
  name: string;
  /** Content-hashed file name, e.g. `converter.AN4MTYAR.js` (served with immutable caching). */
  file: string;
  /** Strong validator for ETag. */
  hash: string;
  type: string;
  body: Buffer;
}

export interface WebAssets {
  /** By logical or hashed name. */
  get(name: string): { asset: WebAsset; hashed: boolean } | undefined;
  /** URL path of the hashed file (for pages that embed the scripts). */
  url(name: string): string;
}

export const ASSET_PREFIX = '/assets/rova-fx/';
/** The booking widget (book.js) is served under its own prefix. */
export const BOOK_PREFIX = '/assets/rova-book/';

/** book.js and its content-hashed copies belong under BOOK_PREFIX; everything else under ASSET_PREFIX. */
export function isBookAsset(name: string): boolean {
  return name === 'book.js';
}

interface BuiltFile {
  file: string;
  hash: string;
  type: string;
  contents: Uint8Array;
}
interface ManifestEntry {
  file: string;
  hash: string;
  type: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
// src/modules/storefront or dist/modules/storefront: the repository root is three levels up either way.
const root = path.resolve(here, '../../..');
// Only the build in dist/ serves dist/web; from the sources (or a test transpile of them) the scripts are built in memory.
const runningFromSource = !here.split(path.sep).includes('dist');

function fromFiles(entries: Iterable<[string, { file: string; hash: string; type: string; body: Buffer }]>): WebAssets {
  const byName = new Map<string, WebAsset>();
  const byFile = new Map<string, WebAsset>();
  for (const [name, e] of entries) {
    const a: WebAsset = { name, ...e };
    byName.set(name, a);
    byFile.set(e.file, a);
  }
  return {
    get(name) {
      const h = byFile.get(name);
      if (h) return { asset: h, hashed: true };
      const a = byName.get(name);
      return a ? { asset: a, hashed: false } : undefined;
    },
    url(name) {
      const a = byName.get(name);
      return (isBookAsset(name) ? BOOK_PREFIX : ASSET_PREFIX) + (a ? a.file : name);
    },
  };
}

function readDist(dir: string): WebAssets | null {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestEntry>;
  return fromFiles(
    Object.entries(manifest).map(([name, m]) => [
      name,
      { file: m.file, hash: m.hash, type: m.type, body: readFileSync(path.join(dir, m.file)) },
    ]),
  );
}

async function buildInMemory(): Promise<WebAssets> {
  const script = path.join(root, 'scripts/build-web.mjs');
  const mod = (await import(pathToHref(script))) as {
    buildWeb(o: { write?: boolean }): Promise<{ files: Record<string, BuiltFile> }>;
  };
  const { files } = await mod.buildWeb({ write: false });
  return fromFiles(
    Object.entries(files).map(([name, f]) => [
      name,
      { file: f.file, hash: f.hash, type: f.type, body: Buffer.from(f.contents) },
    ]),
  );
}

function pathToHref(p: string): string {
  return new URL('file://' + p.split(path.sep).join('/')).href;
}

let loading: Promise<WebAssets> | null = null;

/**
 * The storefront scripts: dist/web (from `npm run build`) when running the built server, else built on the fly
 * with esbuild (running from source: tests, `npm run dev`; or dist/web missing). Built once per process.
 */
export function webAssets(): Promise<WebAssets> {
  loading ??= (async () => {
    const dist = runningFromSource ? null : readDist(path.join(root, 'dist/web'));
    return dist ?? (await buildInMemory());
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
