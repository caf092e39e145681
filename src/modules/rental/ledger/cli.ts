import { command } from '../../../cli/command.js';
import { clearMaturedCommissions } from './clearing.js';
import { verifyLedger } from './verify.js';

/**
 * `rova ledger verify`: exit 0 and one "ledger ok" line when clean, 1 and one line per difference otherwise.
 * `rova ledger clear`: moves vendor income older than the hold period to available now (the hourly job's work).
 */
export const ledgerCommand = command(
  {
    summary:
      'ledger verify: recompute every balance from its entries (exit 1 on any difference); ledger clear: clear matured vendor income now',
    usage: ['ledger verify', 'ledger clear'],
    details: [
      'clear does what the hourly clearing job does (income older than hold_days → available) and prints how many commissions it cleared.',
    ],
  },
  async (ctx) => {
    const [sub] = ctx.args;
    if ((sub !== 'verify' && sub !== 'clear') || ctx.args.length !== 1) {
      ctx.io.stderr.write('rova: usage: rova ledger verify | rova ledger clear\n');
      return 2;
    }
    const { app, platform } = await ctx.open();
    try {
      if (sub === 'clear') {
        const n = await clearMaturedCommissions(platform);
        ctx.io.stdout.write(
          `cleared ${n} commission${n === 1 ? '' : 's'} (income older than the hold period is now available)\n`,
        );
        return 0;
      }
      const v = await verifyLedger(platform.db);
      for (const m of v.mismatches)
        ctx.io.stdout.write(`MISMATCH account ${m.account}: cached ${m.cached}, entries sum ${m.computed}\n`);
      for (const u of v.unbalanced)
        ctx.io.stdout.write(`UNBALANCED transaction ${u.transaction_id}: ${u.entries} entries, sum ${u.sum}\n`);
      for (const b of v.breaches) ctx.io.stdout.write(`BREACH ${b.rule}: ${b.message}\n`);
      const summary = `${v.accounts} accounts, ${v.transactions} transactions, ${v.entries} entries`;
      ctx.io.stdout.write(
        v.ok
          ? `ledger ok: ${summary}, every balance equals the sum of its entries\n`
          : `ledger NOT ok: ${summary}, ${v.mismatches.length} balance mismatch(es), ${v.unbalanced.length} unbalanced transaction(s), ${v.breaches.length} breach(es) of the ledger's meaning\n`,
      );
      return v.ok ? 0 : 1;
    } finally {
      await app.close();
    }
  },
);
