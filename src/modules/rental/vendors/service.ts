import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import type { Db } from '../../../platform/db/types.js';
import { catalogueChanged } from '../catalogue.js';
import { invalidField, notFoundError, RentalErrors } from '../errors.js';
import { listVendorAudit, recordVendorAudit } from '../ledger/audit.js';
import { vendorBalances } from '../ledger/balances.js';
import { scoreHistory } from '../ledger/score.js';
import { documentsOf } from './applications/repo.js';
import { documentView } from './applications/views.js';
import { recentPayoutsOf } from './portal/payouts-brief.js';
import { encryptIban, parseIban } from './iban.js';
import {
  applyPendingIban,
  bookingCounts,
  hideListedVehicles,
  listVendors,
  restoreHiddenVehicles,
  setPendingIban,
  setVendorStatus,
  vendorById,
  vendorVehicles,
  type VendorRow,
} from './repo.js';
import { vendorDetailView } from './views.js';

/** The vendor's profile with its balances, statistics, vehicles, documents, recent payouts and score history. */
export async function vendorDetail(p: Platform, id: number) {
  const v = await vendorById(p.db, id);
  if (!v) throw notFoundError('Vendor', id);
  const currency = p.storeCurrency.code;
  const docs = v.application_id === null ? [] : await documentsOf(p.db, Number(v.application_id));
  return vendorDetailView(v, p.config.secret, currency, {
    balances: await vendorBalances(p.db, id),
    counts: await bookingCounts(p.db, id),
    vehicles: await vendorVehicles(p.db, id),
    documents: docs.map((d) => documentView(d, p.config.restRoot)),
    payouts: await recentPayoutsOf(p.db, id, currency),
    scores: await scoreHistory(p.db, id),
  });
}

export function findVendors(db: Db, f: Parameters<typeof listVendors>[1], limit: number, offset: number) {
  return listVendors(db, f, limit, offset);
}

/** A vendor's audit log, newest first (an unknown vendor → 404). */
export async function vendorAuditLog(db: Db, id: number, event: string | undefined, limit: number, offset: number) {
  if (!(await vendorById(db, id))) throw notFoundError('Vendor', id);
  return listVendorAudit(db, id, event, limit, offset);
}

async function lockedVendor(tx: Db, id: number): Promise<VendorRow> {
  const v = await vendorById(tx, id, true);
  if (!v) throw notFoundError('Vendor', id);
  return v;
}

/** Suspend an active vendor: hides exactly its listed vehicles (remembered); confirmed bookings stay. */
export async function suspendVendor(
  p: Platform,
  id: number,
  admin: AuthUser,
): Promise<{ vendor_id: number; status: 'suspended'; vehicles_hidden: number[] }> {
  const r = await p.transaction(async (tx) => {
    const v = await lockedVendor(tx, id);
    if (v.status !== 'active')
      throw RentalErrors.stateConflict(`Vendor ${id} is ${v.status}; only an active vendor can be suspended.`);
    const hidden = await hideListedVehicles(tx, id);
    await setVendorStatus(tx, id, 'suspended');
    await recordVendorAudit(tx, {
      vendorId: id,
      event: 'vendor_suspended',
      adminUserId: admin.id,
      note: `Suspended; ${hidden.length} listed vehicle(s) hidden: ${hidden.join(', ') || 'none'}.`,
    });
    return { vendor_id: id, status: 'suspended' as const, vehicles_hidden: hidden };
  });
  await catalogueChanged(p);
  return r;
}

/** Unsuspend a suspended vendor: restores exactly the vehicles the suspension hid. */
export async function unsuspendVendor(
  p: Platform,
  id: number,
  admin: AuthUser,
): Promise<{ vendor_id: number; status: 'active'; vehicles_restored: number[] }> {
  const r = await p.transaction(async (tx) => {
    const v = await lockedVendor(tx, id);
    if (v.status !== 'suspended')
      throw RentalErrors.stateConflict(`Vendor ${id} is ${v.status}; only a suspended vendor can be unsuspended.`);
    const restored = await restoreHiddenVehicles(tx, id);
    await setVendorStatus(tx, id, 'active');
    await recordVendorAudit(tx, {
      vendorId: id,
      event: 'vendor_unsuspended',
      adminUserId: admin.id,
      note: `Unsuspended; ${restored.length} vehicle(s) restored: ${restored.join(', ') || 'none'}.`,
    });
    return { vendor_id: id, status: 'active' as const, vehicles_restored: restored };
  });
  await catalogueChanged(p);
  return r;
}

/** A vendor asks to change the payout IBAN; it takes effect when an admin approves it. */
export async function requestIbanChange(p: Platform, vendor: AuthUser, raw: string): Promise<void> {
  const iban = parseIban(raw);
  if (!iban) throw invalidField('iban', 'iban is not a valid IBAN (checksum failed).');
  await p.transaction(async (tx) => {
    await lockedVendor(tx, vendor.id);
    await setPendingIban(tx, vendor.id, encryptIban(p.config.secret, iban));
    await recordVendorAudit(tx, {
      vendorId: vendor.id,
      event: 'iban_change_requested',
      note: 'IBAN change requested.',
    });
  });
}

export async function decideIbanChange(
  p: Platform,
  id: number,
  admin: AuthUser,
  approve: boolean,
): Promise<{ vendor_id: number; status: 'approved' | 'rejected' }> {
  return p.transaction(async (tx) => {
    const v = await lockedVendor(tx, id);
    if (!v.pending_iban_encrypted) throw RentalErrors.stateConflict(`Vendor ${id} has no pending IBAN change.`);
    if (approve) await applyPendingIban(tx, id);
    else await setPendingIban(tx, id, null);
    await recordVendorAudit(tx, {
      vendorId: id,
      event: approve ? 'iban_change_approved' : 'iban_change_rejected',
      adminUserId: admin.id,
      note: approve ? 'IBAN change approved.' : 'IBAN change rejected.',
    });
    return { vendor_id: id, status: approve ? ('approved' as const) : ('rejected' as const) };
  });
}
