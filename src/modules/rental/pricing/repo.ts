import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { insertParts, setClause } from '../sqlx.js';
import type { PricingRuleInsert, PricingRuleUpdate } from './schema.js';
import type { PricingRule } from './types.js';

interface RuleRow extends Omit<PricingRule, 'id' | 'vehicle_id' | 'start_date' | 'end_date'> {
  id: string | number;
  vehicle_id: string | number | null;
  start_date: string | Date | null;
  end_date: string | Date | null;
}

const dateText = (v: string | Date | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);

function toRule(r: RuleRow): PricingRule {
  return {
    ...r,
    id: Number(r.id),
    vehicle_id: r.vehicle_id === null ? null : Number(r.vehicle_id),
    start_date: dateText(r.start_date),
    end_date: dateText(r.end_date),
  };
}

const COLS = sql`id, name, kind, scope, category, vehicle_id, start_date::text AS start_date, end_date::text AS end_date, recurring,
  multiplier::text AS multiplier, percent::text AS percent, min_days, code, amount::text AS amount, charge, max_per_day, priority, is_active`;

export async function allRules(db: Db): Promise<PricingRule[]> {
  return (await rows<RuleRow>(db, sql`SELECT ${COLS} FROM rental_pricing_rules ORDER BY id`)).map(toRule);
}

export async function ruleById(db: Db, id: number): Promise<PricingRule | undefined> {
  const r = await one<RuleRow>(db, sql`SELECT ${COLS} FROM rental_pricing_rules WHERE id = ${id}`);
  return r ? toRule(r) : undefined;
}

export async function listRules(
  db: Db,
  kind: string | undefined,
  limit: number,
  offset: number,
): Promise<{ items: PricingRule[]; total: number }> {
  const w = kind ? sql`WHERE kind = ${kind}` : sql``;
  const items = (
    await rows<RuleRow>(
      db,
      sql`SELECT ${COLS} FROM rental_pricing_rules ${w} ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
    )
  ).map(toRule);
  const t = await one<{ n: string }>(db, sql`SELECT count(*) AS n FROM rental_pricing_rules ${w}`);
  return { items, total: Number(t?.n ?? 0) };
}

export async function insertRule(db: Db, f: PricingRuleInsert): Promise<PricingRule> {
  const { cols, vals } = insertParts(f);
  const r = await one<{ id: string }>(
    db,
    sql`INSERT INTO rental_pricing_rules (${cols}) VALUES (${vals}) RETURNING id`,
  );
  return (await ruleById(db, Number(r!.id)))!;
}

export async function updateRule(db: Db, id: number, f: PricingRuleUpdate): Promise<PricingRule | undefined> {
  const r = await one<{ id: string }>(
    db,
    sql`UPDATE rental_pricing_rules SET ${setClause(f)} WHERE id = ${id} RETURNING id`,
  );
  return r ? ruleById(db, id) : undefined;
}

export async function deleteRule(db: Db, id: number): Promise<boolean> {
  return (await rows(db, sql`DELETE FROM rental_pricing_rules WHERE id = ${id} RETURNING id`)).length > 0;
}
