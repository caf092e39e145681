import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { LapsedHolds } from '../bookings/expiry.js';
import { invalidField, notFoundError, RentalErrors, stateConflictFor, vehicleNotFound } from '../errors.js';
import { recordVendorAudit } from '../ledger/audit.js';
import { rentalSettings } from '../settings.js';
import { addDays, isValidDate, localToUtc, utcToLocal } from '../time.js';
import {
  calendarBookings,
  deleteBlock,
  holdingBookingBetween,
  insertBlock,
  overlappingBlock,
  vehicleBlocks,
  type BlockReason,
  type BlockRow,
} from './block-repo.js';
import { lockVehicle } from './repo.js';
import { ownListing } from './vendor-repo.js';
import { activeVendor } from './vendor-service.js';

export type { BlockRow } from './block-repo.js';

/** The longest block: a year (a vehicle off the market for longer is paused or withdrawn). */
export const MAX_BLOCK_DAYS = 366;

export interface BlockInput {
  from: string;
  to: string;
  reason: BlockReason;
  note?: string;
}

const REASON_WORDS: Record<BlockReason, string> = { maintenance: 'maintenance', own_use: 'own use' };

/** The vendor's own vehicle, or 404 exactly like a missing one (another vendor's vehicle is not told apart). */
async function own(db: Db, user: AuthUser, vehicleId: number) {
  const l = await ownListing(db, user.id, vehicleId);
  if (!l) throw vehicleNotFound(vehicleId);
  return l;
}

/** Today in the store's time zone. */
function today(p: Platform): string {
  return utcToLocal(new Date(), rentalSettings(p).timezone).date;
}

/** The blocks of an own vehicle, oldest first. */
export async function ownVehicleBlocks(p: Platform, user: AuthUser, vehicleId: number): Promise<BlockRow[]> {
  await own(p.db, user, vehicleId);
  return vehicleBlocks(p.db, vehicleId);
}

/** A booking as the calendar shows it: the store-time-zone days from its pick-up to its return, both included. */
export interface CalendarBooking {
  id: number;
  reference: string;
  status: string;
  from: string;
  to: string;
}

/**
 * An own vehicle's month (`YYYY-MM`, store time zone): its bookings that take days of it (holding, running or run)
 * and its blocks touching it.
 */
export async function ownVehicleMonth(
  p: Platform,
  user: AuthUser,
  vehicleId: number,
  month: string,
): Promise<{ month: string; from: string; to: string; bookings: CalendarBooking[]; blocks: BlockRow[] }> {
  await own(p.db, user, vehicleId);
  const tz = rentalSettings(p).timezone;
  const from = `${month}-01`;
  const next = addDays(`${month}-28`, 4).slice(0, 7) + '-01';
  const to = addDays(next, -1);
  const [bookings, blocks] = await Promise.all([
    calendarBookings(p.db, vehicleId, localToUtc(from, '00:00', tz), localToUtc(next, '00:00', tz)),
    vehicleBlocks(p.db, vehicleId, { from, to }),
  ]);
  return {
    month,
    from,
    to,
    bookings: bookings.map((b) => ({
      id: Number(b.id),
      reference: b.reference,
      status: b.status,
      from: utcToLocal(toDate(b.pickup_at), tz).date,
      to: utcToLocal(toDate(b.return_at), tz).date,
    })),
    blocks,
  };
}

/**
 * The vendor blocks days of an own vehicle (maintenance, own use): from then on it is not available on them, on
 * every node (the block is announced to the holding indexes like a booking). Decided under the vehicle's lock, the
 * one every booking write takes first, so a block and a booking of the same days never both win: refused (409,
 * naming it) when a booking holds the vehicle in the period (with the buffer kept between rentals), or when another
 * block of the vehicle overlaps it. Holds whose payment deadline passed are swept first, as a booking does.
 */
export async function addOwnBlock(p: Platform, user: AuthUser, vehicleId: number, b: BlockInput): Promise<BlockRow> {
  for (const f of ['from', 'to'] as const)
    if (!isValidDate(b[f])) throw invalidField(f, `${f} must be a date in the format YYYY-MM-DD.`);
  if (b.to < b.from)
    throw RentalErrors.invalidDateRange('A block ends on or after the day it starts.', { from: b.from, to: b.to });
  if (b.from < today(p)) throw invalidField('from', 'A block starts today or later.');
  if (addDays(b.from, MAX_BLOCK_DAYS - 1) < b.to)
    throw invalidField('to', `A block is at most ${MAX_BLOCK_DAYS} days (pause the vehicle for longer).`);
  const s = rentalSettings(p);
  const startsAt = localToUtc(b.from, '00:00', s.timezone);
  const endsAt = localToUtc(addDays(b.to, 1), '00:00', s.timezone);
  const buf = s.bufferMinutes * 60_000;
  const note = b.note?.trim() ?? '';
  const expired = new LapsedHolds(p);
  const block = await p.transaction(async (tx) => {
    await activeVendor(tx, user);
    const l = await own(tx, user, vehicleId);
    if (l.lifecycle === 'withdrawn') throw RentalErrors.stateConflict('A withdrawn vehicle cannot be blocked.');
    await lockVehicle(tx, vehicleId);
    await expired.sweep(tx, vehicleId);
    const booked = await holdingBookingBetween(
      tx,
      vehicleId,
      new Date(startsAt.getTime() - buf),
      new Date(endsAt.getTime() + buf),
    );
    if (booked) {
      const days = `${utcToLocal(toDate(booked.pickup_at), s.timezone).date} – ${utcToLocal(toDate(booked.return_at), s.timezone).date}`;
      throw stateConflictFor('booked', `Booking ${booked.reference} (${days}) holds the vehicle in this period.`, {
        booking_id: Number(booked.id),
        reference: booked.reference,
      });
    }
    const other = await overlappingBlock(tx, vehicleId, startsAt, endsAt);
    if (other)
      throw stateConflictFor('blocked', `The vehicle is already blocked ${other.from_date} – ${other.to_date}.`, {
        block_id: Number(other.id),
      });
    const row = await insertBlock(tx, {
      vehicleId,
      from: b.from,
      to: b.to,
      startsAt,
      endsAt,
      reason: b.reason,
      note,
      createdBy: user.id,
    });
    await recordVendorAudit(tx, {
      vendorId: user.id,
      event: 'vehicle_blocked',
      vehicleId,
      note: `Blocked ${b.from} – ${b.to} (${REASON_WORDS[b.reason]})${note ? `: ${note}` : ''}.`,
    });
    return row;
  });
  expired.delivered();
  return block;
}

/** The vendor removes a block of an own vehicle: its days are available again, on every node. 404 for another's. */
export async function removeOwnBlock(p: Platform, user: AuthUser, vehicleId: number, blockId: number): Promise<void> {
  await p.transaction(async (tx) => {
    await activeVendor(tx, user);
    await own(tx, user, vehicleId);
    await lockVehicle(tx, vehicleId);
    const r = await deleteBlock(tx, vehicleId, blockId);
    if (!r) throw notFoundError('Block', blockId);
    await recordVendorAudit(tx, {
      vendorId: user.id,
      event: 'vehicle_unblocked',
      vehicleId,
      note: `Block ${r.from_date} – ${r.to_date} (${REASON_WORDS[r.reason]}) removed.`,
    });
  });
}
