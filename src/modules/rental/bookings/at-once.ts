import type { Platform } from '../../../platform/context.js';
import { preparedStatementRefused } from '../../../platform/db/prepared.js';
import { sqlStateOf } from '../../../platform/db/sqlstate.js';
import { perPlatform } from '../../../platform/per-platform.js';
import { bookVehiclesAtOnce, type BookedAtOnce, type RentalAtOnce } from './create/statement.js';

/** Statements of bookings in flight at once per node; the requests that arrive meanwhile wait and go in the next. */
export const BOOKING_FLIGHTS = 2;
/** Most bookings in one statement. */
export const BOOKING_BATCH = 32;

/**
 * Customers' bookings written together: a booking that arrives while fewer than BOOKING_FLIGHTS statements are in
 * flight goes at once (alone, when the node is quiet: no added wait), and those that arrive meanwhile share the
 * next statement. Under load PostgreSQL then runs one statement and one commit for many bookings (BEGIN, the
 * statement and COMMIT: three round trips per batch): the executor start, plan check, commit and socket work a
 * booking statement costs are paid per batch, not per booking. A batch holds one booking per vehicle (a second one
 * for the same vehicle waits for the next batch, where the first one's row is visible). Order is kept: the oldest
 * waiting booking always goes in the next batch.
 */
export class BookingsAtOnce {
  private queue: Waiting[] = [];
  private flights = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly p: Platform) {}

  /** Resolves once no booking waits and no batch is in flight (the module's stop, before the database closes). */
  stop(): Promise<void> {
    if (this.flights === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.idle.push(resolve));
  }

  book(item: RentalAtOnce): Promise<BookedAtOnce> {
    return new Promise<BookedAtOnce>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.flights < BOOKING_FLIGHTS && this.queue.length) {
      const batch = this.take();
      this.flights += 1;
      void this.write(batch).finally(() => {
        this.flights -= 1;
        this.next();
        if (this.flights === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private take(): Waiting[] {
    const vehicles = new Set<number>();
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const w of this.queue) {
      const vehicle = w.item.columns.vehicle_id;
      if (batch.length < BOOKING_BATCH && !vehicles.has(vehicle)) {
        vehicles.add(vehicle);
        batch.push(w);
      } else rest.push(w);
    }
    this.queue = rest;
    return batch;
  }

  private async write(batch: Waiting[]): Promise<void> {
    const items = batch.map((w) => w.item);
    try {
      const made = await this.p
        .transaction((tx) => bookVehiclesAtOnce(tx, items))
        // a pooler that cannot keep named statements refused this one in the transaction: again, unnamed from now on
        .catch((err: unknown) =>
          preparedStatementRefused(err)
            ? this.p.transaction((tx) => bookVehiclesAtOnce(tx, items))
            : Promise.reject(err),
        );
      batch.forEach((w, i) => w.resolve(made[i]!));
    } catch (err) {
      // PostgreSQL refused the statement, so nothing of it was written: each booking goes the transactional way,
      // which decides it alone (one bad booking must not fail the others). A lost connection is every booking's
      // answer, as it would be alone: before the COMMIT nothing was written (503); a COMMIT whose answer was lost
      // came back above as committed when it was, so what arrives here did not commit or is not known to (503).
      if (rolledBack(err)) for (const w of batch) w.resolve({ fallback: 'refused' });
      else for (const w of batch) w.reject(err);
    }
  }
}

interface Waiting {
  item: RentalAtOnce;
  resolve(made: BookedAtOnce): void;
  reject(err: unknown): void;
}

/**
 * Did PostgreSQL answer with an error that means the statement's transaction rolled back: bad data (class 22), a
 * constraint (23), a deadlock or serialization failure (40), a lock not available (55)? Not a lost connection, an
 * operator's intervention (57) or an internal error, after which the commit may or may not have happened.
 */
function rolledBack(err: unknown): boolean {
  return /^(22|23|40|55)/.test(sqlStateOf(err) ?? '');
}

export const bookingsAtOnceOf: (p: Platform) => BookingsAtOnce = perPlatform((p) => new BookingsAtOnce(p));
