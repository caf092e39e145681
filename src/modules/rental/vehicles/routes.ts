import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { catalogueChanged } from '../catalogue.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, DateStr, Deleted, IdParams, Nullable, Id, lit, Text } from '../schemas.js';
import { writeSchemas } from '../write-schemas.js';
import { vehicleView } from '../views.js';
import { VehicleView as Vehicle } from './schema.js';
import { createVehicle, editVehicle, findVehicles, removeVehicle, vehicleFields, vehicleOf } from './service.js';
import { photoFilesOf, photoViewsOf, photoViewsOfMany, removePhotoFiles } from './photos/service.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';

const T = ['rental: vehicles'];
const VehicleBody = {
  name: Text({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,100}$' })),
  status: Type.Optional(lit(['active', 'inactive', 'maintenance'])),
  vendor_id: Type.Optional(Nullable(Id())),
  price_per_day: Type.Number({ minimum: 0, maximum: 1e9 }),
  deposit_percent: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
  category: Type.Optional(Text({ minLength: 1, maxLength: 50 })),
  brand: Type.Optional(Text({ maxLength: 100 })),
  model: Type.Optional(Text({ maxLength: 100 })),
  year: Type.Optional(Nullable(Type.Integer({ minimum: 1900, maximum: 2100 }))),
  seats: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
  doors: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10 }))),
  transmission: Type.Optional(lit(['manual', 'automatic'])),
  fuel_type: Type.Optional(lit(['petrol', 'diesel', 'hybrid', 'electric', 'lpg'])),
  features: Type.Optional(Type.Array(Text({ maxLength: 100 }), { maxItems: 50 })),
  description: Type.Optional(Text({ maxLength: 10000 })),
  location_id: Type.Optional(Nullable(Id())),
  service_type: Type.Optional(lit(['rental', 'transfer', 'both'])),
  transfer_max_passengers: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
  transfer_max_luggage: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
  blocked_dates: Type.Optional(Type.Array(DateStr, { maxItems: 1000 })),
};
const VehicleInput = writeSchemas(VehicleBody);

export const vehicleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const photosFor = (id: number) => photoViewsOf(p, id);
  app.get(
    '/vehicles',
    {
      schema: {
        tags: T,
        summary: 'List vehicles',
        querystring: Type.Object({
          ...PagingQuery,
          status: Type.Optional(lit(['active', 'inactive', 'maintenance'])),
          category: Type.Optional(Text({ maxLength: 50 })),
          location_id: Type.Optional(Id()),
          vendor_id: Type.Optional(Id()),
          search: Type.Optional(Text({ maxLength: 100 })),
        }),
        response: adminResponses(PageSchema(Vehicle)),
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findVehicles(p.db, req.query, pg.limit, pg.offset);
      const photos = await photoViewsOfMany(
        p,
        r.items.map((v) => Number(v.id)),
      );
      return rentalOk(
        pageOf(
          r.items.map((v) => vehicleView(v, photos.get(Number(v.id)))),
          r.total,
          pg,
        ),
      );
    },
  );

  app.get(
    '/vehicles/:id',
    { schema: { tags: T, summary: 'One vehicle', params: IdParams, response: adminResponses(Vehicle, 200, 404) } },
    async (req) => {
      return rentalOk(vehicleView(await vehicleOf(p.db, req.params.id), await photosFor(req.params.id)));
    },
  );

  app.post(
    '/vehicles',
    {
      schema: {
        tags: T,
        summary: 'Create a vehicle (Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: VehicleInput.create,
        response: { 201: RentalEnvelope(Vehicle), ...rentalErrors(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => {
      const fields = vehicleFields(req.body);
      const r = await keyedWrite(p, req, reply, {
        action: 'vehicle-create',
        async write(tx) {
          const v = await createVehicle(tx, fields, p.storeCurrency.code);
          return { status: 201, body: rentalOk(vehicleView(v), 'Vehicle created.') };
        },
        after: () => catalogueChanged(p),
      });
      req.auditTarget = `vehicle:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.put(
    '/vehicles/:id',
    {
      schema: {
        tags: T,
        summary: 'Update a vehicle',
        params: IdParams,
        body: VehicleInput.update,
        response: adminResponses(Vehicle, 200, 404, 409),
      },
    },
    async (req) => {
      const v = await editVehicle(p.db, req.params.id, req.body);
      await catalogueChanged(p);
      return rentalOk(vehicleView(v, await photosFor(req.params.id)), 'Vehicle updated.');
    },
  );

  app.delete(
    '/vehicles/:id',
    {
      schema: {
        tags: T,
        summary: 'Delete a vehicle without bookings (else 409: set it inactive)',
        params: IdParams,
        response: adminResponses(Deleted, 200, 404, 409),
      },
    },
    async (req) => {
      const files = await photoFilesOf(p.db, req.params.id);
      await removeVehicle(p.db, req.params.id);
      // the photo rows went with the vehicle; their files follow
      await removePhotoFiles(p, files);
      await catalogueChanged(p);
      return rentalOk({ id: req.params.id, deleted: true }, 'Vehicle deleted.');
    },
  );
};
