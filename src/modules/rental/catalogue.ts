import { perPlatform } from '../../platform/per-platform.js';
import type { Platform } from '../../platform/context.js';
import type { Db } from '../../platform/db/types.js';
import { allLocations, type LocationRow } from './locations/repo.js';
import { allRules } from './pricing/repo.js';
import type { PricingRule } from './pricing/types.js';
import { allVehicles, type VehicleRow } from './vehicles/repo.js';
import { allPhotos, type PhotoRow } from './vehicles/photos/repo.js';

export const CATALOGUE_TOPIC = 'rental:catalogue';

export interface CatalogueSnapshot {
  vehicles: Map<number, VehicleRow>;
  locations: Map<number, LocationRow>;
  rules: PricingRule[];
  /** Each vehicle's photos, cover first (vehicles without photos are absent). */
  photos: Map<number, PhotoRow[]>;
}

/**
 * In-memory copy of vehicles, locations and pricing rules (small, read on every availability request).
 * Any write publishes CATALOGUE_TOPIC on the bus; every node drops its copy and reloads on next use,
 * so the availability hot path does one indexed query: the overlap check.
 */
export class Catalogue {
  private snap: Promise<CatalogueSnapshot> | null = null;
  /** The snapshot once loaded (`snap` may still be loading). */
  private ready: CatalogueSnapshot | null = null;
  private gen = 0;
  constructor(private readonly p: Platform) {
    p.bus.subscribe(CATALOGUE_TOPIC, () => this.drop());
  }

  drop(): void {
    this.gen += 1;
    this.snap = null;
    this.ready = null;
  }

  /**
   * For a write's transaction: the loaded snapshot, else one read through `db` (the transaction's own connection)
   * and not kept, since it may hold the transaction's uncommitted writes. Never waits on a load through the pool: on
   * the embedded database (one connection) that load would wait for the transaction, and the transaction for it.
   */
  async within(db: Db): Promise<CatalogueSnapshot> {
    return this.ready ?? snapshotOf(db);
  }

  /** The snapshot once loaded, without loading one (null: none loaded, or dropped since). */
  loaded(): CatalogueSnapshot | null {
    return this.ready;
  }

  get(): Promise<CatalogueSnapshot> {
    if (!this.snap) {
      const gen = this.gen;
      const load = snapshotOf(this.p.db);
      this.snap = load;
      load.then(
        (snap) => {
          if (this.gen === gen) this.ready = snap;
        },
        () => {
          if (this.gen === gen) this.snap = null;
        },
      );
    }
    return this.snap;
  }
}

async function snapshotOf(db: Db): Promise<CatalogueSnapshot> {
  const [v, l, r, ph] = await Promise.all([allVehicles(db), allLocations(db), allRules(db), allPhotos(db)]);
  const photos = new Map<number, PhotoRow[]>();
  for (const x of ph) {
    const id = Number(x.vehicle_id);
    photos.set(id, [...(photos.get(id) ?? []), x]);
  }
  return {
    vehicles: new Map(v.map((x) => [Number(x.id), x])),
    locations: new Map(l.map((x) => [Number(x.id), x])),
    rules: r,
    photos,
  };
}

export const catalogueOf = perPlatform((p) => new Catalogue(p));

/** Call after any write to vehicles, their photos, locations or pricing rules (all nodes reload). */
export async function catalogueChanged(p: Platform): Promise<void> {
  await p.bus.publish(CATALOGUE_TOPIC, '');
}
