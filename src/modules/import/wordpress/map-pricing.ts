import type { CommissionTier, MarketplaceSettings } from '../../rental/index.js';
import type { Notes, Subject } from './report.js';
import type { SqlRow } from './source.js';
import { decimalOrNull, isRecord, phpMeta } from './values.js';

/** The rental plugin's pricing and marketplace options → Rova pricing rules and marketplace settings (pure). */

export interface PricingRuleRow {
  /** Map key: the WordPress option the rule comes from. */
  key: string;
  name: string;
  kind: 'weekend' | 'tax';
  multiplier: string | null;
  percent: string | null;
}

export interface PricingImport {
  rules: PricingRuleRow[];
  marketplace: Partial<MarketplaceSettings>;
}

export type OptionReader = (name: string) => string | null;

/** An option as a note names it: its name is its WordPress id. */
const optionAt = (name: string): Subject => ({ id: name, record: `option ${name}`, key: name });

export function mapPricing(option: OptionReader, policies: SqlRow[] | null, notes: Notes): PricingImport {
  const rules: PricingRuleRow[] = [];
  const weekend = option('mhm_rentiva_vehicle_weekend_multiplier');
  if (weekend !== null) {
    const m = decimalOrNull(weekend, optionAt('mhm_rentiva_vehicle_weekend_multiplier'), notes);
    if (m !== null)
      rules.push({
        key: 'mhm_rentiva_vehicle_weekend_multiplier',
        name: 'Weekend (from WordPress)',
        kind: 'weekend',
        multiplier: m,
        percent: null,
      });
  }
  const tax = option('mhm_rentiva_vehicle_tax_rate');
  if (tax !== null) {
    const p = decimalOrNull(tax, optionAt('mhm_rentiva_vehicle_tax_rate'), notes);
    if (option('mhm_rentiva_vehicle_tax_inclusive') === '1')
      notes.warn(
        { id: 'mhm_rentiva_vehicle_tax_inclusive' },
        'unsupported',
        'prices were tax-inclusive in WordPress; Rova adds the tax rule on top of the net price: check vehicle prices or the tax rule',
      );
    if (p !== null)
      rules.push({
        key: 'mhm_rentiva_vehicle_tax_rate',
        name: 'Tax (from WordPress)',
        kind: 'tax',
        multiplier: null,
        percent: p,
      });
  }
  if (option('mhm_rentiva_vehicle_seasonal_pricing') === '1')
    notes.warn(
      { id: 'mhm_rentiva_vehicle_seasonal_pricing' },
      'unsupported',
      'seasonal pricing was on in WordPress: its seasons are not imported; add season rules in Rova',
    );
  const marketplace: Partial<MarketplaceSettings> = {};
  // the active global commission policy: no vendor, no end, the latest start
  const active = (policies ?? [])
    .filter((r) => (r.vendor_id === null || Number(r.vendor_id) === 0) && r.effective_to === null)
    .sort((a, b) => String(b.effective_from).localeCompare(String(a.effective_from)))[0];
  if (active) {
    const rate = Number(active.global_rate);
    if (Number.isFinite(rate) && rate >= 0 && rate <= 100) marketplace.commission_rate = rate;
  }
  const tiersRaw = option('mhm_rentiva_commission_tiers');
  if (tiersRaw !== null) {
    const v = phpMeta(tiersRaw, { id: 'options', key: 'mhm_rentiva_commission_tiers' }, notes);
    const list = Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [];
    const tiers: CommissionTier[] = [];
    for (const t of list) {
      if (!isRecord(t)) continue;
      const min = Number(t.min ?? t.threshold ?? t.revenue);
      const discount = Math.abs(Number(t.discount ?? t.points ?? t.reduction));
      if (Number.isFinite(min) && Number.isFinite(discount)) tiers.push({ min, discount });
    }
    if (tiers.length) marketplace.tiers = tiers.sort((a, b) => b.min - a.min);
    else
      notes.warn(
        { id: 'mhm_rentiva_commission_tiers' },
        'unreadable',
        'option mhm_rentiva_commission_tiers holds no tier Rova can read; the default tiers stay',
      );
  }
  const minPayout = option('mhm_min_payout_amount');
  if (minPayout !== null && decimalOrNull(minPayout, optionAt('mhm_min_payout_amount'), notes) !== null)
    marketplace.min_payout = Number(minPayout);
  const freeze = option('mhm_rentiva_global_payout_freeze');
  if (freeze !== null) marketplace.payout_freeze = freeze === 'yes' || freeze === '1';
  return { rules, marketplace };
}
