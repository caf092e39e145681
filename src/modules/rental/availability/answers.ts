import type { Platform } from '../../../platform/context.js';
import { deepFreeze } from '../../../platform/deep-freeze.js';
import { stringBytes, type CacheSize } from '../../../platform/cache-sizes.js';
import { KeptAnswers } from '../../../platform/kept-answers.js';
import { perPlatform } from '../../../platform/per-platform.js';
import { catalogueOf } from '../catalogue.js';
import { journeySettings } from '../bookings/settings.js';
import { holdingIndexOf } from './holding-index.js';
import { availabilityView, checkAvailability, type AvailabilityInput } from './service.js';

const MAX_ENTRIES = 5_000;
const MAX_BYTES = 8 * 1024 * 1024;

export interface AvailabilityAnswer {
  data: ReturnType<typeof availabilityView>;
  message: string;
}

/**
 * Finished POST /availability answers (frozen, so the route can send their bytes again: json-once.ts), per
 * request. An answer is reused only while all it was built from is unchanged:
 * - the catalogue snapshot (vehicle, prices, rules, locations and their hours): any catalogue write, any node;
 * - the vehicle's holds in the holding index: any booking write of that vehicle, on any node, once the bus has
 *   carried it (the same freshness as the index itself); never while the index is cold or reloading the vehicle;
 * - the clock: at most BOOKING_SEARCH_CACHE_MS (1 s; 0 = off), for the rules that move with time alone (minimum
 *   notice, a payment deadline passing).
 * Nothing is invalidated by hand: a stale answer no longer matches. /booking/create decides on the database anyway.
 */
class AvailabilityAnswers {
  // an answer's size: its JSON twice over (the frozen objects, and the bytes json-once.ts keeps beside them)
  private readonly kept = new KeptAnswers<AvailabilityAnswer>(
    MAX_ENTRIES,
    MAX_BYTES,
    (key, a) => stringBytes(key) + 2 * JSON.stringify(a).length,
  );
  constructor(private readonly p: Platform) {}

  size(): CacheSize {
    return this.kept.size();
  }

  async answer(input: AvailabilityInput): Promise<AvailabilityAnswer> {
    const ttl = journeySettings(this.p).searchCacheMs;
    const cat = await catalogueOf(this.p).get();
    const index = holdingIndexOf(this.p);
    const holds = index.stateOf(input.vehicle_id);
    const key = ttl > 0 && holds !== undefined ? keyOf(input) : null;
    const now = Date.now();
    const hit = key === null ? undefined : this.kept.get(key, [cat, holds], now, ttl);
    if (hit) return hit;
    const r = await checkAvailability(this.p, this.p.db, input, { catalogue: cat, now: new Date(now) });
    const answer = deepFreeze({
      data: availabilityView(this.p, r),
      message: r.available ? 'The vehicle is available.' : `The vehicle is not available (${r.reason}).`,
    });
    // a change taken in while it was computed may be missing from it: answer it, but do not keep it
    if (key !== null && index.stateOf(input.vehicle_id) === holds) this.kept.keep(key, [cat, holds], answer, now);
    return answer;
  }
}

function keyOf(i: AvailabilityInput): string {
  return JSON.stringify([
    i.vehicle_id,
    i.pickup_date,
    i.return_date,
    i.pickup_time ?? null,
    i.return_time ?? null,
    i.location_id ?? null,
    i.addons ?? null,
  ]);
}

export const availabilityAnswersOf: (p: Platform) => AvailabilityAnswers = perPlatform(
  (p) => new AvailabilityAnswers(p),
);
