import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import type { EntityApi, EntityPage } from '../../components/EntityCrud';

type Body = paths['/wp-json/rova-rental/v1/locations']['post']['requestBody']['content']['application/json'];
type Query = NonNullable<paths['/wp-json/rova-rental/v1/locations']['get']['parameters']['query']>;

export const locationsApi: EntityApi = {
  list: async (q): Promise<EntityPage> =>
    unwrapRental(api.GET('/wp-json/rova-rental/v1/locations', { params: { query: q as Query } })),
  create: (b, key) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/locations', {
        params: { header: { 'idempotency-key': key } },
        body: b as Body,
      }),
    ),
  update: (id, b) =>
    unwrapRental(api.PUT('/wp-json/rova-rental/v1/locations/{id}', { params: { path: { id } }, body: b as Body })),
  remove: (id) => unwrapRental(api.DELETE('/wp-json/rova-rental/v1/locations/{id}', { params: { path: { id } } })),
};
