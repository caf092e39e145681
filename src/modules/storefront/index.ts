import type { RovaModule } from '../types.js';
import { webAssets } from './assets.js';
import { storefrontRoutes } from './routes.js';

/**
 * Storefront integration of the currency service: the browser scripts (converter, switcher, product widget)
 * at /assets/rova-fx/…, their config object, and the cacheable demo shop at /demo/shop.
 */
export const storefrontModule: RovaModule = {
  name: 'storefront',
  rootRoutes: storefrontRoutes,
  start(platform) {
    // Build (or read) the scripts in the background so the first page does not wait for esbuild.
    webAssets().catch((err: unknown) => platform.log.warn({ err }, 'storefront scripts are not available'));
  },
};
