import type { Platform } from '../../../../platform/context.js';
import { stringBytes, type CacheSize } from '../../../../platform/cache-sizes.js';
import { perPlatform } from '../../../../platform/per-platform.js';
import type { BookingRow } from '../repo.js';
import { customerByUserId } from '../../customers/repo.js';
import type { KnownCustomer } from './statement.js';

/** Accounts remembered per node; past this the memory starts again (each account then costs one read). */
const REMEMBERED = 10_000;
/** Estimated bytes of one remembered account (its key, the record, its strings but name, e-mail and phone). */
const ACCOUNT_BYTES = 160;
/** Bytes remembered at most (estimated): past it, as past REMEMBERED accounts, the memory starts again. */
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * The customer record of each account as this node last saw it, so a booking's mail can be rendered before the
 * one-statement path writes it. Only a hint: the statement writes the booking only while the record is still exactly
 * this (else `customer_changed`, and the transactional path reads it under the lock and corrects the memory).
 */
export class KnownCustomers {
  private readonly byAccount = new Map<number, KnownCustomer>();
  private bytes = 0;

  constructor(private readonly p: Platform) {}

  /** The account's record: remembered, or read (undefined: none yet, its first booking makes it). */
  async of(accountId: number): Promise<KnownCustomer | undefined> {
    const known = this.byAccount.get(accountId);
    if (known) return known;
    const row = await customerByUserId(this.p.db, accountId);
    if (!row) return undefined;
    const c = { id: Number(row.id), name: row.name, email: row.email, phone: row.phone };
    this.remember(accountId, c);
    return c;
  }

  /** What a booking of the account was written with (its customer record at that moment). */
  saw(accountId: number, b: BookingRow): void {
    if (b.customer_id === null) return;
    this.remember(accountId, {
      id: Number(b.customer_id),
      name: b.customer_name,
      email: b.customer_email,
      phone: b.customer_phone,
    });
  }

  forget(accountId: number): void {
    const c = this.byAccount.get(accountId);
    if (!c) return;
    this.byAccount.delete(accountId);
    this.bytes -= bytesOf(c);
  }

  size(): CacheSize {
    return { entries: this.byAccount.size, bytes: this.bytes, maxEntries: REMEMBERED, maxBytes: MAX_BYTES };
  }

  private remember(accountId: number, c: KnownCustomer): void {
    this.forget(accountId);
    if (this.byAccount.size >= REMEMBERED || this.bytes + bytesOf(c) > MAX_BYTES) {
      this.byAccount.clear();
      this.bytes = 0;
    }
    this.byAccount.set(accountId, c);
    this.bytes += bytesOf(c);
  }
}

const bytesOf = (c: KnownCustomer): number =>
  ACCOUNT_BYTES + stringBytes(c.name) + stringBytes(c.email) + stringBytes(c.phone);

export const knownCustomersOf: (p: Platform) => KnownCustomers = perPlatform((p) => new KnownCustomers(p));
