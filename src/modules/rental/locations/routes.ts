import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { catalogueChanged, catalogueOf } from '../catalogue.js';
import { publicReadLimit } from '../http/rate-limits.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, Deleted, IdParams, Nullable, Priority, Text } from '../schemas.js';
import { writeSchemas } from '../write-schemas.js';
import { iso, num } from '../views.js';
import { LOCATION_TYPES, LocationView, OpeningHours, PublicLocation } from './schema.js';
import { createLocation, editLocation, locationSlug, removeLocation, type LocationRow } from './service.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';

const T = ['rental: locations'];

export function locationView(l: LocationRow): LocationView {
  return {
    id: Number(l.id),
    name: l.name,
    slug: l.slug,
    type: l.type,
    city: l.city,
    address: l.address,
    latitude: num(l.latitude),
    longitude: num(l.longitude),
    priority: l.priority,
    is_active: l.is_active,
    allow_rental: l.allow_rental,
    allow_transfer: l.allow_transfer,
    opening_hours: l.opening_hours,
    created_at: iso(l.created_at),
    updated_at: iso(l.updated_at),
  };
}

const LocationBody = {
  name: Text({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,100}$' })),
  type: Type.Union(LOCATION_TYPES.map((t) => Type.Literal(t))),
  city: Text({ maxLength: 100 }),
  address: Type.Optional(Text({ maxLength: 500 })),
  latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
  longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  priority: Type.Optional(Priority),
  is_active: Type.Optional(Type.Boolean()),
  allow_rental: Type.Optional(Type.Boolean()),
  allow_transfer: Type.Optional(Type.Boolean()),
  opening_hours: Type.Optional(OpeningHours),
};
const LocationInput = writeSchemas(LocationBody);

export const locationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/locations',
    {
      config: { auth: 'public' },
      onRequest: publicReadLimit,
      schema: {
        tags: ['rental: public'],
        summary: 'Active locations (public), highest priority first, then name; paginated',
        security: [],
        querystring: Type.Object({
          ...PagingQuery,
          type: Type.Optional(
            Text({
              maxLength: 50,
              description: 'Location type (airport, hotel, …) or service: rental | transfer | both',
            }),
          ),
          city: Type.Optional(Text({ maxLength: 100, description: 'Case-insensitive exact city' })),
        }),
        response: { 200: RentalEnvelope(PageSchema(PublicLocation)), ...rentalErrors(400, 429) },
      },
    },
    async (req) => {
      const { type, city } = req.query;
      const pg = parsePaging(req.query);
      const all = [...(await catalogueOf(p).get()).locations.values()];
      const items = all
        .filter((l) => l.is_active)
        .filter(
          (l) =>
            !type ||
            type === 'both' ||
            (type === 'rental' ? l.allow_rental : type === 'transfer' ? l.allow_transfer : l.type === type),
        )
        .filter((l) => city === undefined || l.city.toLocaleLowerCase() === city.trim().toLocaleLowerCase())
        .sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name))
        .map((l): PublicLocation => ({
          id: Number(l.id),
          name: l.name,
          type: l.type,
          city: l.city,
          address: l.address,
          priority: l.priority,
          allow_rental: l.allow_rental,
          allow_transfer: l.allow_transfer,
          opening_hours: l.opening_hours,
        }));
      return rentalOk(pageOf(items.slice(pg.offset, pg.offset + pg.limit), items.length, pg));
    },
  );

  app.post(
    '/locations',
    {
      schema: {
        tags: T,
        summary: 'Create a location (Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: LocationInput.create,
        response: { 201: RentalEnvelope(LocationView), ...rentalErrors(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const slug = locationSlug(b);
      const r = await keyedWrite(p, req, reply, {
        action: 'location-create',
        async write(tx) {
          const l = await createLocation(tx, { ...b, slug });
          return { status: 201, body: rentalOk(locationView(l), 'Location created.') };
        },
        after: () => catalogueChanged(p),
      });
      req.auditTarget = `location:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.put(
    '/locations/:id',
    {
      schema: {
        tags: T,
        summary: 'Update a location',
        params: IdParams,
        body: LocationInput.update,
        response: adminResponses(LocationView, 200, 404, 409),
      },
    },
    async (req) => {
      const l = await editLocation(p.db, req.params.id, req.body);
      await catalogueChanged(p);
      return rentalOk(locationView(l), 'Location updated.');
    },
  );

  app.delete(
    '/locations/:id',
    {
      schema: {
        tags: T,
        summary: 'Delete a location (vehicles and bookings keep a null location)',
        params: IdParams,
        response: adminResponses(Deleted, 200, 404),
      },
    },
    async (req) => {
      await removeLocation(p.db, req.params.id);
      await catalogueChanged(p);
      return rentalOk({ id: req.params.id, deleted: true }, 'Location deleted.');
    },
  );
};
