import { command } from '../../cli/command.js';
import { RatesUnavailable, syncRates } from './admin-service.js';
import { fxRuntime } from './state.js';

/** `rova rates sync`: fetch exchange rates now (same rules as POST /rova-fx/v1/rates/sync). */
export const ratesCommand = command(
  {
    summary: 'fetch exchange rates now (currency service)',
    usage: ['rates sync'],
    details: ['Same rules as POST /rova-fx/v1/rates/sync: auto rates only, changes by more than 10x rejected.'],
  },
  async (ctx) => {
    if (ctx.args[0] !== 'sync' || ctx.args.length > 1) {
      ctx.io.stderr.write('usage: rova rates sync\n');
      return 2;
    }
    const { app, platform } = await ctx.open();
    try {
      const r = await syncRates(fxRuntime(platform));
      ctx.io.stdout.write(
        `rates from ${r.source}: ${Object.keys(r.rates).length} quoted, ${r.updated.length} updated (${r.updated.join(', ') || 'none'})\n`,
      );
      for (const x of r.rejected)
        ctx.io.stdout.write(
          `rejected ${x.code}: stored ${x.stored}, fetched ${x.fetched} (changed by more than 10×)\n`,
        );
      return 0;
    } catch (err) {
      if (err instanceof RatesUnavailable) {
        ctx.io.stderr.write(`rova: ${err.message}\n`);
        for (const a of err.details.attempts) ctx.io.stderr.write(`  ${a.source}: ${a.error}\n`);
        return 1;
      }
      throw err;
    } finally {
      await app.close();
    }
  },
);
