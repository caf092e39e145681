import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { sendJsonOnce } from '../../../../platform/http/json-once.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { publicReadLimit } from '../../http/rate-limits.js';
import { PagingQuery } from '../../paging.js';
import { SORTS, searchVehicles } from './service.js';
import { PhotoView } from '../../vehicles/photos/views.js';

const Str = (max: number, description?: string) =>
  Type.Optional(Type.String({ maxLength: max, pattern: '^[^\\u0000]*$', description }));
const Num = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000, description }));
const Year = Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100 }));

const Count = Type.Record(Type.String(), Type.Integer());
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Card = Type.Object({
  vehicle_id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  category: Type.String(),
  brand: Type.String(),
  model: Type.String(),
  year: Nullable(Type.Integer()),
  seats: Nullable(Type.Integer()),
  transmission: Nullable(Type.String()),
  fuel_type: Nullable(Type.String()),
  features: Type.Array(Type.Unknown()),
  location_id: Nullable(Type.Integer()),
  photos: Type.Array(PhotoView, { description: 'Cover first (the card shows the first); [] when none' }),
  days: Type.Integer(),
  price_per_day: Type.Number(),
  total_price: Type.Number({ description: 'For the dates (or one day without dates), in `currency`' }),
  currency: Type.String(),
});
const SearchResult = Type.Object({
  items: Type.Array(Card),
  total: Type.Integer(),
  total_pages: Type.Integer(),
  page: Nullable(Type.Integer({ description: 'null when paging by cursor' })),
  per_page: Type.Integer(),
  next_cursor: Nullable(
    Type.String({
      description: 'Pass as cursor= for the cards after this page (same filters and sort); null at the end',
    }),
  ),
  facets: Type.Object({ category: Count, brand: Count, fuel_type: Count, transmission: Count }),
  currency: Type.String(),
});

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/vehicles/search',
    {
      config: { auth: 'public' },
      onRequest: publicReadLimit,
      schema: {
        tags: ['rental v2: booking journey'],
        summary:
          'Search vehicles: filters, sorts, facets; with dates only free vehicles, each card priced for the dates (public)',
        security: [],
        querystring: Type.Object(
          {
            q: Str(100, 'Keyword (name, brand, model, description)'),
            pickup_date: Type.Optional(Type.String({ format: 'date' })),
            return_date: Type.Optional(Type.String({ format: 'date' })),
            pickup_time: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' })),
            return_time: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' })),
            location_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
            category: Str(50),
            brand: Str(50),
            features: Str(300, 'Comma-separated; all must be present'),
            fuel_type: Type.Optional(
              Type.Union(['petrol', 'diesel', 'hybrid', 'electric', 'lpg'].map((x) => Type.Literal(x))),
            ),
            transmission: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('automatic')])),
            seats: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At least this many seats' })),
            min_price: Num('Minimum price per day'),
            max_price: Num('Maximum price per day'),
            year_min: Year,
            year_max: Year,
            sort: Type.Optional(Type.Union(SORTS.map((s) => Type.Literal(s)))),
            currency: Type.Optional(
              Type.String({
                pattern: '^[A-Za-z]{3}$',
                description: 'An enabled currency of the currency service; otherwise the base currency',
              }),
            ),
            cursor: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 2000,
                pattern: '^[A-Za-z0-9_.-]+$',
                description:
                  'Opaque: next_cursor of the previous answer for the same filters and sort (page is then ignored). Invalid, forged or from another query → 400 INVALID_PARAMS.',
              }),
            ),
            ...PagingQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: RentalEnvelope(SearchResult), ...rentalErrors(400, 429) },
      },
    },
    async (req, reply) => {
      // a repeated search gets the answer object computed before (busy-cache.ts), so its bytes too
      const answer = await searchVehicles(p, {
        ...req.query,
        page: req.query.page ?? 1,
        per_page: req.query.per_page ?? 20,
      });
      return sendJsonOnce(reply, answer, () => rentalOk(answer));
    },
  );
};
