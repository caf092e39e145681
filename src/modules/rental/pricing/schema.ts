import { Type, type Static } from '@sinclair/typebox';
import { lit, Nullable } from '../schemas.js';
import { RULE_KINDS, RULE_SCOPES } from './types.js';

export const RULE_CHARGES = ['per_day', 'per_booking'] as const;

/** A pricing rule as every pricing-rule route answers it (`ruleView`). */
export const PricingRuleView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    kind: lit(RULE_KINDS),
    scope: lit(RULE_SCOPES),
    category: Nullable(Type.String({ description: 'scope category: the vehicles’ category' })),
    vehicle_id: Nullable(Type.Integer({ description: 'scope vehicle: the vehicle' })),
    start_date: Nullable(Type.String({ description: 'Seasons: YYYY-MM-DD (store timezone)' })),
    end_date: Nullable(Type.String({ description: 'Seasons: YYYY-MM-DD, inclusive' })),
    recurring: Type.Boolean({ description: 'Seasons: the year is ignored' }),
    multiplier: Nullable(Type.Number({ description: 'Seasons and weekends' })),
    percent: Nullable(Type.Number({ description: 'Duration tiers (negative = discount), tax and deposit' })),
    min_days: Nullable(Type.Integer({ description: 'Duration tiers' })),
    code: Nullable(Type.String({ description: 'Add-ons: the code a booking names' })),
    amount: Nullable(Type.Number({ description: 'Add-ons: the price' })),
    charge: Nullable(lit(RULE_CHARGES)),
    max_per_day: Nullable(
      Type.Integer({ description: 'Add-ons: the most units one booking may take at a time (null: one)' }),
    ),
    priority: Type.Integer(),
    is_active: Type.Boolean(),
  },
  { additionalProperties: false, description: 'Pricing rule' },
);
export type PricingRuleView = Static<typeof PricingRuleView>;

/** The columns a pricing-rule INSERT sets (decimals as text; the database checks each kind's scope). */
export const PricingRuleColumns = Type.Object(
  {
    name: Type.String(),
    kind: lit(RULE_KINDS),
    scope: Type.Optional(lit(RULE_SCOPES)),
    category: Type.Optional(Nullable(Type.String())),
    vehicle_id: Type.Optional(Nullable(Type.Integer())),
    start_date: Type.Optional(Nullable(Type.String())),
    end_date: Type.Optional(Nullable(Type.String())),
    recurring: Type.Optional(Type.Boolean()),
    multiplier: Type.Optional(Nullable(Type.String({ description: 'Decimal text' }))),
    percent: Type.Optional(Nullable(Type.String({ description: 'Decimal text' }))),
    min_days: Type.Optional(Nullable(Type.Integer())),
    code: Type.Optional(Nullable(Type.String())),
    amount: Type.Optional(Nullable(Type.String({ description: 'Decimal text' }))),
    charge: Type.Optional(Nullable(lit(RULE_CHARGES))),
    max_per_day: Type.Optional(Nullable(Type.Integer())),
    priority: Type.Optional(Type.Integer()),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PricingRuleInsert = Static<typeof PricingRuleColumns>;
export type PricingRuleUpdate = Partial<PricingRuleInsert>;
