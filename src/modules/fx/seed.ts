import type { Platform } from '../../platform/context.js';
import { loadCurrencies, replaceCurrencies } from './repo.js';
import { snapshotRates } from './rates/sources.js';
import { sanitiseRow } from './sanitise.js';
import { fxRuntime, OPT_LAST_SYNC } from './state.js';
import type { Adjustment, CurrencyRow } from './types.js';

/** Demo currencies: EUR, GBP (2 % fee), JPY (0 decimals), TRY (rounded to whole lira minus 0.01), rates from the bundled snapshot. */
export async function seedFxDemo(platform: Platform): Promise<void> {
  const rt = fxRuntime(platform);
  await rt.refresh();
  if ((await loadCurrencies(platform.db)).length > 0) return;
  const base = rt.snapshot.base;
  const rates = snapshotRates(base);
  const now = Math.floor(Date.now() / 1000);
  const adj: Adjustment[] = [];
  const specs: Record<string, Record<string, unknown>> = {
    EUR: { format: { position: 'left' } },
    GBP: { fee: { type: 'percentage', value: 2 } },
    JPY: { format: { position: 'left' } },
    TRY: { rounding: { type: 'nearest', value: 1, subtract: 0.01 }, format: { position: 'right_space', decimal_sep: ',', thousand_sep: '.' } },
  };
  const rows: CurrencyRow[] = [];
  for (const [code, spec] of Object.entries(specs)) {
    if (code === base) continue;
    rows.push(sanitiseRow(code, { enabled: true, rate: { type: 'auto', value: rates[code] ?? 0, updated_at: rates[code] ? now : null }, ...spec }, adj));
  }
  await platform.transaction((tx) => replaceCurrencies(tx, rows));
  await platform.options.set(OPT_LAST_SYNC, { time: now, base });
  await rt.changed();
}
