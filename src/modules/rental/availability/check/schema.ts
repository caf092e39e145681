import { Type, type Static } from '@sinclair/typebox';

const Time = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description });
const AddonCode = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,50}$', description: 'Add-on code' });
const LocationId = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

/** Fields shared by /booking/check and /booking/create (design §8 "Shapes fixed for v2"). */
export const CheckFields = {
  vehicle_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The vehicle' }),
  pickup_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, store timezone' }),
  return_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, store timezone' }),
  pickup_time: Type.Optional(Time('HH:MM, 24 h, store timezone; default 10:00')),
  return_time: Type.Optional(Time('HH:MM, 24 h, store timezone; default 10:00')),
  pickup_location_id: Type.Optional(LocationId('Pickup location (default: the vehicle’s)')),
  return_location_id: Type.Optional(LocationId('Return location (default: the pickup location)')),
  addons: Type.Optional(
    Type.Array(
      Type.Union([
        AddonCode,
        Type.Object(
          {
            code: AddonCode,
            quantity: Type.Integer({
              minimum: 1,
              maximum: 100,
              description: 'Units (at most the rule’s max_per_day; one when it has none)',
            }),
          },
          { additionalProperties: false },
        ),
      ]),
      {
        maxItems: 20,
        uniqueItems: true,
        description:
          'Add-ons (pricing rules of kind addon, the extras of GET /booking/check’s answer): a code for one unit, or {code, quantity}',
      },
    ),
  ),
};

/** The body of POST /booking/check: enforced by the route and published at GET /schemas/booking-check.json. */
export const BookingCheckBody = Type.Object(
  {
    ...CheckFields,
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{3}$',
        description:
          'The visitor’s display currency (as search takes it): the answer adds `display`, the total as the currency ' +
          'service shows it. The booking is still charged in the store’s currency.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'Booking check',
    description: 'Is a vehicle free for these dates, and what does it cost?',
  },
);
export type BookingCheckInput = Static<typeof BookingCheckBody>;

/** The published document: the same schema with its JSON Schema dialect and id. */
export function publishedCheckSchema(id: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    ...(JSON.parse(JSON.stringify(BookingCheckBody)) as Record<string, unknown>),
  };
}
