import type { Platform } from '../../../platform/context.js';
import type { CacheSize } from '../../../platform/cache-sizes.js';
import { perPlatform } from '../../../platform/per-platform.js';
import { HOLDS_TOPIC } from '../bookings/repo.js';
import { rentalSettings } from '../settings.js';
import { bookingHolds, holdIntervals, type HoldInterval } from './repo.js';

/** A full reload this often catches writes no bus message announced (a CLI run against PostgreSQL without Redis). */
export const FULL_RELOAD_MS = 60_000;

/**
 * Which slots each vehicle holds, in memory on every node: availability and search answer from it without a
 * database round trip. Loaded when the module starts; every committed write that changes a vehicle's holds
 * announces it on the bus (bookings/repo.ts: the booking, or the whole vehicle), and each node re-reads that booking
 * (or reloads the vehicle). From the announcement until that read is in, the vehicle is "unsure" and its answers
 * come from the database, so the node that wrote reads its own write at once and another node lags by the bus's
 * latency only. Cold (not loaded yet, or Redis away so messages may be missed) = every answer from the database.
 * The index trusts itself only while announcements demonstrably flow: every node's heartbeat (this one's included,
 * through Redis) arrived within HEARTBEAT_BOUND_MS. A hung Redis, or one node's stalled link, stops them: from the
 * bound on, answers come from the database; once they flow again, the index reloads whole and trusts what it loaded.
 * Decisions under the vehicle lock (create, change, payment) never use it.
 */
export class HoldingIndex {
  private byVehicle = new Map<number, HoldInterval[]>();
  private warm = false;
  /** Reloads in flight per vehicle: while > 0 the vehicle is answered from the database. */
  private readonly reloading = new Map<number, number>();
  /** Sequence of the newest load applied per vehicle: a load started earlier never overwrites a later one. */
  private readonly applied = new Map<number, number>();
  private seq = 0;
  private fullApplied = 0;
  /** When the newest full load that succeeded started (ms since epoch): it holds every write committed before. */
  private loadedFrom = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly p: Platform) {
    p.bus.subscribe(HOLDS_TOPIC, (payload) => this.announced(payload));
    // announcements flow again after a gap (Redis hung, a node's link stalled, a node gone): reload whole
    p.bus.link.onResumed(() => {
      if (this.timer) void this.reloadAll();
    });
  }

  /** Loads the index and keeps a periodic full reload (unref'd: it never holds the process open). */
  start(): void {
    if (this.timer) return;
    void this.reloadAll();
    this.timer = setInterval(() => void this.reloadAll(), FULL_RELOAD_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Holding bookings in memory (entries) and their estimated bytes: a hold is an object of 6 fields (~80 bytes) and
   * its slot in the vehicle's array, each vehicle's list ~100 bytes. Not bounded: it mirrors the holding bookings
   * not yet returned (what a load reads), so it grows with those and the vehicles.
   */
  size(): CacheSize {
    let holds = 0;
    for (const list of this.byVehicle.values()) holds += list.length;
    return {
      entries: holds,
      bytes: holds * 88 + this.byVehicle.size * 100,
      maxEntries: Number.POSITIVE_INFINITY,
      maxBytes: Number.POSITIVE_INFINITY,
    };
  }

  /** Runs after every change the index takes in (e.g. to drop whole-answer caches built on the old state). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  get ready(): boolean {
    return (
      this.warm &&
      (!this.p.redisState.configured || this.p.redisState.up) &&
      this.p.bus.link.flowing() &&
      this.loadedFrom >= this.p.bus.link.resumedAt()
    );
  }

  /** For /health and the metrics: `index` while answers come from memory, `database` otherwise (cold, or the bus stalled). */
  get answersFrom(): 'index' | 'database' {
    return this.ready ? 'index' : 'database';
  }

  /**
   * Does a holding booking of the vehicle (other than `excludeId`) overlap [from, to) at `now`? `undefined`:
   * the index cannot say (cold, or the vehicle is being reloaded) — ask the database.
   */
  overlaps(vehicleId: number, from: Date, to: Date, now: Date, excludeId = 0): boolean | undefined {
    const taken = this.takenBy(vehicleId, from, to, now, excludeId);
    return taken === undefined ? undefined : taken !== 'free';
  }

  /**
   * What holds the vehicle in [from, to) at `now`, as findOverlap would name it: `booked` when a booking overlaps,
   * else `blocked` when the vendor's block does (negative ids), else `free`; `undefined` while the index cannot say.
   */
  takenBy(
    vehicleId: number,
    from: Date,
    to: Date,
    now: Date,
    excludeId = 0,
  ): 'booked' | 'blocked' | 'free' | undefined {
    const list = this.stateOf(vehicleId);
    if (list === undefined) return undefined;
    const f = from.getTime();
    const t = to.getTime();
    const n = now.getTime();
    let blocked = false;
    for (const h of list) {
      if (!claims(h, f, t, n, excludeId)) continue;
      if (h.id > 0) return 'booked';
      blocked = true;
    }
    return blocked ? 'blocked' : 'free';
  }

  /**
   * What the index holds for the vehicle, as a token: the same object for as long as the vehicle's answers from the
   * index cannot change (except by the clock: a payment deadline passing); `undefined` while the index cannot
   * answer for it (cold, or the vehicle is being reloaded). Answer caches keep it and compare.
   */
  stateOf(vehicleId: number): readonly HoldInterval[] | undefined {
    if (!this.ready || this.reloading.has(vehicleId)) return undefined;
    return this.byVehicle.get(vehicleId) ?? NO_HOLDS;
  }

  /** Of `ids`, those held in [from, to) (`busy`) and those the database must be asked about (`unsure`); undefined when cold. */
  busy(ids: readonly number[], from: Date, to: Date, now: Date): { busy: Set<number>; unsure: number[] } | undefined {
    if (!this.ready) return undefined;
    const busy = new Set<number>();
    const unsure: number[] = [];
    const f = from.getTime();
    const t = to.getTime();
    const n = now.getTime();
    for (const id of ids) {
      const list = this.stateOf(id);
      if (list === undefined) unsure.push(id);
      else if (holds(list, f, t, n, 0)) busy.add(id);
    }
    return { busy, unsure };
  }

  private announced(payload: string): void {
    if (payload === '*' || payload === '') {
      // the bus lost messages (Redis came back) or a bulk write: everything from the database until reloaded
      this.warm = false;
      void this.reloadAll();
      return;
    }
    const asks = new Map<number, Ask>();
    for (const part of payload.split(',')) {
      const [v, b] = part.split(':');
      const vehicle = Number(v);
      if (!isId(vehicle)) continue;
      const booking = b === undefined ? NaN : Number(b);
      const ask = asks.get(vehicle);
      if (!isId(booking)) asks.set(vehicle, 'all');
      else if (ask === undefined) asks.set(vehicle, new Set([booking]));
      else if (ask !== 'all') ask.add(booking);
    }
    if (asks.size) this.reload(asks);
  }

  private since(): Date {
    return new Date(Date.now() - 86_400_000 - rentalSettings(this.p).bufferMinutes * 60_000);
  }

  /** Announced vehicles waiting for the next batched load: how many announcements each carries, and what they ask. */
  private readonly queued = new Map<number, { n: number; ask: Ask }>();
  private draining = false;

  /**
   * The vehicles are unsure from now on (answered from the database) until a load that started after this
   * announcement is in. Announcements that arrive while a load is in flight share the next one: one query for many
   * bookings under load instead of one each.
   */
  private reload(asks: ReadonlyMap<number, Ask>): void {
    for (const [id, ask] of asks) {
      this.reloading.set(id, (this.reloading.get(id) ?? 0) + 1);
      const q = this.queued.get(id);
      if (!q) this.queued.set(id, { n: 1, ask: ask === 'all' ? 'all' : new Set(ask) });
      else {
        q.n += 1;
        if (ask === 'all') q.ask = 'all';
        else if (q.ask !== 'all') for (const b of ask) q.ask.add(b);
      }
    }
    this.changed();
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queued.size) {
        const batch = new Map(this.queued);
        this.queued.clear();
        await this.loadBatch(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * One batch of announcements: vehicles asked for whole are reloaded; for the rest only the announced bookings are
   * read (by id, whatever their status) and put in place of what the vehicle's list held for them, so the cost of an
   * announcement does not grow with how many bookings the vehicle already has.
   */
  private async loadBatch(batch: Map<number, { n: number; ask: Ask }>): Promise<void> {
    const seq = ++this.seq;
    const whole: number[] = [];
    const some = new Map<number, Set<number>>();
    // a booking read alone can only be put into a list that was loaded whole: while cold (not loaded yet, a failed
    // load, lost messages) every vehicle of the batch is reloaded whole, and a full load started later overwrites
    const merge = this.warm;
    for (const [id, q] of batch) {
      if (q.ask === 'all' || !merge) whole.push(id);
      else some.set(id, q.ask);
    }
    try {
      const since = this.since();
      const [found, read] = await Promise.all([
        whole.length ? holdIntervals(this.p.db, whole, since) : [],
        some.size
          ? bookingHolds(
              this.p.db,
              [...some.values()].flatMap((s) => [...s]),
              since,
            )
          : [],
      ]);
      const fresh = new Map<number, HoldInterval[]>(whole.map((id) => [id, []]));
      for (const h of found) fresh.get(h.vehicleId)!.push(h);
      for (const [id, list] of fresh) this.apply(id, list, seq);
      const readById = new Map(read.map((h) => [h.id, h]));
      const moved = new Set<number>();
      for (const [id, bookings] of some) {
        const list = (this.byVehicle.get(id) ?? []).filter((h) => !bookings.has(h.id));
        for (const bookingId of bookings) {
          const h = readById.get(bookingId);
          // no caller moves a booking to another vehicle; one that did gets that vehicle reloaded whole
          if (h && h.vehicleId !== id) moved.add(h.vehicleId);
          else if (h?.holding) list.push({ id: h.id, vehicleId: h.vehicleId, from: h.from, to: h.to, until: h.until });
        }
        this.apply(id, list, seq);
      }
      if (moved.size) this.reload(new Map([...moved].map((id) => [id, 'all'])));
    } catch (err) {
      // the vehicle stays answered from the database until a later load succeeds
      this.p.log.warn(
        { err, vehicles: [...batch.keys()] },
        'holding index: reload failed; these vehicles are answered from the database',
      );
      this.warm = false;
      void this.retryAll();
    } finally {
      for (const [id, { n }] of batch) {
        const left = (this.reloading.get(id) ?? n) - n;
        if (left > 0) this.reloading.set(id, left);
        else this.reloading.delete(id);
      }
      this.changed();
    }
  }

  private fullLoad: Promise<void> | null = null;
  private fullAgain = false;

  /** One full load at a time; asked for while one runs, another follows it (it must start after the asking). */
  private reloadAll(): Promise<void> {
    if (this.fullLoad) {
      this.fullAgain = true;
      return this.fullLoad;
    }
    this.fullLoad = this.loadAll().finally(() => {
      this.fullLoad = null;
      if (this.fullAgain) {
        this.fullAgain = false;
        void this.reloadAll();
      }
    });
    return this.fullLoad;
  }

  private async loadAll(): Promise<void> {
    const seq = ++this.seq;
    // the bus link's clock (monotonic), which resumedAt() is read on
    const startedAt = performance.now();
    try {
      const found = await holdIntervals(this.p.db, null, this.since());
      const fresh = new Map<number, HoldInterval[]>();
      for (const h of found) {
        let list = fresh.get(h.vehicleId);
        if (!list) fresh.set(h.vehicleId, (list = []));
        list.push(h);
      }
      for (const id of new Set([...this.byVehicle.keys(), ...fresh.keys()])) this.apply(id, fresh.get(id) ?? [], seq);
      this.fullApplied = seq;
      this.loadedFrom = Math.max(this.loadedFrom, startedAt);
      this.warm = true;
      this.changed();
    } catch (err) {
      if (!this.warm)
        this.p.log.warn({ err }, 'holding index: load failed; availability is answered from the database');
      void this.retryAll();
    }
  }

  private retrying = false;
  /** After a failed load (database away): try again in a few seconds, once at a time. */
  private async retryAll(): Promise<void> {
    if (this.retrying || !this.timer) return;
    this.retrying = true;
    await new Promise((r) => setTimeout(r, 5_000).unref());
    this.retrying = false;
    if (this.timer) await this.reloadAll();
  }

  private apply(id: number, list: HoldInterval[], seq: number): void {
    if ((this.applied.get(id) ?? this.fullApplied) > seq) return;
    this.applied.set(id, seq);
    if (list.length) this.byVehicle.set(id, list);
    else this.byVehicle.delete(id);
  }

  /** Grows with every change taken in: an answer computed at one version is stale once it differs. */
  version = 0;

  private changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }
}

/** What an announcement asks about a vehicle: a reload of all its bookings, or a fresh read of these ones. */
type Ask = 'all' | Set<number>;

function isId(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0;
}

/** The state of every vehicle without holds (an empty list is never stored). */
const NO_HOLDS: readonly HoldInterval[] = Object.freeze([]);

function holds(list: readonly HoldInterval[], from: number, to: number, now: number, excludeId: number): boolean {
  for (const h of list) if (claims(h, from, to, now, excludeId)) return true;
  return false;
}

/** Does hold `h` (other than `excludeId`) claim its vehicle somewhere in [from, to) at `now`: findOverlap's rule. */
function claims(h: HoldInterval, from: number, to: number, now: number, excludeId: number): boolean {
  return h.id !== excludeId && h.from < to && h.to > from && (h.until === null || h.until > now);
}

export const holdingIndexOf: (p: Platform) => HoldingIndex = perPlatform((p) => new HoldingIndex(p));
