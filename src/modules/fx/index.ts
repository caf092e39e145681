import { perPlatform } from '../../platform/per-platform.js';
import type { JobRunner } from '../../platform/jobs.js';
import type { RovaModule } from '../types.js';
import { setCurrencyPort } from '../store/index.js';
import { SYNC_JOB, syncRates } from './admin-service.js';
import { fxHttpErrorOf } from './errors.js';
import { ratesCommand } from './cli.js';
import { GeoLookup } from './geo.js';
import { fxRoutes } from './routes.js';
import { seedFxDemo } from './seed.js';
import { INTERVAL_MS } from './settings.js';
import { staleRates } from './staleness.js';
import { readFxEnv, type FxEnv } from './env.js';
import { fxRuntime, TOPIC, type FxRuntime } from './state.js';

const geoFor = perPlatform((p) => new GeoLookup(p));

/** Scheduled sync at `rate_update_interval` (read before each run), on one node at a time (job lease). */
export function scheduleRateSync(jobs: JobRunner, rt: FxRuntime): void {
  const { platform } = rt;
  jobs.schedule({
    name: SYNC_JOB,
    intervalMs: () => INTERVAL_MS[rt.snapshot.settings.rate_update_interval],
    run: async () => {
      try {
        await syncRates(rt);
      } catch (err) {
        platform.log.warn({ err }, 'scheduled exchange-rate sync failed; stored rates kept');
      }
    },
  });
}

/** Currency conversion service (`rova-fx/v1`). */
export const fxModule: RovaModule<FxEnv> = {
  name: 'fx',
  namespaces: [{ name: 'rova-fx/v1', shape: 'wp', domainErrors: fxHttpErrorOf }],
  routes: fxRoutes(geoFor),
  checkConfig: readFxEnv,
  async start(platform) {
    const rt = fxRuntime(platform);
    platform.bus.subscribe(TOPIC, () => {
      rt.refresh().catch((err: unknown) => platform.log.error({ err }, 'currency view reload failed'));
    });
    await rt.refresh();
    const stale = staleRates(rt.snapshot.rows);
    if (stale.length)
      platform.log.warn(
        { stale },
        'exchange rates are stale until a sync succeeds (GET /rova-fx/v1/currencies lists them)',
      );
    setCurrencyPort(platform, rt);
    if (platform.config.jobs) scheduleRateSync(platform.jobs, rt);
  },
  seedDemo: seedFxDemo,
  commands: { rates: ratesCommand },
};

// What other modules may use of fx (test/ops/import-graph.test.ts: they import nothing else of it).
export { MAX_PRODUCT_IDS } from './convert-service.js';
export { currencyName } from './iso.js';
export { isObj, sanitiseCurrencies } from './sanitise.js';
export { withDefaults } from './settings.js';
export { OPT_BASE, OPT_PRICE_FORMAT, OPT_SETTINGS, fxRuntime } from './state.js';
export type { StorePriceFormat } from './state.js';
export type { CurrencyRow, FxSettings } from './types.js';
