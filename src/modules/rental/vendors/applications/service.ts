import type { Platform } from '../../../../platform/context.js';
import type { AuthUser } from '../../../../platform/auth/types.js';
import { emitEvent } from '../../../../platform/events/emit.js';
import { toDate, type Db } from '../../../../platform/db/types.js';
import { invalidField, notFoundError, RentalErrors } from '../../errors.js';
import { recordVendorAudit } from '../../ledger/audit.js';
import { marketplaceSettings } from '../../ledger/settings.js';
import {
  applicationById,
  decideApplication,
  documentById,
  documentsOf,
  insertApplication,
  insertDocument,
  isVendor,
  latestApplicationOf,
  listApplications,
  pendingApplicationCount,
  upsertVendorFromApplication,
  type ApplicationFilter,
  type ApplicationRow,
  type DocumentRow,
} from './repo.js';
import { encryptIban, parseIban } from '../iban.js';
import { reviewMailInTransaction } from '../review-mails.js';
import { removeDocument, storeDocument, type DocumentKind, type StoredDocument } from './uploads.js';

export const REAPPLY_COOLDOWN_MS = 24 * 3_600_000;

export interface ApplyFields {
  phone?: string;
  city?: string;
  iban?: string;
  account_holder?: string;
  tax_office?: string;
  tax_number?: string;
  bio?: string;
  service_areas?: string;
  terms_accepted?: string;
  terms_version?: string;
}

export interface UploadedFile {
  kind: DocumentKind;
  original_name: string;
  data: Buffer;
}

const bad = invalidField;

function text(f: ApplyFields, name: keyof ApplyFields, min: number, max: number): string {
  const v = (f[name] ?? '').trim();
  if (v.length < min || v.length > max || v.includes('\u0000')) {
    throw bad(
      name,
      min > 0 ? `${name} is required (${min}–${max} characters).` : `${name} must be at most ${max} characters.`,
    );
  }
  return v;
}

/** An application with its documents. */
export interface ApplicationWithDocuments {
  application: ApplicationRow;
  documents: DocumentRow[];
}

const withDocuments = async (db: Db, a: ApplicationRow): Promise<ApplicationWithDocuments> => ({
  application: a,
  documents: await documentsOf(db, Number(a.id)),
});

export function findApplications(db: Db, f: ApplicationFilter, limit: number, offset: number) {
  return listApplications(db, f, limit, offset);
}

/** One application with its documents (an unknown id → 404). */
export async function applicationOf(db: Db, id: number): Promise<ApplicationWithDocuments> {
  const a = await applicationById(db, id);
  if (!a) throw notFoundError('Vendor application', id);
  return withDocuments(db, a);
}

/** The user's latest application with its documents (none → 404). */
export async function ownApplication(db: Db, userId: number): Promise<ApplicationWithDocuments> {
  const a = await latestApplicationOf(db, userId);
  if (!a) throw RentalErrors.notFound('You have not applied to become a vendor.');
  return withDocuments(db, a);
}

/** A document the user may download: administrators any, the applicant their own; others get 404 like a missing id. */
export async function downloadableDocument(db: Db, id: number, user: AuthUser): Promise<DocumentRow> {
  const d = await documentById(db, id);
  if (!d || (user.role !== 'administrator' && Number(d.user_id) !== user.id)) throw notFoundError('Document', id);
  return d;
}

/** Why the user may not apply now (null = may apply). */
export async function applyBlocker(p: Platform, user: AuthUser, now = Date.now()): Promise<string | null> {
  if (user.role === 'vendor' || (await isVendor(p.db, user.id))) return 'You are already a vendor.';
  const last = await latestApplicationOf(p.db, user.id);
  if (last?.status === 'pending') return 'You already have a pending application.';
  if (last?.status === 'rejected' && last.decided_at && now - toDate(last.decided_at).getTime() < REAPPLY_COOLDOWN_MS) {
    return 'Your last application was rejected less than 24 hours ago; you can apply again 24 hours after the decision.';
  }
  return null;
}

/**
 * A logged-in user applies to become a vendor (design §6). Fields and documents are checked first, files are
 * stored under server-chosen names, then the application and its document rows are written in one transaction
 * (a unique index makes a second pending application impossible even under a race); files of a failed attempt
 * are removed.
 */
export async function submitApplication(
  p: Platform,
  user: AuthUser,
  f: ApplyFields,
  files: UploadedFile[],
): Promise<ApplicationRow> {
  const s = await marketplaceSettings(p);
  const phone = text(f, 'phone', 3, 40);
  if (!/^[+0-9 ()-]+$/.test(phone)) throw bad('phone', 'phone may contain digits, spaces, +, - and parentheses only.');
  const city = text(f, 'city', 1, 100);
  const iban = parseIban(text(f, 'iban', 15, 42));
  if (!iban) throw bad('iban', 'iban is not a valid IBAN (checksum failed).');
  const accountHolder = text(f, 'account_holder', 2, 200);
  const areas = (f.service_areas ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (areas.length > 20 || areas.some((a) => a.length > 100))
    throw bad('service_areas', 'service_areas: at most 20 comma-separated names of ≤ 100 characters.');
  if (!['true', '1', 'yes', 'on'].includes((f.terms_accepted ?? '').toLowerCase()))
    throw bad('terms_accepted', 'The vendor terms must be accepted (terms_accepted=true).');
  if ((f.terms_version ?? '') !== s.terms_version)
    throw bad('terms_version', `terms_version must be the current version "${s.terms_version}".`);
  if (!files.some((x) => x.kind === 'id')) throw bad('document_id', 'An identity document (document_id) is required.');
  const blocker = await applyBlocker(p, user);
  if (blocker) throw RentalErrors.stateConflict(blocker);
  const stored: { file: UploadedFile; doc: StoredDocument }[] = [];
  try {
    for (const file of files) stored.push({ file, doc: await storeDocument(p.storage, file.data) });
    return await p.transaction(async (tx) => {
      const app = await insertApplication(tx, {
        user_id: user.id,
        phone,
        city,
        iban_encrypted: encryptIban(p.config.secret, iban),
        account_holder: accountHolder,
        tax_office: text(f, 'tax_office', 0, 200),
        tax_number: text(f, 'tax_number', 0, 50),
        bio: text(f, 'bio', 0, 2000),
        service_areas: areas,
        terms_version: s.terms_version,
      });
      if (!app) throw RentalErrors.stateConflict('You already have a pending application.');
      for (const { file, doc } of stored)
        await insertDocument(tx, {
          application_id: app.id,
          kind: file.kind,
          original_name: file.original_name,
          ...doc,
        });
      await emitEvent(tx, 'vendor.application.submitted', { application_id: Number(app.id), user_id: user.id, city });
      return app;
    });
  } catch (err) {
    await Promise.all(stored.map(({ doc }) => removeDocument(p.storage, doc.stored_name).catch(() => undefined)));
    throw err;
  }
}

async function pendingForDecision(tx: Db, id: number): Promise<ApplicationRow> {
  const a = await applicationById(tx, id, true);
  if (!a) throw notFoundError('Vendor application', id);
  if (a.status !== 'pending')
    throw RentalErrors.stateConflict(`Application ${id} is ${a.status}; only a pending application can be decided.`);
  return a;
}

/** Approve: the user gets the vendor role and an active vendor record (copied from the application), one transaction. */
export async function approveApplication(
  p: Platform,
  id: number,
  admin: AuthUser,
): Promise<{ id: number; status: 'approved'; vendor_id: number }> {
  const approved = await p.transaction(async (tx) => {
    const a = await pendingForDecision(tx, id);
    await decideApplication(tx, id, 'approved', admin.id, null);
    await upsertVendorFromApplication(tx, a);
    await p.auth.setRole(Number(a.user_id), 'vendor', tx);
    await recordVendorAudit(tx, {
      vendorId: Number(a.user_id),
      event: 'vendor_approved',
      adminUserId: admin.id,
      note: `Application ${id} approved.`,
    });
    await emitEvent(tx, 'vendor.application.approved', { application_id: id, vendor_id: Number(a.user_id) });
    const wake = await decisionMail(tx, p, a, 'application_approved', null);
    return { decision: { id, status: 'approved' as const, vendor_id: Number(a.user_id) }, wake };
  });
  // the new role, seen by every node's key cache only once it is committed
  await p.auth.usersChanged();
  await approved.wake?.();
  return approved.decision;
}

export async function rejectApplication(
  p: Platform,
  id: number,
  admin: AuthUser,
  reason: string | undefined,
): Promise<{ id: number; status: 'rejected'; reason: string }> {
  const why = (reason ?? '').trim();
  if (!why) throw bad('reason', 'A rejection reason is required.');
  const wake = await p.transaction(async (tx) => {
    const a = await pendingForDecision(tx, id);
    await decideApplication(tx, id, 'rejected', admin.id, why);
    await emitEvent(tx, 'vendor.application.rejected', { application_id: id, user_id: Number(a.user_id), reason: why });
    return decisionMail(tx, p, a, 'application_rejected', why);
  });
  await wake?.();
  return { id, status: 'rejected' as const, reason: why };
}

/** The applicant is told the decision by mail, in the decision's transaction. */
function decisionMail(
  tx: Db,
  p: Platform,
  a: ApplicationRow,
  kind: 'application_approved' | 'application_rejected',
  reason: string | null,
) {
  return reviewMailInTransaction(
    tx,
    p,
    kind,
    {
      to: a.applicant_email ?? '',
      name: a.applicant_name ?? '',
      subject: ['Application', `#${a.id}`],
      reason,
      decidedAt: new Date(),
    },
    `vendor_application:${a.id}`,
  );
}

/** How many vendor applications wait for a decision. */
export function waitingApplicationCount(db: Db): Promise<number> {
  return pendingApplicationCount(db);
}
