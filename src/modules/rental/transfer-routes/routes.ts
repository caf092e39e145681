import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { cents, dec, Decimal, money } from '../money.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, Deleted, IdParams, Nullable, Id, Text } from '../schemas.js';
import { writeSchemas } from '../write-schemas.js';
import { iso, num } from '../views.js';
import { TransferRouteView, type TransferRouteUpdate } from './schema.js';
import { createRoute, editRoute, findRoutes, removeRoute, routeOf, type TransferRouteRow } from './service.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';

const T = ['rental: transfer routes'];
const RouteBody = {
  origin: Text({ minLength: 1, maxLength: 200 }),
  destination: Text({ minLength: 1, maxLength: 200 }),
  origin_location_id: Type.Optional(Nullable(Id())),
  destination_location_id: Type.Optional(Nullable(Id())),
  distance_km: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })),
  duration_min: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  pricing: Type.Optional(Type.Union([Type.Literal('fixed'), Type.Literal('calculated')])),
  base_price: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
  price_per_km: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  min_price: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
  is_active: Type.Optional(Type.Boolean()),
};
const RouteInput = writeSchemas(RouteBody);

/** Transfer price: fixed → base_price; calculated → max(min_price, base_price + distance × price_per_km). */
export function routePrice(r: TransferRouteRow): number {
  if (r.pricing === 'fixed') return money(r.base_price);
  return cents(
    Decimal.max(dec(r.min_price), dec(r.base_price).plus(dec(r.distance_km).times(dec(r.price_per_km)))),
  ).toNumber();
}

export function routeView(r: TransferRouteRow): TransferRouteView {
  return {
    id: Number(r.id),
    origin: r.origin,
    destination: r.destination,
    origin_location_id: num(r.origin_location_id),
    destination_location_id: num(r.destination_location_id),
    distance_km: Number(r.distance_km),
    duration_min: r.duration_min,
    pricing: r.pricing,
    base_price: money(r.base_price),
    price_per_km: money(r.price_per_km),
    min_price: money(r.min_price),
    price: routePrice(r),
    is_active: r.is_active,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

type Decimals = 'distance_km' | 'base_price' | 'price_per_km' | 'min_price';
/** The body's decimals as text (PostgreSQL numeric); ids, minutes and the rest as given. */
function fields<B extends Partial<Record<Decimals, number>>>(
  b: B,
): Omit<B, Decimals> & Pick<TransferRouteUpdate, Decimals> {
  const text = (v: number | undefined) => (v === undefined ? undefined : String(v));
  return {
    ...b,
    distance_km: text(b.distance_km),
    base_price: text(b.base_price),
    price_per_km: text(b.price_per_km),
    min_price: text(b.min_price),
  };
}
export const transferRouteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/transfer-routes',
    {
      schema: {
        tags: T,
        summary: 'List transfer routes',
        querystring: Type.Object(PagingQuery),
        response: adminResponses(PageSchema(TransferRouteView)),
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findRoutes(p.db, pg.limit, pg.offset);
      return rentalOk(pageOf(r.items.map(routeView), r.total, pg));
    },
  );
  app.get(
    '/transfer-routes/:id',
    {
      schema: {
        tags: T,
        summary: 'One transfer route',
        params: IdParams,
        response: adminResponses(TransferRouteView, 200, 404),
      },
    },
    async (req) => {
      return rentalOk(routeView(await routeOf(p.db, req.params.id)));
    },
  );
  app.post(
    '/transfer-routes',
    {
      schema: {
        tags: T,
        summary: 'Create a transfer route (Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: RouteInput.create,
        response: { 201: RentalEnvelope(TransferRouteView), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const input = fields(req.body);
      const r = await keyedWrite(p, req, reply, {
        action: 'transfer-route-create',
        write: async (tx) => ({
          status: 201,
          body: rentalOk(routeView(await createRoute(tx, input)), 'Transfer route created.'),
        }),
      });
      req.auditTarget = `transfer_route:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );
  app.put(
    '/transfer-routes/:id',
    {
      schema: {
        tags: T,
        summary: 'Update a transfer route',
        params: IdParams,
        body: RouteInput.update,
        response: adminResponses(TransferRouteView, 200, 404),
      },
    },
    async (req) => {
      const r = await editRoute(p.db, req.params.id, fields(req.body));
      return rentalOk(routeView(r), 'Transfer route updated.');
    },
  );
  app.delete(
    '/transfer-routes/:id',
    {
      schema: {
        tags: T,
        summary: 'Delete a transfer route',
        params: IdParams,
        response: adminResponses(Deleted, 200, 404),
      },
    },
    async (req) => {
      await removeRoute(p.db, req.params.id);
      return rentalOk({ id: req.params.id, deleted: true }, 'Transfer route deleted.');
    },
  );
};
