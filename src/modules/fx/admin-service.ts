import { Decimal } from 'decimal.js';
import { emitRatesSynced } from './events.js';
import { DomainError } from '../../platform/domain-error.js';
import { HttpErrors } from '../../platform/http/errors.js';
import type { CurrencyFormat } from '../store/index.js';
import { amountText } from '../store/index.js';
import { normaliseCode } from './detect.js';
import { convertAmount, effectiveRate, isUsable, rawRate, rowFormat } from './money.js';
import { loadCurrencies, readOptions, replaceCurrencies, updateCurrencies } from './repo.js';
import { fetchRates, type RateMap } from './rates/sources.js';
import { isObj, sanitiseCurrencies } from './sanitise.js';
import { INTERVAL_MS, mergeSettings } from './settings.js';
import { OPT_LAST_SYNC, OPT_SETTINGS, type FxRuntime } from './state.js';
import { isStale, rateDate, SNAPSHOT_DATE, SNAPSHOT_TIME, staleRates } from './staleness.js';
import type { Adjustment, CurrencyRow, FxSettings, LastSync, NextSync, SourceId } from './types.js';

export const SYNC_JOB = 'rova_fx_rates_sync';

/** No exchange-rate source answered a sync; the stored rates were kept. `details.attempts`: each source's error. */
export class RatesUnavailable extends DomainError {
  declare readonly details: { attempts: { source: string; error: string }[] };
}

/** When the scheduled sync runs next, or null for `manual`. */
export async function nextSync(rt: FxRuntime): Promise<NextSync | null> {
  const ms = INTERVAL_MS[rt.snapshot.settings.rate_update_interval];
  if (ms === null) return null;
  const name = `job_last_run:${SYNC_JOB}`;
  const last = (await readOptions(rt.platform.db, [name])).get(name) as { at?: number } | undefined;
  const time = Math.ceil(Math.max(Date.now(), (last?.at ?? 0) + ms) / 1000);
  return { time, iso: new Date(time * 1000).toISOString() };
}

export async function getSettings(rt: FxRuntime): Promise<FxSettings> {
  await rt.refresh();
  return rt.snapshot.settings;
}

export async function saveSettings(rt: FxRuntime, body: unknown) {
  if (!isObj(body)) throw HttpErrors.badRequest('Invalid settings data: send a JSON object.');
  await rt.refresh();
  const adjustments: Adjustment[] = [];
  const settings = mergeSettings(rt.snapshot.settings, body, adjustments);
  await rt.platform.options.set(OPT_SETTINGS, settings);
  await rt.changed();
  return { success: true as const, settings: rt.snapshot.settings, adjustments, next_sync: await nextSync(rt) };
}

export async function getCurrencies(rt: FxRuntime) {
  await rt.refresh();
  const s = rt.snapshot;
  return {
    base_currency: s.base,
    currencies: s.rows,
    last_sync: s.lastSync,
    next_sync: await nextSync(rt),
    stale_rates: staleRates(s.rows),
  };
}

export async function saveCurrencies(rt: FxRuntime, body: unknown) {
  await rt.refresh();
  const base = rt.snapshot.base;
  const { rows, adjustments } = sanitiseCurrencies(body, base);
  await rt.platform.transaction((tx) => replaceCurrencies(tx, rows));
  await rt.changed();
  return { success: true as const, currencies: rows, adjustments };
}

export interface SyncResult {
  success: true;
  source: SourceId;
  rates: RateMap;
  updated: string[];
  rejected: { code: string; stored: number; fetched: number }[];
}

/**
 * Fetches rates and writes them into the auto rows (manual rows untouched; a change by more than a factor of 10
 * is rejected). last_sync is written only after the rows were stored. All sources failing → 502.
 */
export async function syncRates(rt: FxRuntime): Promise<SyncResult> {
  await rt.refresh();
  const { base, settings } = rt.snapshot;
  const outcome = await fetchRates(settings.rate_sources, base, rt.sources);
  for (const a of outcome.attempts)
    rt.platform.log.warn({ source: a.source, reason: a.error }, 'exchange-rate source failed');
  if (!outcome.source) {
    throw new RatesUnavailable('No exchange-rate source answered; the stored rates were kept.', {
      attempts: outcome.attempts,
    });
  }
  const now = Math.floor(Date.now() / 1000);
  // Rates are as old as their source says (the bundled file: its date), never "now": a feed that stopped updating
  // shows as stale. A date in the future is read as now.
  const ratesTime = outcome.source === 'file' ? SNAPSHOT_TIME : Math.min(outcome.time ?? now, now);
  if (outcome.source === 'file') {
    rt.platform.log.warn(
      { rates_date: SNAPSHOT_DATE },
      `no online exchange-rate source answered: using the bundled snapshot of ${SNAPSHOT_DATE} (stale)`,
    );
  }
  const updated: string[] = [];
  const rejected: SyncResult['rejected'] = [];
  await rt.platform.transaction(async (tx) => {
    const rows = await loadCurrencies(tx);
    const changed: CurrencyRow[] = [];
    for (const row of rows) {
      const fetched = outcome.rates[row.code];
      if (row.code === base || row.rate.type === 'manual' || fetched === undefined) continue;
      const stored = new Decimal(String(row.rate.value));
      const f = new Decimal(String(fetched));
      if (stored.gt(0) && (f.gt(stored.times(10)) || f.lt(stored.dividedBy(10)))) {
        rejected.push({ code: row.code, stored: row.rate.value, fetched });
        continue;
      }
      changed.push({ ...row, rate: { ...row.rate, value: fetched, updated_at: ratesTime } });
      updated.push(row.code);
    }
    await updateCurrencies(tx, changed);
    await emitRatesSynced(tx, {
      source: outcome.source ?? '',
      base,
      updated: changed.map((c) => c.code),
      rejected: rejected.map((r) => r.code),
    });
  });
  const last: LastSync = { time: now, base, source: outcome.source };
  await rt.platform.options.set(OPT_LAST_SYNC, last);
  await rt.changed();
  rt.platform.log.info(
    { source: outcome.source, updated: updated.length, rejected: rejected.length },
    'exchange rates synced',
  );
  return { success: true, source: outcome.source, rates: outcome.rates, updated, rejected };
}

export interface PreviewRow {
  code: string;
  raw_rate: number;
  effective_rate: number;
  usable: boolean;
  sample_from: string;
  sample_to: string;
  rate_date: string | null;
  stale: boolean;
}

const SAMPLE = new Decimal(100);
const ENTITIES: Record<string, string> = {
  '&nbsp;': '\u00a0',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#039;': "'",
};

/** A formatted amount as plain text (the store's own renderer, entities decoded). */
function plain(amount: Decimal, fmt: CurrencyFormat): string {
  return amountText(amount.toFixed(), fmt).replace(/&(nbsp|amp|lt|gt|quot|#039);/g, (e) => ENTITIES[e] ?? e);
}

function preview(rt: FxRuntime, rows: CurrencyRow[]) {
  const s = rt.snapshot;
  const sampleFrom = plain(SAMPLE, s.baseFormat);
  return {
    base_currency: s.base,
    sample_amount: 100,
    rates: rows.map((r): PreviewRow => ({
      code: r.code,
      raw_rate: rawRate(r).toNumber(),
      effective_rate: effectiveRate(r).toNumber(),
      usable: isUsable(r),
      sample_from: sampleFrom,
      sample_to: isUsable(r) ? plain(convertAmount(SAMPLE, r), rowFormat(r)) : '',
      rate_date: rateDate(r),
      stale: isStale(r),
    })),
  };
}

export async function previewStored(rt: FxRuntime) {
  await rt.refresh();
  return preview(rt, rt.snapshot.rows);
}

/** Preview of an unsaved configuration; saves nothing. */
export async function previewSubmitted(rt: FxRuntime, body: unknown) {
  await rt.refresh();
  const base = rt.snapshot.base;
  if (
    isObj(body) &&
    body.base_currency !== undefined &&
    body.base_currency !== null &&
    normaliseCode(body.base_currency) !== base
  ) {
    throw HttpErrors.badRequest(`The submitted base currency is not the store's base currency (${base}).`, {
      params: { base_currency: `Must be ${base} or omitted.` },
    });
  }
  const { rows } = sanitiseCurrencies(body, base);
  return preview(rt, rows);
}
