import type { RovaModule } from '../types.js';
import { rentalHttpErrorOf } from './errors.js';
import { holdingIndexOf } from './availability/holding-index.js';
import { catalogueOf } from './catalogue.js';
import { busyCacheOf } from './availability/search/busy-cache.js';
import { exportCommand } from './export/cli.js';
import type { HealthOptions } from './health/routes.js';
import { rentalRoutes } from './routes.js';
import { seedBookings } from './seed/bulk.js';
import { seedRentalDemo } from './seed/demo.js';
import { seedMessages } from './seed/messages.js';
import { scheduleJourneyJobs } from './bookings/jobs.js';
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
    start(platform) {
      catalogueOf(platform);
      const holds = holdingIndexOf(platform);
      holds.onChange(() => busyCacheOf(platform).clear());
      holds.start();
      if (platform.config.jobs) scheduleClearing(platform);
      scheduleJourneyJobs(platform);
    },
    stop(platform) {
      holdingIndexOf(platform).stop();
    },
    async seedDemo(platform) {
      await seedRentalDemo(platform);
      await seedMessages(platform);
      await seedMarketplaceDemo(platform);
    },
    seedBookings,
    commands: { export: exportCommand, ledger: ledgerCommand, verify: verifyCommand },
  };
}

export const rentalModule: RovaModule<RentalModuleSettings> = createRentalModule();
