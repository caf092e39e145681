import type { Platform } from '../../../platform/context.js';
import { sql } from 'drizzle-orm';
import { one, type Db } from '../../../platform/db/types.js';

/** A volume tier: vendors whose cleared net revenue of the last 30 days reaches `min` (major units) get `discount` points off. */
export interface CommissionTier {
  min: number;
  discount: number;
}

/** Marketplace business settings (database option `marketplace_settings`, edited by admins). */
export interface MarketplaceSettings {
  /** Global commission percent. */
  commission_rate: number;
  tiers: CommissionTier[];
  /** Days a completed booking's vendor income stays pending before it becomes available. */
  hold_days: number;
  /** Smallest payout request (major units). */
  min_payout: number;
  /** Global payout freeze: no new payout requests. */
  payout_freeze: boolean;
  /** Withdrawal penalty percent when the withdrawal is the first in the rolling window (counting itself). */
  penalty_tier2_rate: number;
  /** … when it is the second or later. */
  penalty_tier3_rate: number;
  rolling_window_months: number;
  /** Version of the vendor terms applicants accept. */
  terms_version: string;
}

export const DEFAULT_MARKETPLACE: MarketplaceSettings = {
  commission_rate: 15,
  tiers: [
    { min: 30000, discount: 6 },
    { min: 15000, discount: 4 },
    { min: 5000, discount: 2 },
  ],
  hold_days: 7,
  min_payout: 100,
  payout_freeze: false,
  penalty_tier2_rate: 10,
  penalty_tier3_rate: 25,
  rolling_window_months: 12,
  terms_version: '2026-01',
};

const OPTION = 'marketplace_settings';

export async function marketplaceSettings(p: Platform): Promise<MarketplaceSettings> {
  const stored = await p.options.get<Partial<MarketplaceSettings>>(OPTION);
  return { ...DEFAULT_MARKETPLACE, ...(stored ?? {}) };
}

/**
 * The same, read through a transaction (no cache): inside a transaction on PGlite's single connection, a read on
 * the pool would wait for the transaction itself.
 */
export async function marketplaceSettingsIn(tx: Db): Promise<MarketplaceSettings> {
  const r = await one<{ value: Partial<MarketplaceSettings> }>(
    tx,
    sql`SELECT value FROM rova_options WHERE name = ${OPTION}`,
  );
  return { ...DEFAULT_MARKETPLACE, ...(r?.value ?? {}) };
}

/**
 * Merges `patch` into the stored settings, read under the option row's lock rather than from a node's cache: two
 * admins saving different fields on two nodes both keep their change.
 */
export async function saveMarketplaceSettings(
  p: Platform,
  patch: Partial<MarketplaceSettings>,
  tx?: Db,
): Promise<MarketplaceSettings> {
  const save = async (db: Db) => {
    const r = await one<{ value: Partial<MarketplaceSettings> }>(
      db,
      sql`SELECT value FROM rova_options WHERE name = ${OPTION} FOR UPDATE`,
    );
    const next = { ...DEFAULT_MARKETPLACE, ...(r?.value ?? {}), ...patch };
    await p.options.set(OPTION, next, db);
    return next;
  };
  if (tx) return save(tx); // the caller forgets the cached value once its transaction committed
  const next = await p.transaction(save);
  await p.options.forget(OPTION);
  return next;
}
