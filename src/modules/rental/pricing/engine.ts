import { cents, Decimal, money } from '../money.js';
import { addDays, weekday } from '../time.js';
import type { PricedVehicle, PricingRule, RuleKind } from './types.js';

const SCOPE_RANK = { vehicle: 3, category: 2, global: 1 } as const;

/** Rules of a kind that apply to the vehicle, most specific scope first, then priority, then id. */
export function rulesFor(rules: readonly PricingRule[], kind: RuleKind, v: PricedVehicle): PricingRule[] {
  return rules
    .filter((r) => r.is_active && r.kind === kind)
    .filter(
      (r) =>
        r.scope === 'global' ||
        (r.scope === 'category' && r.category === v.category) ||
        (r.scope === 'vehicle' && r.vehicle_id === v.id),
    )
    .sort((a, b) => SCOPE_RANK[b.scope] - SCOPE_RANK[a.scope] || b.priority - a.priority || a.id - b.id);
}

/** Does a season rule cover a calendar date? Recurring seasons compare month-day and may wrap the year end. */
export function seasonCovers(r: PricingRule, date: string): boolean {
  if (!r.start_date || !r.end_date) return false;
  if (!r.recurring) return date >= r.start_date && date <= r.end_date;
  const md = date.slice(5);
  const s = r.start_date.slice(5);
  const e = r.end_date.slice(5);
  return s <= e ? md >= s && md <= e : md >= s || md <= e;
}

export interface AddonLine {
  code: string;
  name: string;
  rule_id: number;
  charge: 'per_day' | 'per_booking';
  amount: number;
  /** Units taken (child seats); absent on bookings made before extras had quantities (then one). */
  quantity?: number;
  total: number;
}

/** An add-on a booking asks for: its code (one unit) or its code with a quantity. */
export type AddonRequest = string | { code: string; quantity: number };

export interface RuleContribution {
  rule_id: number;
  name: string;
  kind: RuleKind;
  amount: number;
  /** The days the rule changed (a season's days in the period, the weekend days, every day of a duration tier or a
   * per-day add-on); null for what is charged once (a per-booking add-on, tax, deposit). */
  days: number | null;
}

export interface Quote {
  days: number;
  price_per_day: number;
  breakdown: {
    base: number;
    weekday_days: number;
    weekend_days: number;
    season_adjustment: number;
    weekend_adjustment: number;
    rental_subtotal: number;
    duration_discount: number;
    rental_net: number;
    addons: AddonLine[];
    addons_total: number;
    /** The one-way fee (a rental returned at another location than its pick-up), 0 when none. */
    one_way_fee: number;
    rules: RuleContribution[];
  };
  net_price: number;
  /** Add-ons and the one-way fee: with the rental's net, the net price. */
  addons_total: number;
  tax_rate: number;
  tax: number;
  total: number;
  deposit_percent: number;
  deposit: number;
  remaining: number;
}

export class UnknownAddonError extends Error {
  constructor(public readonly code: string) {
    super(`Unknown add-on "${code}".`);
  }
}

/** More units of an add-on than its rule allows, or the same add-on asked for twice. */
export class AddonQuantityError extends Error {
  constructor(
    public readonly code: string,
    public readonly max: number,
    message: string,
  ) {
    super(message);
  }
}

/** The most units of an add-on one booking may take. */
export const addonMax = (r: Pick<PricingRule, 'max_per_day'>): number => r.max_per_day ?? 1;

/** The requests as {code, quantity}; a code named twice is refused (its quantity says how many). */
export function addonRequests(reqs: readonly AddonRequest[]): { code: string; quantity: number }[] {
  const out: { code: string; quantity: number }[] = [];
  for (const r of reqs) {
    const a = typeof r === 'string' ? { code: r, quantity: 1 } : r;
    const same = out.find((o) => o.code === a.code);
    if (same) {
      // plain codes named twice have always meant the add-on once
      if (typeof r === 'string' && same.quantity === 1) continue;
      throw new AddonQuantityError(a.code, 0, `Add-on "${a.code}" is named twice; give its quantity once.`);
    }
    out.push({ code: a.code, quantity: a.quantity });
  }
  return out;
}

/**
 * The pricing engine (design §4), pure: per day `price_per_day × season(date) × weekend(date)` over the
 * store-local calendar dates from the pickup date, then the best duration tier, plus add-ons; tax on the net,
 * deposit on the total. Arithmetic in decimal; each reported amount is rounded to cents and the totals are
 * sums of the rounded parts, so the numbers always add up.
 */
export function quote(
  v: PricedVehicle,
  rules: readonly PricingRule[],
  pickupDate: string,
  days: number,
  addonCodes: readonly AddonRequest[] = [],
  returnedElsewhere = false,
): Quote {
  const p = new Decimal(v.price_per_day);
  const seasons = rulesFor(rules, 'season', v);
  const weekend = rulesFor(rules, 'weekend', v)[0];
  const wMul = weekend?.multiplier ? new Decimal(weekend.multiplier) : new Decimal(1);
  const contributions = new Map<number, { rule: PricingRule; amount: Decimal; days: number | null }>();
  const add = (rule: PricingRule, amount: Decimal, days: number | null = null) => {
    const c = contributions.get(rule.id);
    if (c) {
      c.amount = c.amount.plus(amount);
      if (days !== null) c.days = (c.days ?? 0) + days;
    } else contributions.set(rule.id, { rule, amount, days });
  };

  let weekendAdj = new Decimal(0);
  let weekendDays = 0;
  for (let i = 0; i < days; i++) {
    const date = addDays(pickupDate, i);
    const season = seasons.find((r) => seasonCovers(r, date));
    const sMul = season?.multiplier ? new Decimal(season.multiplier) : new Decimal(1);
    const seasonal = p.times(sMul);
    if (season && !sMul.eq(1)) add(season, seasonal.minus(p), 1);
    const wd = weekday(date);
    if (wd === 0 || wd === 6) {
      weekendDays += 1;
      if (weekend && !wMul.eq(1)) {
        const extra = seasonal.times(wMul.minus(1));
        weekendAdj = weekendAdj.plus(extra);
        add(weekend, extra, 1);
      }
    }
  }
  const base = cents(p.times(days));
  // each season's line is rounded on its own and the adjustment is their sum, so the lines a customer sees add up
  let seasonR = new Decimal(0);
  for (const c of contributions.values()) {
    if (c.rule.kind !== 'season') continue;
    c.amount = cents(c.amount);
    seasonR = seasonR.plus(c.amount);
  }
  const weekendR = cents(weekendAdj);
  const subtotal = base.plus(seasonR).plus(weekendR);

  const tier = rulesFor(rules, 'duration', v)
    .filter((r) => r.min_days !== null && r.min_days <= days && r.percent !== null)
    .sort((a, b) => SCOPE_RANK[b.scope] - SCOPE_RANK[a.scope] || (b.min_days ?? 0) - (a.min_days ?? 0))[0];
  const discount = tier ? cents(subtotal.times(new Decimal(tier.percent!)).div(100)) : new Decimal(0);
  if (tier) add(tier, discount, days);
  const rentalNet = subtotal.plus(discount);

  const addonRules = rulesFor(rules, 'addon', v);
  const addons: AddonLine[] = [];
  let addonsTotal = new Decimal(0);
  for (const { code, quantity } of addonRequests(addonCodes)) {
    const r = addonRules.find((a) => a.code === code);
    if (!r) throw new UnknownAddonError(code);
    const max = addonMax(r);
    if (quantity > max)
      throw new AddonQuantityError(code, max, `Add-on "${code}" allows at most ${max} per booking; ${quantity} asked.`);
    const charge = r.charge ?? 'per_booking';
    const amount = cents(r.amount ?? '0');
    const units = amount.times(quantity);
    const total = charge === 'per_day' ? cents(units.times(days)) : cents(units);
    addonsTotal = addonsTotal.plus(total);
    add(r, total, charge === 'per_day' ? days : null);
    addons.push({
      code,
      name: r.name,
      rule_id: r.id,
      charge,
      amount: amount.toNumber(),
      quantity,
      total: total.toNumber(),
    });
  }

  // returned at another desk: the most specific one-way rule, charged once
  const oneWay = returnedElsewhere ? rulesFor(rules, 'one_way', v)[0] : undefined;
  const oneWayFee = oneWay ? cents(oneWay.amount ?? '0') : new Decimal(0);
  if (oneWay) add(oneWay, oneWayFee);

  const net = rentalNet.plus(addonsTotal).plus(oneWayFee);
  const taxRule = rulesFor(rules, 'tax', v)[0];
  const taxRate = taxRule?.percent ? new Decimal(taxRule.percent) : new Decimal(0);
  const tax = cents(net.times(taxRate).div(100));
  if (taxRule) add(taxRule, tax);
  const total = net.plus(tax);
  const depRule = rulesFor(rules, 'deposit', v)[0];
  const depPct =
    v.deposit_percent !== null
      ? new Decimal(v.deposit_percent)
      : depRule?.percent
        ? new Decimal(depRule.percent)
        : new Decimal(0);
  const deposit = cents(total.times(depPct).div(100));
  if (depRule && v.deposit_percent === null) add(depRule, deposit);

  return {
    days,
    price_per_day: money(p),
    breakdown: {
      base: base.toNumber(),
      weekday_days: days - weekendDays,
      weekend_days: weekendDays,
      season_adjustment: seasonR.toNumber(),
      weekend_adjustment: weekendR.toNumber(),
      rental_subtotal: subtotal.toNumber(),
      duration_discount: discount.toNumber(),
      rental_net: rentalNet.toNumber(),
      addons,
      addons_total: addonsTotal.toNumber(),
      one_way_fee: oneWayFee.toNumber(),
      rules: [...contributions.values()].map((c) => ({
        rule_id: c.rule.id,
        name: c.rule.name,
        kind: c.rule.kind,
        amount: money(c.amount),
        days: c.days,
      })),
    },
    net_price: net.toNumber(),
    addons_total: addonsTotal.plus(oneWayFee).toNumber(),
    tax_rate: taxRate.toNumber(),
    tax: tax.toNumber(),
    total: total.toNumber(),
    deposit_percent: depPct.toNumber(),
    deposit: deposit.toNumber(),
    remaining: total.minus(deposit).toNumber(),
  };
}
