import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { adminResponses, IdParams, Nullable, Id, Text } from '../schemas.js';
import { CustomerView as Customer } from './schema.js';
import { createCustomer, customerView, editCustomer } from './service.js';

const T = ['rental: customers'];
const Body = {
  name: Text({ minLength: 1, maxLength: 200 }),
  email: Text({ minLength: 3, maxLength: 200 }),
  phone: Type.Optional(Text({ maxLength: 50 })),
  address: Type.Optional(Text({ maxLength: 500 })),
  user_id: Type.Optional(Nullable(Id())),
};

/**
 * POST /customers and PUT /customers/{id}. The list, detail and bulk delete belong to the admin read models;
 * `id` is integer-only so `/customers/bulk` is never taken for an id.
 */
export const customerWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post(
    '/customers',
    {
      schema: {
        tags: T,
        summary: 'Create a customer (409 when the e-mail exists)',
        body: Type.Object(Body, { additionalProperties: false }),
        response: { 201: RentalEnvelope(Customer), ...rentalErrors(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => {
      const c = await createCustomer(p, req.body);
      req.auditTarget = `customer:${c.id}`;
      return reply.code(201).send(rentalOk(customerView(c), 'Customer created.'));
    },
  );
  app.put(
    '/customers/:id',
    {
      schema: {
        tags: T,
        summary: 'Update a customer',
        params: IdParams,
        body: Type.Partial(Type.Object(Body), { additionalProperties: false }),
        response: adminResponses(Customer, 200, 404, 409),
      },
    },
    async (req) => rentalOk(customerView(await editCustomer(p, req.params.id, req.body)), 'Customer updated.'),
  );
};
