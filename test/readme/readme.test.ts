import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { rovaArgs } from '../helpers/rova-process.js';
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { Filters } from '../../src/platform/hooks.js';
import { docsBlocks, parseRecords, prelude, problems, readmeScripts, runnable, type ReadmeBlock } from './blocks.js';
import { DOC_PAGES, docPages, markdownUnderDocs } from './pages.js';
import { freePort } from '../helpers/ports.js';

/**
 * The curl examples of README.md and of every page under docs/ run as written against a fresh demo server: a real
 * `rova serve` process on a free port, embedded database in a temporary DATA_DIR, demo data,
 * ROVA_BOOTSTRAP_ADMIN_KEY exported to the shell as ADMIN_KEY. The shell also has the server's DATA_DIR and a `rova`
 * command on PATH (this checkout's CLI, as `npx rova` in a clone), so an operator's example such as the backup →
 * restore drill of docs/operators/backups.md runs as written; a second server it starts gets a free port in place
 * of the documented 8081. The pages run in the order of DOC_PAGES (pages.ts), in one shell. A drifting example fails here with its block number, page, line, heading, command, status and body.
 * (Once per CI run: the integration suite, which repeats the unit suites on PostgreSQL, skips it.)
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = docPages();
const blocks = docsBlocks(PAGES);
const scripts = PAGES.flatMap((p) => readmeScripts(p.text, p.file));
// The backup drill (backup, restore with migrations and verify, a second server's start) takes ~35 s here.
const BLOCK_TIMEOUT_MS = 150_000;

let dir = '';
let server: ChildProcessWithoutNullStreams | null = null;
let serverLog = '';
let shell: ChildProcessWithoutNullStreams | null = null;
let shellOut = '';
let base = '';
let secondPort = 0;
const adminKey = `readme-admin-${randomBytes(12).toString('hex')}`;

async function waitReady(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server?.exitCode !== null)
      throw new Error(`the server exited (${server?.exitCode}):\n${serverLog.slice(-3000)}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer ${url} within ${ms} ms:\n${serverLog.slice(-3000)}`);
}

/** Runs one block in the shared bash session; resolves with its records and its output. */
function runInShell(n: number, code: string): Promise<{ records: string; output: string }> {
  const file = path.join(dir, `block-${n}.sh`);
  const out = path.join(dir, `block-${n}.out`);
  const rec = path.join(dir, 'records');
  writeFileSync(file, code + '\n');
  writeFileSync(rec, '');
  const done = `__ROVA_BLOCK_DONE_${n}__`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`block ${n} did not finish within ${BLOCK_TIMEOUT_MS} ms (a command waits for input or a server?)`),
        ),
      BLOCK_TIMEOUT_MS,
    );
    const check = () => {
      if (!shellOut.includes(done)) return;
      clearTimeout(timer);
      shell?.stdout.off('data', check);
      shellOut = '';
      resolve({ records: readFileSync(rec, 'utf8'), output: existsSync(out) ? readFileSync(out, 'utf8') : '' });
    };
    shell?.stdout.on('data', check);
    shell?.stdin.write(`source '${file}' > '${out}' 2>&1 < /dev/null; echo ${done}\n`);
  });
}

const d = TEST_PG ? describe.skip : describe;

describe('the documentation pages', () => {
  it('every Markdown file under docs/ is one of the pages whose examples run (test/readme/pages.ts)', () => {
    expect(markdownUnderDocs().filter((f) => !(DOC_PAGES as readonly string[]).includes(f))).toEqual([]);
    expect(DOC_PAGES.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
  });
});

d('documentation examples run as written (README.md and docs/)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rova-readme-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    secondPort = await freePort();
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      ROVA_DEMO: '1',
      ROVA_BOOTSTRAP_ADMIN_KEY: adminKey,
      LOG_LEVEL: 'warn',
      // The outside world: rate sources answer nothing here, so a sync falls back to the bundled file at once.
      FX_EXCHANGERATE_API_URL: 'http://127.0.0.1:9/v4',
      FX_ECB_URL: 'http://127.0.0.1:9/ecb.xml',
    };
    server = spawn(process.execPath, rovaArgs('serve'), { cwd: ROOT, env });
    server.stdout.on('data', (b: Buffer) => (serverLog += b.toString()));
    server.stderr.on('data', (b: Buffer) => (serverLog += b.toString()));
    await waitReady(`${base}/wp-json/`, 240_000);

    // `rova`: this checkout's CLI, as the docs' `rova` (the production shell function, or `npx rova` in a clone)
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    const quote = (a: string) => `'${a.replaceAll("'", `'\\''`)}'`;
    writeFileSync(
      path.join(bin, 'rova'),
      `#!/bin/sh\nexec ${[process.execPath, ...rovaArgs()].map(quote).join(' ')} "$@"\n`,
      { mode: 0o755 },
    );
    // its own process group: a server a block started in the background goes with the shell in afterAll
    shell = spawn('bash', ['--noprofile', '--norc'], {
      cwd: dir,
      detached: true,
      env: {
        PATH: `${bin}${path.delimiter}${env.PATH}`,
        HOME: dir,
        TERM: 'dumb',
        ADMIN_KEY: adminKey,
        LC_ALL: 'C.UTF-8',
        DATA_DIR: env.DATA_DIR,
        LOG_LEVEL: env.LOG_LEVEL,
        FX_EXCHANGERATE_API_URL: env.FX_EXCHANGERATE_API_URL,
        FX_ECB_URL: env.FX_ECB_URL,
      },
    });
    shell.stdout.on('data', (b: Buffer) => (shellOut += b.toString()));
    shell.stdin.write(`export ADMIN_KEY\n${prelude(path.join(dir, 'records'))}\n`);
  }, 300_000);

  afterAll(async () => {
    shell?.stdin.end();
    try {
      if (shell?.pid) process.kill(-shell.pid, 'SIGKILL');
    } catch {
      // the group has gone already
    }
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the curl examples', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(new Set(blocks.map((b) => b.file)).size).toBeGreaterThan(10);
  });

  const title = (b: ReadmeBlock) =>
    `block ${b.n} (${b.file} line ${b.line}, ${b.heading})${b.skip !== null ? ` — skipped: ${b.skip}` : ''}`;
  for (const b of blocks) {
    const run = b.skip !== null ? it.skip : it;
    run(
      title(b),
      async () => {
        const { records, output } = await runInShell(b.n, runnable(b.code, base, secondPort));
        const result = parseRecords(records);
        // The `source` of the block itself fails when its last command did: that command is reported already.
        result.errors = result.errors.filter((e) => !e.command.includes(`block-${b.n}.sh`));
        const found = problems(result).map((p) =>
          p.replaceAll(adminKey, '$ADMIN_KEY').replaceAll(base, 'http://127.0.0.1:8080'),
        );
        const message = [
          `block ${b.n} at ${b.file} line ${b.line} (${b.heading}):`,
          ...found.map((p) => `  - ${p}`),
          '  output (end):',
          output.slice(-1500).replaceAll(adminKey, '$ADMIN_KEY'),
        ].join('\n');
        expect(found, message).toEqual([]);
      },
      BLOCK_TIMEOUT_MS + 5_000,
    );
  }

  describe('JavaScript examples run as written', () => {
    // Each example is written to a file inside the repository (so its imports resolve from node_modules), with the
    // docs' http://127.0.0.1:8080 pointed at the test server, and run the way the page says.
    const jsDir = path.join(ROOT, 'node_modules', '.cache', 'rova-readme-js');
    const write = (file: string, rewrite: (code: string) => string = (c) => c) => {
      const s = scripts.find((x) => x.file === file)!;
      mkdirSync(jsDir, { recursive: true });
      const target = path.join(jsDir, file);
      writeFileSync(target, rewrite(s.code.replaceAll('http://127.0.0.1:8080', base)));
      return target;
    };

    it('every example names its file (first line `// name.mjs`) and each one is run below', () => {
      for (const s of scripts)
        expect(
          s.file,
          `${s.page} line ${s.line}: the block's first line must be a comment naming its .mjs file`,
        ).not.toBe('');
      expect(scripts.map((s) => s.file).sort()).toEqual(['ext-a.mjs', 'receiver.mjs', 'woo.mjs']);
    });

    it('woo.mjs: the official WooCommerce client, with the CK/CS the curl examples created, lists a product', async () => {
      const { output } = await runInShell(900, 'printf "%s %s" "$CK" "$CS"');
      const [ck, cs] = output.trim().split(' ');
      expect(ck).toMatch(/^ck_/);
      const r = spawnSync(process.execPath, [write('woo.mjs')], {
        env: { PATH: process.env.PATH ?? '', CK: ck!, CS: cs! },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^\S.* \d+(\.\d+)?\n$/);
    });

    it('receiver.mjs: accepts a signed delivery (204, logs the event type) and refuses a forged one (400)', async () => {
      const port = await freePort();
      const secret = 'whsec_' + randomBytes(24).toString('base64');
      const file = write('receiver.mjs', (c) => c.replace('.listen(9000,', `.listen(${port},`));
      const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: secret } });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      try {
        const body = JSON.stringify({
          type: 'booking.created',
          timestamp: new Date().toISOString(),
          data: { id: 7, reference: 'RB-TEST' },
        });
        const send = async (sign: string) => {
          const id = `msg_${randomBytes(6).toString('hex')}`;
          const at = new Date();
          for (let i = 0; ; i++) {
            try {
              return (
                await fetch(`http://127.0.0.1:${port}/`, {
                  method: 'POST',
                  body,
                  headers: {
                    'content-type': 'application/json',
                    'webhook-id': id,
                    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
                    'webhook-signature': new Webhook(sign).sign(id, at, body),
                  },
                })
              ).status;
            } catch (err) {
              if (i > 50) throw err;
              await new Promise((r) => setTimeout(r, 100)); // still starting
            }
          }
        };
        expect(await send(secret)).toBe(204);
        expect(await send('whsec_' + randomBytes(24).toString('base64'))).toBe(400);
        expect(out).toContain('booking.created');
      } finally {
        child.kill();
      }
    });

    it('ext-a.mjs: the extension raises the convert limit through the filter the currency service applies', async () => {
      const mod = (await import(pathToFileURL(write('ext-a.mjs')).href)) as {
        default: (p: { filters: Filters }) => void;
      };
      const filters = new Filters();
      mod.default({ filters });
      const limited = filters.apply(
        'rova_fx_convert_rate_limit',
        { limit: 60, windowSeconds: 60 } as never,
        {} as never,
      ) as unknown as { limit: number };
      expect(limited.limit).toBe(1200);
    });
  });
});

describe('documentation examples leave no files behind in fixed places', () => {
  it('no code block writes a fixed /tmp path (examples make their own with mktemp)', () => {
    const fixed = PAGES.flatMap((p) =>
      [...p.text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)]
        .flatMap((m) => (m[1] ?? '').split('\n'))
        .filter((l) => /\/tmp\//.test(l))
        .map((l) => `${p.file}: ${l}`),
    );
    expect(fixed).toEqual([]);
  });
});

describe('documentation links', () => {
  it('every relative link points to a file of this repository; no contract or design files outside it are named', () => {
    const bad: string[] = [];
    for (const p of PAGES) {
      const dir = path.dirname(path.join(ROOT, p.file));
      for (const m of p.text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(path.resolve(dir, target))) bad.push(`${p.file}: ${target}`);
      }
      for (const m of p.text.matchAll(/`((?:spec|design|shared|reference)\/[^`]+\.md)`/g))
        if (!existsSync(path.join(ROOT, m[1] ?? ''))) bad.push(`${p.file}: ${m[1] ?? ''}`);
    }
    expect(bad).toEqual([]);
  });

  it('every link to a heading of a page (page.md#anchor) names a heading that page has', () => {
    const anchor = (h: string) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-');
    const anchors = new Map<string, Set<string>>();
    const of = (file: string) => {
      if (!anchors.has(file)) {
        const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
        const inCode = text.replace(/```[\s\S]*?```/g, '');
        anchors.set(file, new Set([...inCode.matchAll(/^#{1,6}\s+(.*)$/gm)].map((m) => anchor(m[1] ?? ''))));
      }
      return anchors.get(file)!;
    };
    const bad: string[] = [];
    for (const p of PAGES) {
      const here = path.join(ROOT, p.file);
      for (const m of p.text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
        const target = m[1] ? path.resolve(path.dirname(here), m[1]) : here;
        if (/^[a-z]+:/.test(m[1] ?? '') || !target.endsWith('.md')) continue;
        if (!of(target).has(m[2] ?? '')) bad.push(`${p.file}: ${m[1]}#${m[2]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
