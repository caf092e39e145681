import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { firstAdministrator } from '../platform/auth/repo.js';
import type { CliCommand, CliContext, CliIo } from '../modules/types.js';
import { command } from './command.js';

const MIN_PASSWORD = 10;

/** Where the operator finds the admin app: PUBLIC_URL when set, else the address the server listens on. */
export function adminUrl(config: Config): string {
  const publicUrl = config.publicUrl;
  if (publicUrl) return `${publicUrl}/admin`;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/admin`;
}

/**
 * Questions on the terminal, one readline for all of them (answers typed ahead are kept); a secret answer is not
 * echoed: readline echoes through its output stream, which passes nothing on while a secret is typed.
 */
function terminal(io: CliIo) {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) io.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return {
    async ask(question: string, secret = false): Promise<string> {
      io.stderr.write(question);
      muted = secret;
      try {
        return (await rl.question('')).trim();
      } finally {
        muted = false;
        if (secret) io.stderr.write('\n');
      }
    },
    close: () => rl.close(),
  };
}

const fail = (ctx: CliContext, message: string, code = 2) => {
  ctx.io.stderr.write(`rova setup: ${message}\n`);
  return code;
};

/**
 * `rova setup`: the first administrator of a new installation. Flags, else ROVA_SETUP_* variables, else (on a
 * terminal) questions; then the admin URL and the next steps. Refuses when an administrator exists.
 */
export const setupCommand: CliCommand = command(
  {
    summary:
      'create the first administrator (asks on a terminal; flags or ROVA_SETUP_* otherwise) and print the next steps',
    usage: ['setup [--login L] [--email E] [--password P] [--name N]'],
    details: [
      'Without a terminal every value must come from a flag or ROVA_SETUP_LOGIN, ROVA_SETUP_EMAIL, ROVA_SETUP_PASSWORD (password ≥ 10 characters).',
      'Refuses (exit 1) when an administrator exists: add more in the admin app or with rova user create.',
    ],
  },
  async (ctx) => {
    const { values } = parseArgs({
      args: ctx.args,
      options: {
        login: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
      },
      strict: true,
    });
    const env = ctx.config.setupAccount;
    let login = values.login ?? env.login;
    let email = values.email ?? env.email;
    let password = values.password ?? env.password;
    const interactive = ctx.io.stdin.isTTY === true;
    const missing = Object.entries({ login, email, password })
      .filter(([, v]) => !v)
      .map(([k]) => k);
    if (missing.length && !interactive) {
      return fail(
        ctx,
        `missing ${missing.map((k) => `--${k}`).join(', ')} (no terminal to ask on: pass flags or ROVA_SETUP_${missing.map((k) => k.toUpperCase()).join('/ROVA_SETUP_')})`,
      );
    }
    const { app, platform } = await ctx.open();
    try {
      const existing = await firstAdministrator(platform.db);
      if (existing)
        return fail(
          ctx,
          `an administrator exists already ("${existing}"): log in at ${adminUrl(ctx.config)}, or add users there or with rova user create`,
          1,
        );
      if (missing.length) {
        ctx.io.stderr.write('Create the first administrator of this Rova installation.\n');
        const tty = terminal(ctx.io);
        try {
          login ||= await tty.ask('Login: ');
          email ||= await tty.ask('E-mail: ');
          while (!password) {
            const first = await tty.ask(`Password (at least ${MIN_PASSWORD} characters): `, true);
            if (first.length < MIN_PASSWORD) {
              ctx.io.stderr.write(`Too short: at least ${MIN_PASSWORD} characters.\n`);
              continue;
            }
            if ((await tty.ask('Password again: ', true)) !== first) {
              ctx.io.stderr.write('The two passwords differ; again.\n');
              continue;
            }
            password = first;
          }
        } finally {
          tty.close();
        }
      }
      if (!login || !email || !password) return fail(ctx, 'login, e-mail and password are all needed');
      if (password.length < MIN_PASSWORD) return fail(ctx, `the password must be at least ${MIN_PASSWORD} characters`);
      const u = await platform.auth.createUser({
        login,
        email,
        role: 'administrator',
        password,
        displayName: values.name ?? login,
      });
      const url = adminUrl(ctx.config);
      ctx.io.stdout.write(
        [
          `administrator "${u.login}" created`,
          `Admin app: ${url} — log in as "${u.login}" with the password you chose`,
          'Next steps:',
          '  1. start the server if it is not running: npx rova serve (production) or npm start',
          `  2. an API key for scripts and integrations, allowed to read and write: npx rova apikey create --user ${u.login} --name ci --scopes read,write`,
          '     (without --scopes the key may only read)',
          '  3. settings (time zone, mail, payments): docs/operators/configuration.md',
          `  4. the store's currency is ${platform.storeCurrency.code} (STORE_CURRENCY on the first start, else USD; rova import wordpress sets the shop's): every amount is in it`,
          '',
        ].join('\n'),
      );
      return 0;
    } finally {
      await app.close();
    }
  },
);
