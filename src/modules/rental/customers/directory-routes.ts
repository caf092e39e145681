import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { PageSchema } from '../paging.js';
import { BulkBody, BulkResult, CustomerDetail, CustomerItem, IdParams, ListQuery } from './directory-schemas.js';
import * as service from './directory-service.js';

const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v1: customers'];

/** GET /customers, GET /customers/{id} (integer ids only, so /customers/bulk never matches it), DELETE /customers/bulk. */
export const customerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.platform;
  // read at each request: the WordPress import may change the store's currency while the app runs

  app.get(
    '/rova-rental/v1/customers',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Customers with derived stats (paginated, searchable, sortable)',
        querystring: ListQuery,
        response: { 200: RentalEnvelope(PageSchema(CustomerItem)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => rentalOk(await service.list(db, app.platform.storeCurrency.code, req.query), ''),
  );

  app.get(
    '/rova-rental/v1/customers/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: "One customer's detail: stats and recent bookings",
        params: IdParams,
        response: { 200: RentalEnvelope(CustomerDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await service.detail(db, app.platform.storeCurrency.code, req.params.id), ''),
  );

  app.delete(
    '/rova-rental/v1/customers/bulk',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete customers; their bookings are kept and anonymised (one transaction)',
        description:
          "Body {ids:[…]} (non-empty array of positive integers, ≤ 1000). Bookings keep their amounts; customer_id becomes null and the name/e-mail/phone snapshot becomes 'Deleted customer'/''/''. Unknown ids are skipped.",
        body: BulkBody,
        response: { 200: RentalEnvelope(BulkResult), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const r = await service.bulkDelete(app.platform.transaction, (req.body as { ids?: unknown } | undefined)?.ids);
      req.auditTarget = r.deleted_ids.length ? `customers:${r.deleted_ids.join(',').slice(0, 200)}` : 'customers:none';
      return rentalOk(r, `${r.deleted} customer(s) deleted.`);
    },
  );
};
