export const RULE_KINDS = ['season', 'weekend', 'duration', 'addon', 'tax', 'deposit', 'one_way'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const RULE_SCOPES = ['global', 'category', 'vehicle'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

/** A pricing rule as loaded (numbers as decimal strings). */
export interface PricingRule {
  id: number;
  name: string;
  kind: RuleKind;
  scope: RuleScope;
  category: string | null;
  vehicle_id: number | null;
  start_date: string | null;
  end_date: string | null;
  recurring: boolean;
  multiplier: string | null;
  percent: string | null;
  min_days: number | null;
  code: string | null;
  amount: string | null;
  charge: 'per_day' | 'per_booking' | null;
  /** Add-ons: the most units one booking may take (null: one). */
  max_per_day: number | null;
  priority: number;
  is_active: boolean;
}

/** What the engine needs to know about a vehicle. */
export interface PricedVehicle {
  id: number;
  category: string;
  price_per_day: string;
  deposit_percent: string | null;
}
