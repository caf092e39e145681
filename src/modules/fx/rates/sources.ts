import { Decimal } from 'decimal.js';
import type { SourceId } from '../types.js';
import { SNAPSHOT } from './snapshot.js';

/** Rates quoted against the store base: 1 BASE = rates[CODE] CODE. */
export type RateMap = Record<string, number>;

export interface SourceConfig {
  exchangerateApiUrl: string;
  ecbUrl: string;
  timeoutMs: number;
}

export const DEFAULT_EXCHANGERATE_API_URL = 'https://api.exchangerate-api.com/v4';
export const DEFAULT_ECB_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

const CODE = /^[A-Z]{3}$/;
const SIG = 10;

function positive(v: unknown): Decimal | null {
  if (typeof v !== 'number' && typeof v !== 'string') return null;
  if (typeof v === 'string' && !/^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim())) return null;
  try {
    const d = new Decimal(typeof v === 'number' ? String(v) : v.trim());
    return d.isFinite() && d.gt(0) ? d : null;
  } catch {
    return null;
  }
}

const num = (d: Decimal): number => d.toSignificantDigits(SIG).toNumber();

async function get(url: string, timeoutMs: number): Promise<string> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json, application/xml;q=0.9, */*;q=0.5' },
    redirect: 'follow',
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  const text = await res.text();
  if (text.trim() === '') throw new Error('empty body');
  return text;
}

/** ExchangeRate-API JSON `{rates:{CODE:number}}`; non-numeric values are skipped, the base itself dropped. */
export function parseExchangeRateApi(body: string, base: string): RateMap {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error('response is not JSON');
  }
  const rates = (json as { rates?: unknown } | null)?.rates;
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates))
    throw new Error('response has no "rates" object');
  const out: RateMap = {};
  for (const [k, v] of Object.entries(rates as Record<string, unknown>)) {
    const code = k.toUpperCase();
    const d = positive(v);
    if (CODE.test(code) && code !== base && d) out[code] = num(d);
  }
  return out;
}

/**
 * ECB daily reference XML (EUR-based). Only the fixed, well-known `<Cube currency='X' rate='Y'/>` elements are
 * read (strict pattern, numbers validated; no DTDs or entities are processed). Cross rates to the store base:
 * X = ecb[X] / ecb[B], EUR = 1 / ecb[B]; a base missing from the feed yields nothing.
 */
export function parseEcb(body: string, base: string): RateMap {
  if (!/<(\w+:)?Envelope[\s>]/.test(body) || !body.includes('eurofxref'))
    throw new Error('response is not the ECB reference-rate XML');
  const ecb = new Map<string, Decimal>([['EUR', new Decimal(1)]]);
  const re = /<Cube\s+currency\s*=\s*(['"])([A-Z]{3})\1\s+rate\s*=\s*(['"])([0-9]+(?:\.[0-9]+)?)\3\s*\/>/g;
  for (const m of body.matchAll(re)) {
    const d = positive(m[4]);
    if (d && m[2] && !ecb.has(m[2])) ecb.set(m[2], d);
  }
  if (ecb.size === 1) throw new Error('no rates in the ECB XML');
  const b = ecb.get(base);
  if (!b) return {};
  const out: RateMap = {};
  for (const [code, r] of ecb) if (code !== base) out[code] = num(r.dividedBy(b));
  return out;
}

/**
 * The time a source says its rates are from (unix seconds), or null when it does not say: ExchangeRate-API's
 * `time_last_updated` (else its `date`), the ECB's `<Cube time='YYYY-MM-DD'>`. A sync records this, not the sync's
 * own time, so a feed that stopped updating shows as stale.
 */
export function sourceTime(id: SourceId, body: string): number | null {
  const day = (d: unknown) =>
    typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d) && Number.isFinite(Date.parse(`${d}T00:00:00Z`))
      ? Date.parse(`${d}T00:00:00Z`) / 1000
      : null;
  if (id === 'exchangerate-api') {
    try {
      const j = JSON.parse(body) as { time_last_updated?: unknown; date?: unknown };
      return typeof j.time_last_updated === 'number' &&
        Number.isSafeInteger(j.time_last_updated) &&
        j.time_last_updated > 0
        ? j.time_last_updated
        : day(j.date);
    } catch {
      return null;
    }
  }
  if (id === 'ecb') return day(/<Cube\s+time\s*=\s*(['"])(\d{4}-\d{2}-\d{2})\1/.exec(body)?.[2]);
  return null;
}

/** The bundled snapshot, crossed to the store base. */
export function snapshotRates(base: string): RateMap {
  const b = positive(SNAPSHOT.rates[base]);
  if (!b) return {};
  const out: RateMap = {};
  for (const [code, v] of Object.entries(SNAPSHOT.rates)) {
    const d = positive(v);
    if (d && code !== base) out[code] = num(d.dividedBy(b));
  }
  return out;
}

/** One source's rates and the time it says they are from (null: it does not say). */
export async function fetchSource(
  id: SourceId,
  base: string,
  cfg: SourceConfig,
): Promise<{ rates: RateMap; time: number | null }> {
  switch (id) {
    case 'exchangerate-api': {
      const body = await get(`${cfg.exchangerateApiUrl.replace(/\/+$/, '')}/latest/${base}`, cfg.timeoutMs);
      return { rates: parseExchangeRateApi(body, base), time: sourceTime(id, body) };
    }
    case 'ecb': {
      const body = await get(cfg.ecbUrl, cfg.timeoutMs);
      return { rates: parseEcb(body, base), time: sourceTime(id, body) };
    }
    case 'file':
      return { rates: snapshotRates(base), time: null };
  }
}

export interface FetchOutcome {
  source: SourceId | null;
  rates: RateMap;
  /** When the winning source says its rates are from (unix seconds), or null. */
  time: number | null;
  attempts: { source: SourceId; error: string }[];
}

/** Tries the sources in order; the first non-empty answer wins. No retries. */
export async function fetchRates(order: readonly SourceId[], base: string, cfg: SourceConfig): Promise<FetchOutcome> {
  const attempts: FetchOutcome['attempts'] = [];
  for (const id of order) {
    try {
      const { rates, time } = await fetchSource(id, base, cfg);
      if (Object.keys(rates).length > 0) return { source: id, rates, time, attempts };
      attempts.push({ source: id, error: `no rates for base ${base}` });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const cause = e.cause?.code ?? e.cause?.message;
      const msg =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `timed out after ${cfg.timeoutMs} ms`
          : `${e.message || String(err)}${cause && e.message === 'fetch failed' ? ` (${cause})` : ''}`;
      attempts.push({ source: id, error: msg });
    }
  }
  return { source: null, rates: {}, time: null, attempts };
}
