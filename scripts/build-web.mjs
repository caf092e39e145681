// Bundles the storefront scripts (src/web → dist/web/) with content-hashed names and a manifest:
// the currency scripts (src/web/*.ts, served under /assets/rova-fx/) and the booking widget
// (src/web/book/book.ts → book.js, served under /assets/rova-book/).
// `node scripts/build-web.mjs` writes dist/web/; the server imports buildWeb({write:false}) to build in memory
// when dist/web is missing (tests, `npm run dev`).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
export const WEB_ENTRIES = ['converter.ts', 'switcher.ts', 'widget.ts', 'switcher.css', 'widget.css', 'book/book.ts'];
/** min+gzip budgets in bytes: the build fails above them. */
export const BUDGETS = { 'converter.js': 6 * 1024, 'book.js': 40 * 1024 };

/**
 * @param {{ write?: boolean, outdir?: string }} [opts]
 * @returns {Promise<{ files: Record<string, { file: string, hash: string, type: string, contents: Uint8Array }> }>}
 *   keyed by the logical name (converter.js, switcher.css, …)
 */
export async function buildWeb(opts = {}) {
  const esbuild = await import('esbuild');
  const outdir = opts.outdir ?? path.join(root, 'dist/web');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: WEB_ENTRIES.map((e) => path.join(root, 'src/web', e)),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    entryNames: '[name].[hash]',
    outdir,
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files = {};
  for (const out of result.outputFiles) {
    const rel = path.relative(root, out.path).split(path.sep).join('/');
    const meta = result.metafile.outputs[rel];
    if (!meta?.entryPoint) continue;
    const ext = path.extname(out.path);
    const logical = path.basename(meta.entryPoint).replace(/\.(ts|css)$/, '') + ext;
    const hash = createHash('sha256').update(out.contents).digest('base64url').slice(0, 16);
    files[logical] = {
      file: path.basename(out.path),
      hash,
      type: ext === '.css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      contents: out.contents,
    };
  }
  if (opts.write) {
    rmSync(outdir, { recursive: true, force: true });
    mkdirSync(outdir, { recursive: true });
    const manifest = {};
    for (const [logical, f] of Object.entries(files)) {
      writeFileSync(path.join(outdir, f.file), f.contents);
      manifest[logical] = {
        file: f.file,
        hash: f.hash,
        type: f.type,
        bytes: f.contents.length,
        gzip: gzipSync(f.contents, { level: 9 }).length,
      };
    }
    writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  }
  return { files };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files } = await buildWeb({ write: true });
  for (const [logical, f] of Object.entries(files)) {
    console.log(
      `dist/web/${f.file}  (${logical}) ${f.contents.length} B, ${gzipSync(f.contents, { level: 9 }).length} B gzip`,
    );
  }
  for (const [logical, budget] of Object.entries(BUDGETS)) {
    const f = files[logical];
    const size = f ? gzipSync(f.contents, { level: 9 }).length : Infinity;
    if (size > budget) {
      console.error(
        `${logical} ${f ? `is ${size} B gzip and exceeds` : 'is missing: cannot check'} the ${budget / 1024} KB min+gzip budget`,
      );
      process.exit(1);
    }
    console.log(`${logical}: ${size} B gzip of ${budget} B budget`);
  }
}
