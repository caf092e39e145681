import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { migratedDataDir, rovaArgs } from '../helpers/rova-process.js';
import { start } from '../ops/spawn.js';

// `rova setup` (issue 20): the first administrator of a production installation, and the start's hint while there is
// none. The CLI runs as a child process on the embedded database, as an operator runs it.
const dirs: string[] = [];
const fresh = () => {
  const d = migratedDataDir('rova-setup-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: dataDir,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  PORT: '8099',
  ...extra,
});
// What a command does runs in-process (src/cli/run.ts, the binary's own entry); the terminal and the start stay real
const rova = (args: string[], e: Record<string, string>, input?: string) => rovaInProcess(args, e, { stdin: input });

describe.skipIf(!!TEST_PG)('rova setup', () => {
  it('with flags: creates the administrator, prints the admin URL and the next steps on stdout; a second run refuses (exit 1)', async () => {
    const d = fresh();
    const r = await rova(
      ['setup', '--login', 'owner', '--email', 'owner@example.test', '--password', 'a long enough password'],
      env(d),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      'administrator "owner" created',
      'Admin app: http://127.0.0.1:8099/admin — log in as "owner" with the password you chose',
      'Next steps:',
    ]);
    expect(r.stdout).toContain('npx rova apikey create --user owner --name ci');
    // the next step says what the key it suggests may do
    expect(r.stdout).toContain(
      'an API key for scripts and integrations, allowed to read and write: npx rova apikey create --user owner --name ci --scopes read,write',
    );
    expect(r.stdout).not.toContain('a long enough password');
    const again = await rova(
      ['setup', '--login', 'second', '--email', 'second@example.test', '--password', 'another long password'],
      env(d),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'rova setup: an administrator exists already ("owner"): log in at http://127.0.0.1:8099/admin, or add users there or with rova user create\n',
    );
    // the account works: an API key for it
    const k = await rova(['apikey', 'create', '--user', 'owner', '--name', 'ci'], env(d));
    expect(k.stdout).toMatch(/^rova_[A-Za-z0-9_-]{40,}\n$/);
  }, 120_000);

  it('from ROVA_SETUP_* without a terminal; missing values or a short password → exit 2 naming them, nothing created', async () => {
    const d = fresh();
    const none = await rova(['setup'], env(d), '');
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'rova setup: missing --login, --email, --password (no terminal to ask on: pass flags or ROVA_SETUP_LOGIN/ROVA_SETUP_EMAIL/ROVA_SETUP_PASSWORD)\n',
    );
    const short = await rova(
      ['setup'],
      env(d, { ROVA_SETUP_LOGIN: 'ops', ROVA_SETUP_EMAIL: 'ops@example.test', ROVA_SETUP_PASSWORD: 'short' }),
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 10 characters');
    const ok = await rova(
      ['setup'],
      env(d, {
        ROVA_SETUP_LOGIN: 'ops',
        ROVA_SETUP_EMAIL: 'ops@example.test',
        ROVA_SETUP_PASSWORD: 'long enough password',
        PUBLIC_URL: 'https://cars.example.com/',
      }),
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Admin app: https://cars.example.com/admin — log in as "ops"');
  }, 120_000);

  it('on a terminal it asks (the password without echo, twice) and creates the administrator', async () => {
    const d = fresh();
    // script(1) gives the command a terminal; each answer is typed when its question shows, as a person would
    const cmd = [process.execPath, ...rovaArgs('setup')].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: env(d) });
    let screen = '';
    const answers: [RegExp, string][] = [
      [/Login: /, 'keeper'],
      [/E-mail: /, 'keeper@example.test'],
      [/Password \(at least 10 characters\): /, 'short'],
      [/Too short[^]*Password \(at least 10 characters\): /, 'secret password one'],
      [/Password again: /, 'secret password two'],
      [/differ; again\.[^]*Password \(at least 10 characters\): /, 'secret password one'],
      [/Password again: /, 'secret password one'],
    ];
    let next = 0;
    let seenUpTo = 0;
    child.stdout.on('data', (b: Buffer) => {
      screen += b.toString();
      const pending = answers[next];
      if (pending && pending[0].test(screen.slice(seenUpTo))) {
        seenUpTo = screen.length;
        next += 1;
        child.stdin.write(pending[1] + '\n');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, screen).toBe(0);
    expect(next).toBe(answers.length);
    expect(screen).toContain('Create the first administrator of this Rova installation.');
    expect(screen).toContain('Too short: at least 10 characters.');
    expect(screen).toContain('The two passwords differ; again.');
    expect(screen).toContain('administrator "keeper" created');
    expect(screen).toContain('keeper@example.test'); // typed text is echoed…
    expect(screen).not.toContain('secret password'); // …but never a password
  }, 120_000);

  it('a start on a database without an administrator says in one line how to create one', async () => {
    const d = fresh();
    const run = start(process.execPath, rovaArgs('serve'), {
      DATA_DIR: d,
      HOME: d,
      PORT: '0',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ROVA_JOBS: '0',
    });
    try {
      const base = await run.ready;
      const until = Date.now() + 10_000;
      while (!run.output().includes('No administrator yet') && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      const lines = run
        .output()
        .split('\n')
        .filter((l) => l.includes('No administrator yet'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).msg).toBe(
        `No administrator yet: run "npx rova setup" (or "node dist/main.js setup") to create the first one; the admin app is at ${base}/admin`,
      );
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 120_000);
});
