import type { RovaModule } from '../types.js';
import { rentalHttpErrorOf } from './errors.js';
import { rentalRuntimeOf } from './runtime.js';
import { exportCommand } from './export/cli.js';
import type { HealthOptions } from './health/routes.js';
import { rentalRoutes } from './routes.js';
import { seedBookings } from './seed/bulk.js';
import { seedRentalDemo } from './seed/demo.js';
import { seedDemoPhotos } from './seed/photos.js';
import { seedMessages } from './seed/messages.js';
import { scheduleJourneyJobs } from './bookings/jobs.js';
import { registerBookingMailRenderers } from './bookings/mails.js';
import { seedMarketplaceDemo } from './seed/marketplace.js';
import { readRentalModuleSettings, type RentalModuleSettings } from './settings.js';
import { scheduleClearing } from './ledger/clearing.js';
import { verifyCommand } from './integrity/cli.js';
import { ledgerCommand } from './ledger/cli.js';

/** Rental management `rova-rental/v1` and `v2` (options let tests fake health inputs). */
export function createRentalModule(opts: { health?: HealthOptions } = {}): RovaModule<RentalModuleSettings> {
  return {
    name: 'rental',
    namespaces: [
      { name: 'rova-rental/v1', shape: 'rental', writeQuota: true, domainErrors: rentalHttpErrorOf },
      {
        name: 'rova-rental/v2',
        shape: 'rental',
        writeQuota: true,
        domainErrors: rentalHttpErrorOf,
        nonceRequired: true,
        strictMethods: true,
        allowedMethods: ['GET', 'POST', 'PUT'],
      },
    ],
    routes: rentalRoutes(opts.health),
    checkConfig: readRentalModuleSettings,
    /** Builds and starts the rental runtime (settings, catalogue, holding index, caches, batcher), then its jobs. */
    start(platform) {
      rentalRuntimeOf(platform).start();
      registerBookingMailRenderers(platform);
      if (platform.config.jobs) scheduleClearing(platform);
      scheduleJourneyJobs(platform);
    },
    /** Stops the runtime when one was built (a CLI app opened without starting modules has none). */
    async stop(platform) {
      await rentalRuntimeOf.existing(platform)?.stop();
    },
    async seedDemo(platform) {
      await seedRentalDemo(platform);
      await seedMessages(platform);
      await seedMarketplaceDemo(platform);
      await seedDemoPhotos(platform);
    },
    seedBookings,
    commands: { export: exportCommand, ledger: ledgerCommand, verify: verifyCommand },
  };
}

export const rentalModule: RovaModule<RentalModuleSettings> = createRentalModule();
