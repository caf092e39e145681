import type { Platform } from '../../platform/context.js';
import { perPlatform } from '../../platform/per-platform.js';
import { reportCache } from '../../platform/cache-sizes.js';
import { priceMemoSize } from './availability/search/price-memo.js';
import { quoteMemoSize } from './availability/service.js';
import { availabilityAnswersOf } from './availability/answers.js';
import { holdingIndexOf, type HoldingIndex } from './availability/holding-index.js';
import { busyCacheOf } from './availability/search/busy-cache.js';
import { bookingsAtOnceOf, type BookingsAtOnce } from './bookings/at-once.js';
import { knownCustomersOf, type KnownCustomers } from './bookings/create/customers.js';
import { journeySettings, type JourneySettings } from './bookings/settings.js';
import { catalogueOf, type Catalogue } from './catalogue.js';
import { rentalSettings, type RentalSettings } from './settings.js';

/**
 * Everything the rental module keeps in memory for one running app: its settings, the catalogue snapshot (vehicles,
 * locations, pricing rules), the holding index (who holds which vehicle when), the busy-vehicle cache of searches,
 * the finished availability answers, the known customers, and the booking batcher. The module's `start` builds it
 * whole and starts it; its `stop` stops it.
 *
 * Services keep reaching each part through its accessor (`catalogueOf(p)`, `holdingIndexOf(p)`, `busyCacheOf(p)`,
 * `bookingsAtOnceOf(p)`, `rentalSettings(p)`, …), which hands out the very instance this runtime holds: the runtime
 * is assembled from the accessors, because a part may not import the runtime (the runtime imports the parts, and src/
 * has no import circles). Where the module was not started — CLI one-shot commands (`CliContext.open` builds the
 * app without starting modules when asked, and never with jobs), tests that build a partial app — an accessor builds
 * its part alone on first use, unstarted (no index reload timer); `rentalRuntimeOf(p)` builds the rest then.
 *
 * Not here: memos keyed by a catalogue snapshot or a rule list (price-memo.ts, availability/service.ts), which go
 * with the snapshot they were built from, and the Stripe client (payments/stripe.ts), made on the first payment.
 */
export class RentalRuntime {
  readonly settings: RentalSettings;
  readonly journey: JourneySettings;
  readonly catalogue: Catalogue;
  readonly holdingIndex: HoldingIndex;
  readonly busyCache: ReturnType<typeof busyCacheOf>;
  readonly availabilityAnswers: ReturnType<typeof availabilityAnswersOf>;
  readonly knownCustomers: KnownCustomers;
  readonly bookingsAtOnce: BookingsAtOnce;
  private started = false;

  constructor(p: Platform) {
    this.settings = rentalSettings(p);
    this.journey = journeySettings(p);
    this.catalogue = catalogueOf(p);
    this.holdingIndex = holdingIndexOf(p);
    this.busyCache = busyCacheOf(p);
    this.availabilityAnswers = availabilityAnswersOf(p);
    this.knownCustomers = knownCustomersOf(p);
    this.bookingsAtOnce = bookingsAtOnceOf(p);
    // each shown in /metrics (rova_cache_entries, rova_cache_bytes, rova_cache_limit)
    reportCache(p, 'availability_answers', () => this.availabilityAnswers.size());
    reportCache(p, 'search_answers', () => this.busyCache.answersSize());
    reportCache(p, 'search_busy_windows', () => this.busyCache.windowsSize());
    reportCache(p, 'search_prices', () => priceMemoSize(this.catalogue.loaded()));
    reportCache(p, 'quotes', () => quoteMemoSize(this.catalogue.loaded()?.rules ?? null));
    reportCache(p, 'known_customers', () => this.knownCustomers.size());
    reportCache(p, 'holding_index', () => this.holdingIndex.size());
  }

  /** What the module holds, by name (the runtime's own test lists them; a diagnostic could too). */
  parts(): Record<string, unknown> {
    return {
      settings: this.settings,
      journey: this.journey,
      catalogue: this.catalogue,
      holdingIndex: this.holdingIndex,
      busyCache: this.busyCache,
      availabilityAnswers: this.availabilityAnswers,
      knownCustomers: this.knownCustomers,
      bookingsAtOnce: this.bookingsAtOnce,
    };
  }

  /** Loads the holding index and keeps it current; a change in it drops the busy cache. Once per runtime. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.holdingIndex.onChange(() => this.busyCache.clear());
    this.holdingIndex.start();
  }

  /** Stops the index's reload timer and waits for the bookings the batcher has in flight (before the database closes). */
  async stop(): Promise<void> {
    this.holdingIndex.stop();
    await this.bookingsAtOnce.stop();
  }
}

export const rentalRuntimeOf = perPlatform((p) => new RentalRuntime(p));
