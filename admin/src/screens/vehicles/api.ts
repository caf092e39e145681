import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import type { EntityApi, EntityPage } from '../../components/EntityCrud';

type Body = paths['/wp-json/rova-rental/v1/vehicles']['post']['requestBody']['content']['application/json'];
type Query = NonNullable<paths['/wp-json/rova-rental/v1/vehicles']['get']['parameters']['query']>;

export const vehiclesApi: EntityApi = {
  list: async (q): Promise<EntityPage> =>
    unwrapRental(api.GET('/wp-json/rova-rental/v1/vehicles', { params: { query: q as Query } })),
  create: (b, key) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/vehicles', { params: { header: { 'idempotency-key': key } }, body: b as Body }),
    ),
  update: (id, b) =>
    unwrapRental(api.PUT('/wp-json/rova-rental/v1/vehicles/{id}', { params: { path: { id } }, body: b as Body })),
  remove: (id) => unwrapRental(api.DELETE('/wp-json/rova-rental/v1/vehicles/{id}', { params: { path: { id } } })),
};
