import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import { containsPattern as likeContains } from '../../shared/like.js';

export interface ApplicationRow {
  id: string | number;
  user_id: string | number;
  status: 'pending' | 'approved' | 'rejected';
  phone: string;
  city: string;
  iban_encrypted: string;
  account_holder: string;
  tax_office: string;
  tax_number: string;
  bio: string;
  service_areas: string[];
  terms_version: string;
  terms_accepted_at: string;
  rejection_reason: string | null;
  decided_by: string | number | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
  applicant_name?: string;
  applicant_email?: string;
}

export interface DocumentRow {
  id: string | number;
  application_id: string | number;
  kind: 'id' | 'license' | 'address';
  stored_name: string;
  original_name: string;
  mime: string;
  size: number;
  sha256: string;
  created_at: string;
}

const WITH_USER = sql`SELECT a.*, coalesce(nullif(u.display_name, ''), u.login) AS applicant_name, u.email AS applicant_email
  FROM vendor_applications a JOIN rova_users u ON u.id = a.user_id`;

export async function applicationById(db: Db, id: number, forUpdate = false): Promise<ApplicationRow | undefined> {
  return one<ApplicationRow>(db, sql`${WITH_USER} WHERE a.id = ${id} ${forUpdate ? sql`FOR UPDATE OF a` : sql``}`);
}

export async function latestApplicationOf(db: Db, userId: number): Promise<ApplicationRow | undefined> {
  return one<ApplicationRow>(
    db,
    sql`${WITH_USER} WHERE a.user_id = ${userId} ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
  );
}

export async function insertApplication(
  db: Db,
  f: Omit<
    ApplicationRow,
    | 'id'
    | 'status'
    | 'rejection_reason'
    | 'decided_by'
    | 'decided_at'
    | 'created_at'
    | 'updated_at'
    | 'terms_accepted_at'
  > & { created_at?: string },
): Promise<ApplicationRow> {
  return (await one<ApplicationRow>(
    db,
    sql`INSERT INTO vendor_applications (user_id, phone, city, iban_encrypted, account_holder, tax_office, tax_number, bio, service_areas, terms_version, terms_accepted_at, created_at)
    VALUES (${f.user_id}, ${f.phone}, ${f.city}, ${f.iban_encrypted}, ${f.account_holder}, ${f.tax_office}, ${f.tax_number}, ${f.bio}, ${JSON.stringify(f.service_areas)}::jsonb,
            ${f.terms_version}, coalesce(${f.created_at ?? null}::timestamptz, now()), coalesce(${f.created_at ?? null}::timestamptz, now()))
    ON CONFLICT DO NOTHING RETURNING *`,
  ))!;
}

export async function decideApplication(
  db: Db,
  id: number,
  status: 'approved' | 'rejected',
  by: number | null,
  reason: string | null,
): Promise<void> {
  await db.execute(
    sql`UPDATE vendor_applications SET status = ${status}, decided_by = ${by}, decided_at = now(), rejection_reason = ${reason}, updated_at = now() WHERE id = ${id}`,
  );
}

export async function insertDocument(db: Db, d: Omit<DocumentRow, 'id' | 'created_at'>): Promise<void> {
  await db.execute(sql`INSERT INTO vendor_documents (application_id, kind, stored_name, original_name, mime, size, sha256)
    VALUES (${d.application_id}, ${d.kind}, ${d.stored_name}, ${d.original_name}, ${d.mime}, ${d.size}, ${d.sha256})`);
}

export async function documentsOf(db: Db, applicationId: number): Promise<DocumentRow[]> {
  return rows<DocumentRow>(
    db,
    sql`SELECT * FROM vendor_documents WHERE application_id = ${applicationId} ORDER BY kind`,
  );
}

export async function documentById(
  db: Db,
  id: number,
): Promise<(DocumentRow & { user_id: string | number }) | undefined> {
  return one(
    db,
    sql`SELECT d.*, a.user_id FROM vendor_documents d JOIN vendor_applications a ON a.id = d.application_id WHERE d.id = ${id}`,
  );
}

export interface ApplicationFilter {
  status?: string;
  search?: string;
}

export async function listApplications(
  db: Db,
  f: ApplicationFilter,
  limit: number,
  offset: number,
): Promise<{ items: ApplicationRow[]; total: number }> {
  const c = [sql`true`];
  if (f.status && f.status !== 'all') c.push(sql`a.status = ${f.status}`);
  if (f.search)
    c.push(
      sql`(u.display_name ILIKE ${likeContains(f.search)} OR u.email ILIKE ${likeContains(f.search)} OR a.city ILIKE ${likeContains(f.search)})`,
    );
  const w = sql.join(c, sql` AND `);
  const items = await rows<ApplicationRow>(
    db,
    sql`${WITH_USER} WHERE ${w} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_applications a JOIN rova_users u ON u.id = a.user_id WHERE ${w}`,
  );
  return { items, total: Number(n?.n ?? 0) };
}

/** Copies the approved application into the vendor record (created or re-activated). */
export async function upsertVendorFromApplication(db: Db, a: ApplicationRow): Promise<void> {
  await db.execute(sql`INSERT INTO rental_vendors (user_id, status, approved_at, application_id, phone, city, iban_encrypted, account_holder, tax_office, tax_number, bio, service_areas)
    VALUES (${a.user_id}, 'active', now(), ${a.id}, ${a.phone}, ${a.city}, ${a.iban_encrypted}, ${a.account_holder}, ${a.tax_office}, ${a.tax_number}, ${a.bio}, ${JSON.stringify(a.service_areas)}::jsonb)
    ON CONFLICT (user_id) DO UPDATE SET status = 'active', approved_at = now(), application_id = EXCLUDED.application_id, phone = EXCLUDED.phone,
      city = EXCLUDED.city, iban_encrypted = EXCLUDED.iban_encrypted, account_holder = EXCLUDED.account_holder, tax_office = EXCLUDED.tax_office,
      tax_number = EXCLUDED.tax_number, bio = EXCLUDED.bio, service_areas = EXCLUDED.service_areas, updated_at = now()`);
}

export async function isVendor(db: Db, userId: number): Promise<boolean> {
  return (await one(db, sql`SELECT 1 AS x FROM rental_vendors WHERE user_id = ${userId}`)) !== undefined;
}

export async function pendingApplicationCount(db: Db): Promise<number> {
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_applications WHERE status = 'pending'`,
  );
  return Number(n?.n ?? 0);
}
