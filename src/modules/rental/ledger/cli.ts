import { command } from '../../../cli/command.js';
import { verifyLedger } from './verify.js';

/** `rova ledger verify`: exit 0 and one "ledger ok" line when clean, 1 and one line per difference otherwise. */
export const ledgerCommand = command({ summary: 'recompute every ledger balance from its entries (exit 1 on any difference)', usage: ['ledger verify'] }, async (ctx) => {
  const [sub] = ctx.args;
  if (sub !== 'verify' || ctx.args.length !== 1) {
    process.stderr.write('rova: usage: rova ledger verify\n');
    return 2;
  }
  const { app, platform } = await ctx.open();
  try {
    const v = await verifyLedger(platform.db);
    for (const m of v.mismatches) process.stdout.write(`MISMATCH account ${m.account}: cached ${m.cached}, entries sum ${m.computed}\n`);
    for (const u of v.unbalanced) process.stdout.write(`UNBALANCED transaction ${u.transaction_id}: ${u.entries} entries, sum ${u.sum}\n`);
    const summary = `${v.accounts} accounts, ${v.transactions} transactions, ${v.entries} entries`;
    process.stdout.write(v.ok ? `ledger ok: ${summary}, every balance equals the sum of its entries\n` : `ledger NOT ok: ${summary}, ${v.mismatches.length} balance mismatch(es), ${v.unbalanced.length} unbalanced transaction(s)\n`);
    return v.ok ? 0 : 1;
  } finally {
    await app.close();
  }
});
