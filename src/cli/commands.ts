import { parseArgs } from 'node:util';
import { seedDemo } from '../app.js';
import { modules } from '../modules/index.js';
import type { CliCommand, CliHelp } from '../modules/types.js';
import { command, fail } from './command.js';
import { setupCommand } from './setup.js';
import { storageCommand } from './storage.js';
import { backupCommand, restoreCommand } from './backup.js';

const seed: CliCommand = async (ctx) => {
  const { values } = parseArgs({
    args: ctx.args,
    options: { demo: { type: 'boolean' }, bookings: { type: 'string' } },
    strict: true,
  });
  if (!values.demo && values.bookings === undefined) return fail(ctx, 'seed needs --demo and/or --bookings N');
  const { app, platform } = await ctx.open();
  try {
    if (values.demo) {
      await seedDemo(platform);
      ctx.io.stdout.write('demo data seeded\n');
    }
    if (values.bookings !== undefined) {
      const n = Number(values.bookings);
      if (!Number.isInteger(n) || n < 1 || n > 5_000_000) return fail(ctx, '--bookings must be an integer 1..5000000');
      const bulk = modules.find((m) => m.seedBookings);
      if (!bulk?.seedBookings) return fail(ctx, 'the rental module is not installed');
      await bulk.seedBookings(platform, n);
      ctx.io.stdout.write(`${n} bookings added\n`);
    }
    return 0;
  } finally {
    await app.close();
  }
};

const user: CliCommand = async (ctx) => {
  const [sub, ...rest] = ctx.args;
  if (sub !== 'create') return fail(ctx, 'usage: rova user create --login L --email E --role R [--password P]');
  const { values } = parseArgs({
    args: rest,
    options: {
      login: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
  });
  const { login, email, role } = values;
  if (!login || !email || !role) {
    const missing = Object.entries({ login, email, role })
      .filter(([, v]) => !v)
      .map(([k]) => `--${k}`);
    return fail(ctx, `user create: missing ${missing.join(', ')}`);
  }
  const { app, platform } = await ctx.open({ platformOnly: true });
  try {
    const u = await platform.auth.createUser({
      login,
      email,
      role,
      password: values.password,
      displayName: values.name,
    });
    ctx.io.stdout.write(`${u.id}\n`);
    return 0;
  } finally {
    await app.close();
  }
};

const apikey: CliCommand = async (ctx) => {
  const [sub, ...rest] = ctx.args;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        user: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        expires: { type: 'string' },
        woocommerce: { type: 'boolean' },
      },
      strict: true,
    });
    if (!values.user) return fail(ctx, 'apikey create: missing --user <login>');
    let expires: Date | null = null;
    if (values.expires) {
      expires = new Date(values.expires);
      if (Number.isNaN(expires.getTime())) return fail(ctx, '--expires must be an ISO date-time');
    }
    const { app, platform } = await ctx.open({ platformOnly: true });
    try {
      const u = await platform.auth.findUser(values.user);
      if (!u)
        return fail(
          ctx,
          `no user "${values.user}" (create one with: rova user create --login ${values.user} --email … --role …)`,
        );
      const input = { userId: u.id, name: values.name, scopes: values.scopes?.split(','), expiresAt: expires };
      if (values.woocommerce) {
        // WooCommerce clients take the pair as two settings: `ck_… cs_…` on one line, nothing else on stdout.
        const w = await platform.auth.createWooCommerceKey(input);
        ctx.io.stdout.write(`${w.consumerKey} ${w.consumerSecret}\n`);
        return 0;
      }
      const r = await platform.auth.createApiKey(input);
      ctx.io.stdout.write(`${r.key}\n`);
      return 0;
    } finally {
      await app.close();
    }
  }
  if (sub === 'revoke') {
    const id = Number(rest[0]);
    if (!Number.isInteger(id) || id < 1) return fail(ctx, 'usage: rova apikey revoke <id>');
    const { app, platform } = await ctx.open({ platformOnly: true });
    try {
      await platform.auth.revokeApiKey(id);
      ctx.io.stderr.write(`API key ${id} revoked\n`);
      return 0;
    } finally {
      await app.close();
    }
  }
  return fail(
    ctx,
    'usage: rova apikey create --user LOGIN [--name N] [--scopes read,write] [--woocommerce] | rova apikey revoke <id>',
  );
};

const help: Record<'seed' | 'user' | 'apikey', CliHelp> = {
  seed: {
    summary: 'add the demo data (idempotent); --bookings adds N synthetic bookings for load tests',
    usage: ['seed --demo [--bookings N]'],
  },
  user: {
    summary: 'create a user; prints its id',
    usage: ['user create --login L --email E --role R [--password P] [--name N]'],
    details: ['Roles: administrator, shop_manager, vendor, customer.'],
  },
  apikey: {
    summary: 'create or revoke an API key; create prints only the new key on stdout',
    usage: [
      'apikey create --user LOGIN [--name N] [--scopes read,write] [--expires ISO] [--woocommerce]',
      'apikey revoke <id>',
    ],
    details: ['--woocommerce: a WooCommerce consumer key and secret instead (prints "ck_… cs_…" on one line).'],
  },
};

/** Every CLI command of the modules and the platform, by name; help comes from each definition. */
export const cliCommands: Record<string, CliCommand> = Object.assign({}, ...modules.map((m) => m.commands ?? {}), {
  seed: command(help.seed, seed),
  user: command(help.user, user),
  apikey: command(help.apikey, apikey),
  setup: setupCommand,
  storage: storageCommand,
  backup: backupCommand,
  // restore ends with the rental module's `verify` when it is installed
  restore: restoreCommand(() => cliCommands.verify),
});
