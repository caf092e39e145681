import { Type, type Static } from '@sinclair/typebox';
import { Instant, lit, Nullable, TimeStr } from '../schemas.js';

export const LOCATION_TYPES = ['airport', 'hotel', 'port', 'station', 'city_center', 'office', 'other'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

const Hours = Type.Object({ open: TimeStr, close: TimeStr }, { additionalProperties: false });
const Day = Type.Optional(Hours);
/** null = always open; a missing day = closed. */
export const OpeningHours = Nullable(
  Type.Object(
    { mon: Day, tue: Day, wed: Day, thu: Day, fri: Day, sat: Day, sun: Day },
    { additionalProperties: false, description: 'Opening hours by day (store timezone); a missing day is closed' },
  ),
);
export type OpeningHours = NonNullable<Static<typeof OpeningHours>>;

/** A location as the admin routes answer it (`locationView`). */
export const LocationView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    type: lit(LOCATION_TYPES),
    city: Type.String(),
    address: Type.String(),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    priority: Type.Integer({ description: 'Higher first' }),
    is_active: Type.Boolean(),
    allow_rental: Type.Boolean(),
    allow_transfer: Type.Boolean(),
    opening_hours: OpeningHours,
    created_at: Instant,
    updated_at: Instant,
  },
  { additionalProperties: false, description: 'Location' },
);
export type LocationView = Static<typeof LocationView>;

/** A location in the public list (GET /locations): what a storefront shows, without the admin's bookkeeping. */
export const PublicLocation = Type.Object(
  {
    id: LocationView.properties.id,
    name: LocationView.properties.name,
    type: LocationView.properties.type,
    city: LocationView.properties.city,
    address: LocationView.properties.address,
    priority: LocationView.properties.priority,
    allow_rental: LocationView.properties.allow_rental,
    allow_transfer: LocationView.properties.allow_transfer,
    opening_hours: OpeningHours,
  },
  { additionalProperties: false, description: 'Active location (public)' },
);
export type PublicLocation = Static<typeof PublicLocation>;

/** The columns a location INSERT sets (coordinates as numbers or decimal text; the rest defaults). */
export const LocationColumns = Type.Object(
  {
    name: Type.String(),
    slug: Type.String(),
    type: Type.Optional(lit(LOCATION_TYPES)),
    city: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
    latitude: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String()]))),
    longitude: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String()]))),
    priority: Type.Optional(Type.Integer()),
    is_active: Type.Optional(Type.Boolean()),
    allow_rental: Type.Optional(Type.Boolean()),
    allow_transfer: Type.Optional(Type.Boolean()),
    opening_hours: Type.Optional(OpeningHours),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type LocationInsert = Static<typeof LocationColumns>;
export type LocationUpdate = Partial<Omit<LocationInsert, 'created_at' | 'updated_at'>>;
