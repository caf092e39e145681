import type { Platform } from '../../platform/context.js';
import { loadCurrencies, replaceCurrencies } from './repo.js';
import { snapshotRates } from './rates/sources.js';
import { sanitiseRow } from './sanitise.js';
import { SNAPSHOT_DATE, SNAPSHOT_TIME } from './staleness.js';
import { fxRuntime, OPT_LAST_SYNC } from './state.js';
import type { Adjustment, CurrencyRow } from './types.js';

/**
 * Demo currencies: EUR, GBP (2 % fee), JPY (0 decimals), TRY (rounded to whole lira minus 0.01), rates from the
 * bundled snapshot, dated as the snapshot is (stale until the first successful sync replaces them).
 */
export async function seedFxDemo(platform: Platform): Promise<void> {
  const rt = fxRuntime(platform);
  await rt.refresh();
  if ((await loadCurrencies(platform.db)).length > 0) return;
  const base = rt.snapshot.base;
  const rates = snapshotRates(base);
  const adj: Adjustment[] = [];
  const specs: Record<string, Record<string, unknown>> = {
    EUR: { format: { position: 'left' } },
    GBP: { fee: { type: 'percentage', value: 2 } },
    JPY: { format: { position: 'left' } },
    TRY: {
      rounding: { type: 'nearest', value: 1, subtract: 0.01 },
      format: { position: 'right_space', decimal_sep: ',', thousand_sep: '.' },
    },
  };
  const rows: CurrencyRow[] = [];
  for (const [code, spec] of Object.entries(specs)) {
    if (code === base) continue;
    rows.push(
      sanitiseRow(
        code,
        {
          enabled: true,
          rate: { type: 'auto', value: rates[code] ?? 0, updated_at: rates[code] ? SNAPSHOT_TIME : null },
          ...spec,
        },
        adj,
      ),
    );
  }
  await platform.transaction((tx) => replaceCurrencies(tx, rows));
  await platform.options.set(OPT_LAST_SYNC, { time: SNAPSHOT_TIME, base, source: 'file' });
  await rt.changed();
  platform.log.warn(
    { rates_date: SNAPSHOT_DATE },
    `demo exchange rates come from the bundled snapshot of ${SNAPSHOT_DATE} (stale) until a sync succeeds`,
  );
}
