import { toDate } from '../../../../platform/db/types.js';
import type { ApplicationRow, DocumentRow } from './repo.js';
import { maskStored } from '../iban.js';
import { REAPPLY_COOLDOWN_MS } from './service.js';

const iso = (v: unknown) => (v === null || v === undefined ? null : toDate(v).toISOString());

const DOC_LABELS: Record<string, string> = {
  id: 'ID Document',
  license: "Driver's License",
  address: 'Address Document',
};

/** Explicit allow-list views: the encrypted IBAN never leaves, only its mask. */
export function documentView(d: DocumentRow, base: string) {
  return {
    id: Number(d.id),
    kind: d.kind,
    label: DOC_LABELS[d.kind] ?? d.kind,
    file_name: d.original_name,
    mime: d.mime,
    size: d.size,
    url: `${base}/rova-rental/v1/vendor-documents/${d.id}`,
  };
}

export function applicationListItem(a: ApplicationRow) {
  return {
    id: Number(a.id),
    applicant_id: Number(a.user_id),
    applicant_name: a.applicant_name ?? `#${a.user_id}`,
    applicant_email: a.applicant_email ?? '',
    city: a.city,
    applied_at: iso(a.created_at)!,
    status: a.status,
  };
}

export function applicationDetail(a: ApplicationRow, docs: DocumentRow[], secret: string, base: string) {
  return {
    ...applicationListItem(a),
    phone: a.phone,
    account_holder: a.account_holder,
    iban_masked: maskStored(secret, a.iban_encrypted),
    tax_office: a.tax_office,
    tax_number: a.tax_number,
    bio: a.bio,
    service_areas: a.service_areas,
    terms_version: a.terms_version,
    terms_accepted_at: iso(a.terms_accepted_at)!,
    rejection_reason: a.rejection_reason,
    decided_at: iso(a.decided_at),
    can_reapply_at:
      a.status === 'rejected' && a.decided_at
        ? new Date(toDate(a.decided_at).getTime() + REAPPLY_COOLDOWN_MS).toISOString()
        : null,
    documents: docs.map((d) => documentView(d, base)),
  };
}
