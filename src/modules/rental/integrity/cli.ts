import { command } from '../../../cli/command.js';
import { verifyIntegrity } from './service.js';

/** `rova verify`: exit 0 and one "ok" line when clean; 1 and one line per finding (with the ids) otherwise. */
export const verifyCommand = command(
  {
    summary: 'check the ledger and the booking invariants (exit 1 naming every offending id)',
    usage: ['verify'],
    details: ['Also: rova ledger verify checks the ledger alone.'],
  },
  async (ctx) => {
    if (ctx.args.length !== 0) {
      ctx.io.stderr.write('rova: usage: rova verify\n');
      return 2;
    }
    const { app, platform } = await ctx.open();
    try {
      const r = await verifyIntegrity(platform.db);
      for (const f of r.findings) ctx.io.stdout.write(`${f}\n`);
      ctx.io.stdout.write(
        r.ok ? `verify ok: ${r.summary}\n` : `verify NOT ok: ${r.findings.length} finding(s); ${r.summary}\n`,
      );
      return r.ok ? 0 : 1;
    } finally {
      await app.close();
    }
  },
);
