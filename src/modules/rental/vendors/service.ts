import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import type { Db } from '../../../platform/db/types.js';
import { HttpError } from '../../../platform/http/errors.js';
import { catalogueChanged } from '../catalogue.js';
import { recordVendorAudit } from '../ledger/audit.js';
import { encryptIban, parseIban } from './iban.js';
import {
  applyPendingIban,
  hideListedVehicles,
  restoreHiddenVehicles,
  setPendingIban,
  setVendorStatus,
  vendorById,
  type VendorRow,
} from './repo.js';

async function lockedVendor(tx: Db, id: number): Promise<VendorRow> {
  const v = await vendorById(tx, id, true);
  if (!v) throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Vendor ${id} does not exist.`);
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
      throw new HttpError(
        409,
        'STATE_CONFLICT',
        `Vendor ${id} is ${v.status}; only an active vendor can be suspended.`,
      );
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
      throw new HttpError(
        409,
        'STATE_CONFLICT',
        `Vendor ${id} is ${v.status}; only a suspended vendor can be unsuspended.`,
      );
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
  if (!iban)
    throw new HttpError(400, 'INVALID_PARAMS', 'iban is not a valid IBAN (checksum failed).', { field: 'iban' });
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
    if (!v.pending_iban_encrypted)
      throw new HttpError(409, 'STATE_CONFLICT', `Vendor ${id} has no pending IBAN change.`);
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
