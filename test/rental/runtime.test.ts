import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { availabilityAnswersOf } from '../../src/modules/rental/availability/answers.js';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { busyCacheOf } from '../../src/modules/rental/availability/search/busy-cache.js';
import { bookingsAtOnceOf } from '../../src/modules/rental/bookings/at-once.js';
import { knownCustomersOf } from '../../src/modules/rental/bookings/create/customers.js';
import { journeySettings } from '../../src/modules/rental/bookings/settings.js';
import { catalogueOf } from '../../src/modules/rental/catalogue.js';
import { rentalRuntimeOf } from '../../src/modules/rental/runtime.js';
import { rentalSettings } from '../../src/modules/rental/settings.js';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
}, 240_000);
afterAll(async () => t?.close());

describe('the rental runtime', () => {
  it('was built by the module start and lists what the module holds: the very instances the accessors hand out', () => {
    const p = t.platform;
    const rt = rentalRuntimeOf.existing(p);
    expect(rt).toBeDefined();
    expect(rentalRuntimeOf(p)).toBe(rt);
    expect(rt!.parts()).toEqual({
      settings: rentalSettings(p),
      journey: journeySettings(p),
      catalogue: catalogueOf(p),
      holdingIndex: holdingIndexOf(p),
      busyCache: busyCacheOf(p),
      availabilityAnswers: availabilityAnswersOf(p),
      knownCustomers: knownCustomersOf(p),
      bookingsAtOnce: bookingsAtOnceOf(p),
    });
    for (const [name, part] of Object.entries(rt!.parts())) expect(part, name).toBe(rt![name as keyof typeof rt]);
  });

  it('stop stops the holding index and waits for the booking batcher', async () => {
    const rt = rentalRuntimeOf(t.platform);
    const index = vi.spyOn(rt.holdingIndex, 'stop');
    const batcher = vi.spyOn(rt.bookingsAtOnce, 'stop');
    await rt.stop();
    expect(index).toHaveBeenCalledOnce();
    expect(batcher).toHaveBeenCalledOnce();
    index.mockRestore();
    batcher.mockRestore();
  });

  it('the batcher stop resolves at once when nothing waits', async () => {
    await expect(bookingsAtOnceOf(t.platform).stop()).resolves.toBeUndefined();
  });
});
