import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { AttributeRow, ProductRow, TermRow } from './map-products.js';

const SOURCE = 'wordpress';

/** Rova tables the import writes rows into with chosen ids (checked names only: they go into SQL text). */
export type IdTable =
  | 'rova_products'
  | 'rova_product_terms'
  | 'rova_product_attributes'
  | 'rova_users'
  | 'rental_customers'
  | 'rental_locations'
  | 'rental_transfer_routes'
  | 'rental_pricing_rules'
  | 'rental_vehicles'
  | 'rental_bookings'
  | 'rental_messages'
  | 'vendor_reports';

export type Claim = { id: number; existed: boolean } | { conflict: string };

export async function mappedId(db: Db, sourceTable: string, oldId: string | number): Promise<number | undefined> {
  const r = await one<{ new_id: string }>(
    db,
    sql`SELECT new_id FROM import_id_map WHERE source = ${SOURCE} AND source_table = ${sourceTable} AND old_id = ${String(oldId)}`,
  );
  return r ? Number(r.new_id) : undefined;
}

export async function mappedIds(db: Db, sourceTable: string): Promise<Map<string, number>> {
  const r = await rows<{ old_id: string; new_id: string }>(
    db,
    sql`SELECT old_id, new_id FROM import_id_map WHERE source = ${SOURCE} AND source_table = ${sourceTable}`,
  );
  return new Map(r.map((x) => [x.old_id, Number(x.new_id)]));
}

export async function remember(db: Db, sourceTable: string, oldId: string | number, newId: number): Promise<void> {
  await db.execute(sql`INSERT INTO import_id_map (source, source_table, old_id, new_id) VALUES (${SOURCE}, ${sourceTable}, ${String(oldId)}, ${newId})
    ON CONFLICT (source, source_table, old_id) DO UPDATE SET new_id = EXCLUDED.new_id`);
}

async function idExists(db: Db, table: IdTable, id: number): Promise<boolean> {
  return (await one(db, sql`SELECT 1 FROM ${sql.identifier(table)} WHERE id = ${id}`)) !== undefined;
}

/**
 * The Rova id for a WordPress record: the one it got before (a re-run), else the same id when free. When the id is
 * taken by a row the import did not write: `keep` entities (ids the outside world holds) report a conflict, the
 * others get a fresh id from the table's sequence.
 */
export async function claimId(
  db: Db,
  table: IdTable,
  sourceTable: string,
  oldId: number,
  keep: boolean,
  reserveUpTo = 0,
): Promise<Claim> {
  const before = await mappedId(db, sourceTable, oldId);
  if (before !== undefined) return { id: before, existed: true };
  if (oldId > 0 && !(await idExists(db, table, oldId))) return { id: oldId, existed: false };
  if (keep) return { conflict: `id ${oldId} is already used in Rova by a record this import did not write` };
  // above every id in the table and every WordPress id still to come (`reserveUpTo`), so no later record is pushed off its own id
  const r = await one<{ id: string }>(
    db,
    sql`SELECT (GREATEST(coalesce(max(id), 0), ${reserveUpTo}) + 1)::text AS id FROM ${sql.identifier(table)}`,
  );
  return { id: Number(r!.id), existed: false };
}

/** After rows were written with chosen ids, the sequence moves past the highest id (new rows never collide). */
export async function bumpSequence(db: Db, table: IdTable): Promise<void> {
  await db.execute(
    sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.identifier(table)}), 1))`,
  );
}

/** Is `value` of `column` held by a row other than `id`? (slugs, SKUs, e-mails that must stay unique) */
export async function heldByOther(
  db: Db,
  table: IdTable,
  column: string,
  value: string,
  id: number,
  extra: SQL = sql`true`,
): Promise<boolean> {
  return (
    (await one(
      db,
      sql`SELECT 1 FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${value} AND id <> ${id} AND ${extra} LIMIT 1`,
    )) !== undefined
  );
}

// ---------- catalogue ----------

export async function upsertAttribute(db: Db, a: AttributeRow): Promise<void> {
  await db.execute(sql`INSERT INTO rova_product_attributes (id, name, slug, order_by, has_archives) VALUES (${a.id}, ${a.name}, ${a.slug}, ${a.orderBy}, ${a.hasArchives})
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, slug = EXCLUDED.slug, order_by = EXCLUDED.order_by, has_archives = EXCLUDED.has_archives`);
}

export async function upsertTerm(db: Db, t: TermRow): Promise<void> {
  await db.execute(sql`INSERT INTO rova_product_terms (id, taxonomy, attribute_id, parent_id, name, slug, description, display, menu_order)
    VALUES (${t.id}, ${t.taxonomy}, ${t.attributeId}, NULL, ${t.name}, ${t.slug}, ${t.description}, ${t.display}, ${t.menuOrder})
    ON CONFLICT (id) DO UPDATE SET taxonomy = EXCLUDED.taxonomy, attribute_id = EXCLUDED.attribute_id, name = EXCLUDED.name, slug = EXCLUDED.slug,
      description = EXCLUDED.description, display = EXCLUDED.display, menu_order = EXCLUDED.menu_order`);
}

export async function setTermParent(db: Db, id: number, parentId: number | null): Promise<void> {
  await db.execute(
    sql`UPDATE rova_product_terms SET parent_id = ${parentId} WHERE id = ${id} AND parent_id IS DISTINCT FROM ${parentId}`,
  );
}

export async function termSlugHeld(db: Db, t: TermRow): Promise<boolean> {
  return (
    (await one(
      db,
      sql`SELECT 1 FROM rova_product_terms WHERE taxonomy = ${t.taxonomy} AND COALESCE(attribute_id, 0) = ${t.attributeId ?? 0} AND slug = ${t.slug} AND id <> ${t.id}`,
    )) !== undefined
  );
}

export async function upsertProduct(db: Db, p: ProductRow): Promise<void> {
  const attrs = JSON.stringify(p.attributes);
  await db.execute(sql`INSERT INTO rova_products (id, parent_id, type, name, slug, status, password, sku, description, short_description, regular_price, sale_price,
      date_on_sale_from, date_on_sale_to, catalog_visibility, stock_status, featured, attributes, images, menu_order, pre_trash_status, rova_fixed_prices, date_created, date_modified,
      manage_stock, stock_quantity, backorders)
    VALUES (${p.id}, ${p.parentId}, ${p.type}, ${p.name}, ${p.slug}, ${p.status}, ${p.password}, ${p.sku}, ${p.description}, ${p.shortDescription}, ${p.regularPrice}, ${p.salePrice},
      ${p.saleFrom}, ${p.saleTo}, ${p.catalogVisibility}, ${p.stockStatus}, ${p.featured}, ${attrs}::jsonb, ${JSON.stringify(p.images)}::jsonb, ${p.menuOrder}, ${p.preTrashStatus}, ${JSON.stringify(p.fixedPrices)}::jsonb, ${p.dateCreated}, ${p.dateModified},
      ${p.manageStock}, ${p.stockQuantity}, ${p.backorders})
    ON CONFLICT (id) DO UPDATE SET parent_id = EXCLUDED.parent_id, type = EXCLUDED.type, name = EXCLUDED.name, slug = EXCLUDED.slug, status = EXCLUDED.status,
      password = EXCLUDED.password, sku = EXCLUDED.sku, description = EXCLUDED.description, short_description = EXCLUDED.short_description,
      regular_price = EXCLUDED.regular_price, sale_price = EXCLUDED.sale_price, date_on_sale_from = EXCLUDED.date_on_sale_from, date_on_sale_to = EXCLUDED.date_on_sale_to,
      catalog_visibility = EXCLUDED.catalog_visibility, stock_status = EXCLUDED.stock_status, featured = EXCLUDED.featured, attributes = EXCLUDED.attributes, images = EXCLUDED.images,
      menu_order = EXCLUDED.menu_order, pre_trash_status = EXCLUDED.pre_trash_status, rova_fixed_prices = EXCLUDED.rova_fixed_prices, date_created = EXCLUDED.date_created, date_modified = EXCLUDED.date_modified,
      manage_stock = EXCLUDED.manage_stock, stock_quantity = EXCLUDED.stock_quantity, backorders = EXCLUDED.backorders`);
}

/** The product's term links become exactly `termIds` (those that exist in Rova). */
export async function setProductTerms(db: Db, productId: number, termIds: number[]): Promise<void> {
  await db.execute(sql`DELETE FROM rova_product_term_links WHERE product_id = ${productId}
    AND NOT (term_id = ANY(${sql.raw(`ARRAY[${termIds.map((n) => Number(n)).join(',')}]::bigint[]`)}))`);
  for (const t of termIds) {
    await db.execute(
      sql`INSERT INTO rova_product_term_links (product_id, term_id) SELECT ${productId}, id FROM rova_product_terms WHERE id = ${t} ON CONFLICT DO NOTHING`,
    );
  }
}

// ---------- options ----------

export async function setOption(db: Db, name: string, value: unknown): Promise<void> {
  await db.execute(sql`INSERT INTO rova_options (name, value) VALUES (${name}, ${JSON.stringify(value)}::jsonb)
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = CASE WHEN rova_options.value = EXCLUDED.value THEN rova_options.updated_at ELSE now() END`);
}

// ---------- currency ----------

export async function currencyCodes(db: Db): Promise<Set<string>> {
  return new Set((await rows<{ code: string }>(db, sql`SELECT code FROM rova_fx_currencies`)).map((r) => r.code));
}

/** The currency rows become exactly `list` (in this order); an unchanged row is not written again. */
/** The site's currency rows replace Rova's: a code the site no longer lists goes. */
export async function dropCurrenciesBut(db: Db, codes: string[]): Promise<void> {
  await db.execute(
    sql`DELETE FROM rova_fx_currencies WHERE NOT (code = ANY(${sql.raw(`ARRAY[${codes.map((c) => `'${c.replace(/[^A-Z]/g, '')}'`).join(',')}]::text[]`)}))`,
  );
}

export async function putCurrency(db: Db, code: string, position: number, row: unknown): Promise<void> {
  const data = JSON.stringify(row);
  await db.execute(sql`INSERT INTO rova_fx_currencies (code, position, data) VALUES (${code}, ${position}, ${data}::jsonb)
    ON CONFLICT (code) DO UPDATE SET position = EXCLUDED.position, data = EXCLUDED.data, updated_at = now()
    WHERE rova_fx_currencies.position IS DISTINCT FROM EXCLUDED.position OR rova_fx_currencies.data IS DISTINCT FROM EXCLUDED.data`);
}

// ---------- users and customers ----------

export interface UserWrite {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  createdAt: string;
}

/** A Rova user (other than `id`) holding this login or e-mail. */
export async function userHolding(
  db: Db,
  login: string,
  email: string,
  id: number,
): Promise<{ id: number; login: string } | undefined> {
  const r = await one<{ id: string; login: string }>(
    db,
    sql`SELECT id::text, login FROM rova_users WHERE (lower(login) = lower(${login}) OR lower(email) = lower(${email})) AND id <> ${id} LIMIT 1`,
  );
  return r ? { id: Number(r.id), login: r.login } : undefined;
}

export async function upsertUser(db: Db, u: UserWrite): Promise<void> {
  // A password the user already changed (or that Rova re-hashed at the first login) is never put back to the old one.
  await db.execute(sql`INSERT INTO rova_users (id, login, email, display_name, role, password_hash, first_name, last_name, phone, created_at, updated_at)
    VALUES (${u.id}, ${u.login}, ${u.email}, ${u.displayName}, ${u.role}, ${u.passwordHash}, ${u.firstName}, ${u.lastName}, ${u.phone}, ${u.createdAt}, ${u.createdAt})
    ON CONFLICT (id) DO UPDATE SET login = EXCLUDED.login, email = EXCLUDED.email, display_name = EXCLUDED.display_name, role = EXCLUDED.role,
      password_hash = CASE WHEN rova_users.password_hash LIKE 'scrypt$%' THEN rova_users.password_hash ELSE EXCLUDED.password_hash END,
      first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, phone = EXCLUDED.phone, created_at = EXCLUDED.created_at`);
}

export async function customerByEmail(db: Db, email: string): Promise<number | undefined> {
  const r = await one<{ id: string }>(
    db,
    sql`SELECT id::text FROM rental_customers WHERE lower(email) = lower(${email})`,
  );
  return r ? Number(r.id) : undefined;
}

export async function upsertCustomer(
  db: Db,
  c: {
    id: number;
    name: string;
    email: string;
    phone: string;
    address: string;
    userId: number | null;
    createdAt: string;
  },
): Promise<void> {
  await db.execute(sql`INSERT INTO rental_customers (id, name, email, phone, address, user_id, created_at, updated_at)
    VALUES (${c.id}, ${c.name}, ${c.email}, ${c.phone}, ${c.address}, ${c.userId}, ${c.createdAt}, ${c.createdAt})
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, phone = EXCLUDED.phone, address = EXCLUDED.address,
      user_id = EXCLUDED.user_id, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}
