import type { RovaModule } from '../types.js';
import { storeRoutes } from './routes.js';
import { seedStore } from './seed.js';

/** The store catalogue (`wc/v3`): products and variations, WooCommerce REST v3 compatible. */
export const storeModule: RovaModule = {
  name: 'store',
  namespaces: [
    {
      name: 'wc/v3',
      shape: 'wp',
      codes: {
        400: 'rest_invalid_param',
        401: 'woocommerce_rest_cannot_view',
        403: 'woocommerce_rest_cannot_view',
        410: 'woocommerce_rest_already_trashed',
        413: 'woocommerce_rest_request_entity_too_large',
      },
    },
  ],
  routes: storeRoutes,
  seedDemo: seedStore,
};
