import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { publicReadLimit } from '../../http/rate-limits.js';
import { PagingQuery } from '../../paging.js';
import { SORTS, searchVehicles } from './service.js';

const Str = (max: number, description?: string) => Type.Optional(Type.String({ maxLength: max, pattern: '^[^\\u0000]*$', description }));
const Num = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000, description }));
const Year = Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100 }));

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get('/vehicles/search', {
    config: { auth: 'public' },
    onRequest: publicReadLimit,
    schema: {
      tags: ['rental v2: booking journey'], summary: 'Search vehicles: filters, sorts, facets; with dates only free vehicles, each card priced for the dates (public)', security: [],
      querystring: Type.Object({
        q: Str(100, 'Keyword (name, brand, model, description)'),
        pickup_date: Type.Optional(Type.String({ format: 'date' })), return_date: Type.Optional(Type.String({ format: 'date' })),
        pickup_time: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' })), return_time: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' })),
        location_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
        category: Str(50), brand: Str(50), features: Str(300, 'Comma-separated; all must be present'),
        fuel_type: Type.Optional(Type.Union(['petrol', 'diesel', 'hybrid', 'electric', 'lpg'].map((x) => Type.Literal(x)))),
        transmission: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('automatic')])),
        seats: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At least this many seats' })),
        min_price: Num('Minimum price per day'), max_price: Num('Maximum price per day'), year_min: Year, year_max: Year,
        sort: Type.Optional(Type.Union(SORTS.map((s) => Type.Literal(s)))),
        currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'An enabled currency of the currency service; otherwise the base currency' })),
        ...PagingQuery,
      }, { additionalProperties: false }),
      response: { 200: RentalEnvelope(Type.Object({}, { additionalProperties: true })), ...rentalErrors(400, 429) },
    },
  }, async (req) => rentalOk(await searchVehicles(p, { ...req.query, page: req.query.page ?? 1, per_page: req.query.per_page ?? 20 })));
};
