import { Type, type Static } from '@sinclair/typebox';
import { Instant, lit, Nullable } from '../schemas.js';

export const ROUTE_PRICINGS = ['fixed', 'calculated'] as const;

/** A transfer route as every transfer-route route answers it (`routeView`). */
export const TransferRouteView = Type.Object(
  {
    id: Type.Integer(),
    origin: Type.String(),
    destination: Type.String(),
    origin_location_id: Nullable(Type.Integer()),
    destination_location_id: Nullable(Type.Integer()),
    distance_km: Type.Number(),
    duration_min: Type.Integer(),
    pricing: lit(ROUTE_PRICINGS),
    base_price: Type.Number(),
    price_per_km: Type.Number(),
    min_price: Type.Number(),
    price: Type.Number({
      description:
        'What the transfer costs: fixed → base_price; calculated → max(min_price, base_price + km × price_per_km)',
    }),
    is_active: Type.Boolean(),
    created_at: Instant,
    updated_at: Instant,
  },
  { additionalProperties: false, description: 'Transfer route' },
);
export type TransferRouteView = Static<typeof TransferRouteView>;

/** The columns a transfer-route INSERT sets (decimals as text; the database defaults the rest to 0 / fixed / active). */
export const TransferRouteColumns = Type.Object(
  {
    origin: Type.String(),
    destination: Type.String(),
    origin_location_id: Type.Optional(Nullable(Type.Integer())),
    destination_location_id: Type.Optional(Nullable(Type.Integer())),
    distance_km: Type.Optional(Type.String({ description: 'Decimal text' })),
    duration_min: Type.Optional(Type.Integer()),
    pricing: Type.Optional(lit(ROUTE_PRICINGS)),
    base_price: Type.Optional(Type.String({ description: 'Decimal text' })),
    price_per_km: Type.Optional(Type.String({ description: 'Decimal text' })),
    min_price: Type.Optional(Type.String({ description: 'Decimal text' })),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TransferRouteInsert = Static<typeof TransferRouteColumns>;
export type TransferRouteUpdate = Partial<TransferRouteInsert>;
