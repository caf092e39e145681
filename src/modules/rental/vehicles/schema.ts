import { Type, type Static } from '@sinclair/typebox';
import { Instant, lit, Nullable } from '../schemas.js';
import { PhotoView } from './photos/views.js';

export const VEHICLE_STATUSES = ['active', 'inactive', 'maintenance'] as const;
export const TRANSMISSIONS = ['manual', 'automatic'] as const;
export const FUEL_TYPES = ['petrol', 'diesel', 'hybrid', 'electric', 'lpg'] as const;
export const SERVICE_TYPES = ['rental', 'transfer', 'both'] as const;

/** A vehicle as every vehicle route answers it (`vehicleView`): the route's response schema and its type. */
export const VehicleView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    status: lit(VEHICLE_STATUSES),
    vendor_id: Nullable(Type.Integer({ description: 'The vendor (marketplace); null = operator fleet' })),
    price_per_day: Type.Number({ description: 'Store currency, major units' }),
    deposit_percent: Nullable(Type.Number({ description: "Overrides the deposit rule's percent; null = the rule's" })),
    category: Type.String(),
    brand: Type.String(),
    model: Type.String(),
    year: Nullable(Type.Integer()),
    seats: Nullable(Type.Integer()),
    doors: Nullable(Type.Integer()),
    transmission: lit(TRANSMISSIONS),
    fuel_type: lit(FUEL_TYPES),
    features: Type.Array(Type.String()),
    description: Type.String(),
    location_id: Nullable(Type.Integer()),
    service_type: lit(SERVICE_TYPES),
    transfer_max_passengers: Nullable(Type.Integer()),
    transfer_max_luggage: Nullable(Type.Integer()),
    blocked_dates: Type.Array(Type.String({ description: 'YYYY-MM-DD (store timezone)' }), {
      description: 'Store-local dates on which the vehicle cannot be rented (sorted)',
    }),
    photos: Type.Array(PhotoView, { description: 'Cover first; upload with POST /vehicles/{id}/photos' }),
    created_at: Instant,
    updated_at: Instant,
  },
  { additionalProperties: false, description: 'Vehicle' },
);
export type VehicleView = Static<typeof VehicleView>;

/**
 * The columns a vehicle INSERT sets (decimals as text, as PostgreSQL's numeric; the database checks the lists and
 * fills what is left out with its defaults). Seeds and imports may set the instants.
 */
export const VehicleColumns = Type.Object(
  {
    name: Type.String(),
    slug: Type.String(),
    status: Type.Optional(lit(VEHICLE_STATUSES)),
    vendor_id: Type.Optional(Nullable(Type.Integer())),
    price_per_day: Type.Optional(Type.String({ description: 'Decimal text' })),
    deposit_percent: Type.Optional(Nullable(Type.String({ description: 'Decimal text' }))),
    currency: Type.Optional(Type.String()),
    category: Type.Optional(Type.String()),
    brand: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    year: Type.Optional(Nullable(Type.Integer())),
    seats: Type.Optional(Nullable(Type.Integer())),
    doors: Type.Optional(Nullable(Type.Integer())),
    transmission: Type.Optional(lit(TRANSMISSIONS)),
    fuel_type: Type.Optional(lit(FUEL_TYPES)),
    features: Type.Optional(Type.Array(Type.String())),
    description: Type.Optional(Type.String()),
    location_id: Type.Optional(Nullable(Type.Integer())),
    service_type: Type.Optional(lit(SERVICE_TYPES)),
    transfer_max_passengers: Type.Optional(Nullable(Type.Integer())),
    transfer_max_luggage: Type.Optional(Nullable(Type.Integer())),
    blocked_dates: Type.Optional(Type.Array(Type.String())),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type VehicleInsert = Static<typeof VehicleColumns>;
/** An UPDATE sets any of the same columns (`updated_at` is set by the statement). */
export type VehicleUpdate = Partial<Omit<VehicleInsert, 'created_at' | 'updated_at'>>;
