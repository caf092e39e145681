import type { Db } from '../../../platform/db/types.js';
import { invalidField, notFoundError, RentalErrors } from '../errors.js';
import { isValidDate } from '../time.js';
import * as repo from './repo.js';
import type { PricingRuleInsert, PricingRuleUpdate } from './schema.js';
import type { PricingRule } from './types.js';

/** The fields each kind needs (checked on the merged rule). */
export function validateRule(r: Partial<PricingRule>): void {
  if (r.scope === 'category' && !r.category) throw invalidField('category', 'A category rule needs category.');
  if (r.scope === 'vehicle' && !r.vehicle_id) throw invalidField('vehicle_id', 'A vehicle rule needs vehicle_id.');
  for (const f of ['start_date', 'end_date'] as const)
    if (r[f] && !isValidDate(r[f]!)) throw invalidField(f, `${f} is not a date.`);
  switch (r.kind) {
    case 'season':
      if (!r.start_date || !r.end_date) throw invalidField('start_date', 'A season needs start_date and end_date.');
      if (!r.recurring && r.start_date > r.end_date)
        throw RentalErrors.invalidDateRange('start_date is after end_date.');
      if (r.multiplier === null || r.multiplier === undefined)
        throw invalidField('multiplier', 'A season needs multiplier.');
      break;
    case 'weekend':
      if (r.multiplier === null || r.multiplier === undefined)
        throw invalidField('multiplier', 'A weekend rule needs multiplier.');
      break;
    case 'duration':
      if (!r.min_days || r.percent === null || r.percent === undefined)
        throw invalidField('min_days', 'A duration tier needs min_days and percent.');
      break;
    case 'addon':
      if (!r.code || r.amount === null || r.amount === undefined)
        throw invalidField('code', 'An add-on needs code and amount.');
      break;
    case 'one_way':
      if (r.amount === null || r.amount === undefined)
        throw invalidField('amount', 'A one-way fee needs amount (charged once per one-way rental).');
      break;
    case 'tax':
    case 'deposit':
      if (r.percent === null || r.percent === undefined)
        throw invalidField('percent', `A ${r.kind} rule needs percent.`);
      break;
  }
}

type Decimals = 'multiplier' | 'percent' | 'amount';
/** The body's decimals as text (PostgreSQL numeric). */
export function ruleFields<B extends Partial<Record<Decimals, number | null>>>(
  b: B,
): Omit<B, Decimals> & Pick<PricingRuleUpdate, Decimals> {
  const s = (v: number | null | undefined) => (v === undefined || v === null ? v : String(v));
  return { ...b, multiplier: s(b.multiplier), percent: s(b.percent), amount: s(b.amount) };
}

/** An unknown vehicle (or another broken constraint) is the caller's mistake (400), not a 500. */
function fkError(e: unknown): never {
  const msg = e instanceof Error ? e.message + String((e as { cause?: unknown }).cause ?? '') : '';
  if (/foreign key|violates/.test(msg))
    throw invalidField('vehicle_id', 'The rule refers to an unknown vehicle or breaks a constraint.');
  throw e;
}

export function findRules(db: Db, kind: string | undefined, limit: number, offset: number) {
  return repo.listRules(db, kind, limit, offset);
}

export async function ruleOf(db: Db, id: number): Promise<PricingRule> {
  const r = await repo.ruleById(db, id);
  if (!r) throw notFoundError('Pricing rule', id);
  return r;
}

/** Stores a rule already checked by validateRule. */
export function createRule(tx: Db, fields: PricingRuleInsert): Promise<PricingRule> {
  return repo.insertRule(tx, fields).catch(fkError);
}

/** Updates a rule: the stored rule with the changes applied must still be valid for its kind. */
export async function editRule(db: Db, id: number, f: PricingRuleUpdate): Promise<PricingRule> {
  const cur = await ruleOf(db, id);
  validateRule({
    ...cur,
    ...(Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Partial<PricingRule>),
  });
  return (await repo.updateRule(db, id, f).catch(fkError))!;
}

export async function removeRule(db: Db, id: number): Promise<void> {
  if (!(await repo.deleteRule(db, id))) throw notFoundError('Pricing rule', id);
}
