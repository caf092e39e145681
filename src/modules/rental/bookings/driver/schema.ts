import { Type, type Static } from '@sinclair/typebox';
import { Instant, Nullable, Text } from '../../schemas.js';

/** The driver of a booking as a create body names them (checked again, with clear messages, by checkDriver). */
export const DriverBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 200, description: 'The driver’s full name' }),
    date_of_birth: Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a real date in the past' }),
    licence_number: Type.String({
      maxLength: 30,
      description: 'Driving licence number: 4–30 letters, digits, spaces, - or /',
    }),
  },
  { additionalProperties: false, description: 'Who drives (personal data)' },
);
export type DriverBody = Static<typeof DriverBody>;

/** The fields a booking create body (customer journey and admin) takes for the driver and the terms. */
export const DriverFields = {
  driver: Type.Optional(DriverBody),
  flight_number: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'Airport pick-ups only: the arriving flight, e.g. TK1234 (letters and digits)',
    }),
  ),
  terms_accepted: Type.Optional(
    Type.Boolean({
      description: 'The customer accepted the rental terms; required (true) when the store has terms',
    }),
  ),
  terms_version: Type.Optional(
    Type.String({
      maxLength: 50,
      description: 'The terms version accepted (GET /booking/driver-rules): must be current',
    }),
  ),
};

export interface DriverInput {
  driver?: DriverBody;
  flight_number?: string;
  terms_accepted?: boolean;
  terms_version?: string;
}

const Years = Type.Integer({ minimum: 16, maximum: 99 });

export const DriverSettingsView = Type.Object(
  {
    driver_required: Type.Boolean({ description: 'Booking create refuses a booking without `driver`' }),
    min_age: { ...Years, description: 'Youngest driver (years on the pick-up date) for any category' },
    min_age_by_category: Type.Record(Type.String(), Years, {
      description: 'Minimum age by vehicle category (lower case), e.g. {"suv": 25}',
    }),
    terms_text: Type.String({ description: 'Rental terms shown on the review step ("" = none)' }),
    terms_url: Type.String({ description: 'Link to the rental terms ("" = none)' }),
    terms_version: Type.String({ description: 'The version a customer accepts (required when there are terms)' }),
  },
  { additionalProperties: false, description: 'Driver and terms settings' },
);

export const DriverSettingsBody = Type.Object(
  {
    driver_required: Type.Optional(Type.Boolean()),
    min_age: Type.Optional(Years),
    min_age_by_category: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,49}$' }), Years, {
        maxProperties: 50,
        additionalProperties: false,
      }),
    ),
    terms_text: Type.Optional(Text({ maxLength: 20_000 })),
    terms_url: Type.Optional(Type.String({ maxLength: 500 })),
    terms_version: Type.Optional(Text({ maxLength: 50 })),
  },
  { additionalProperties: false, description: 'Change driver and terms settings (fields left out keep their value)' },
);
export type DriverSettingsBody = Static<typeof DriverSettingsBody>;

/** What the widget needs before booking (public). */
export const DriverRulesView = Type.Object(
  {
    driver_required: Type.Boolean(),
    min_age: Type.Integer(),
    min_age_by_category: Type.Record(Type.String(), Type.Integer()),
    terms: Nullable(
      Type.Object({ version: Type.String(), text: Type.String(), url: Type.String() }, { additionalProperties: false }),
      { description: 'null: the store asks no acceptance' },
    ),
    cancellation: Type.Object(
      {
        free_cancel_hours: Type.Integer({ description: 'Free cancellation until this many hours before pick-up' }),
        fee_percent: Type.Integer({ description: 'After that, this percent of what was paid is kept' }),
      },
      { additionalProperties: false, description: 'The store’s cancellation policy (BOOKING_FREE_CANCEL_HOURS, …)' },
    ),
  },
  { additionalProperties: false, description: 'Driver rules, terms and cancellation policy shown before booking' },
);
export type DriverRulesView = Static<typeof DriverRulesView>;

export const BookingDriverView = Type.Object(
  {
    name: Nullable(Type.String()),
    date_of_birth: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
    licence_number: Nullable(Type.String()),
    flight_number: Nullable(Type.String()),
    terms_version: Nullable(Type.String()),
    terms_accepted_at: Nullable(Instant),
  },
  { additionalProperties: false, description: 'The booking’s driver, flight and terms acceptance (personal data)' },
);
export type BookingDriverView = Static<typeof BookingDriverView>;
