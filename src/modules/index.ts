import { platformModule } from '../platform/module.js';
import { fxModule } from './fx/index.js';
import { importModule } from './import/module.js';
import { rentalModule } from './rental/module.js';
import { storeModule } from './store/module.js';
import { storefrontModule } from './storefront/index.js';
import type { RovaModule } from './types.js';

/** Every module, in start and seed order (later modules may use earlier ones' data). */
export const modules: RovaModule[] = [
  platformModule,
  storeModule,
  fxModule,
  rentalModule,
  storefrontModule,
  importModule,
];
