import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { dedupeSlug, slugify } from '../slug.js';
import type { Image } from '../types.js';
import type {
  AttributePatch,
  AttributeRecord,
  Taxonomy,
  TermListQuery,
  TermPatch,
  TermRecord,
  TermScope,
} from './types.js';

/** SQL of categories, tags, attributes and attribute terms, and of their links to products. */

interface TermRow {
  id: string | number;
  taxonomy: Taxonomy;
  attribute_id: string | number | null;
  parent_id: string | number | null;
  name: string;
  slug: string;
  description: string;
  display: string;
  image: unknown;
  menu_order: number;
  count: string | number;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

function toTerm(r: TermRow): TermRecord {
  const image =
    typeof r.image === 'string' ? (JSON.parse(r.image) as Image | null) : ((r.image ?? null) as Image | null);
  return {
    id: Number(r.id),
    taxonomy: r.taxonomy,
    attributeId: num(r.attribute_id),
    parentId: num(r.parent_id),
    name: r.name,
    slug: r.slug,
    description: r.description,
    display: r.display,
    image,
    menuOrder: Number(r.menu_order),
    count: Number(r.count),
  };
}

/** Published products carrying the term: links for categories and tags, the product's attribute options for attribute terms. */
const COUNT_SQL = sql`(CASE WHEN t.taxonomy = 'attribute' THEN
    (SELECT count(*) FROM rova_products p, jsonb_array_elements(p.attributes) a
      WHERE p.parent_id IS NULL AND p.status = 'publish' AND a->>'id' = t.attribute_id::text AND jsonb_exists(a->'options', t.name))
  ELSE (SELECT count(*) FROM rova_product_term_links l JOIN rova_products p ON p.id = l.product_id
      WHERE l.term_id = t.id AND p.status = 'publish') END)`;

const TERM_SELECT = sql`SELECT t.*, ${COUNT_SQL} AS count FROM rova_product_terms t`;

function scopeSql(s: TermScope): SQL {
  return s.attributeId === null
    ? sql`t.taxonomy = ${s.taxonomy} AND t.attribute_id IS NULL`
    : sql`t.taxonomy = ${s.taxonomy} AND t.attribute_id = ${s.attributeId}`;
}

const idList = (list: number[]) =>
  sql.join(
    list.map((i) => sql`${i}`),
    sql`, `,
  );

function termOrder(q: TermListQuery): SQL {
  const dir = sql.raw(q.order === 'asc' ? 'ASC' : 'DESC');
  switch (q.orderby) {
    case 'id':
      return sql`t.id ${dir}`;
    case 'include':
      return q.include?.length
        ? sql`array_position(ARRAY[${idList(q.include)}]::bigint[], t.id) ${dir}, t.id`
        : sql`t.id ${dir}`;
    case 'slug':
      return sql`t.slug ${dir}, t.id`;
    case 'description':
      return sql`t.description ${dir}, t.id`;
    case 'count':
      return sql`${COUNT_SQL} ${dir}, t.id`;
    default:
      return sql`t.name ${dir}, t.id`;
  }
}

export async function listTerms(
  db: Db,
  scope: TermScope,
  q: TermListQuery,
): Promise<{ items: TermRecord[]; total: number }> {
  const where: SQL[] = [scopeSql(scope)];
  if (q.search) {
    const like = '%' + q.search.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    where.push(sql`(t.name ILIKE ${like} OR t.slug ILIKE ${like} OR t.description ILIKE ${like})`);
  }
  if (q.include?.length) where.push(sql`t.id IN (${idList(q.include)})`);
  if (q.exclude?.length) where.push(sql`t.id NOT IN (${idList(q.exclude)})`);
  if (q.slugs?.length)
    where.push(
      sql`t.slug IN (${sql.join(
        q.slugs.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  if (q.parent !== undefined) where.push(q.parent === 0 ? sql`t.parent_id IS NULL` : sql`t.parent_id = ${q.parent}`);
  if (q.product !== undefined) {
    where.push(
      scope.taxonomy === 'attribute'
        ? sql`EXISTS (SELECT 1 FROM rova_products p, jsonb_array_elements(p.attributes) a WHERE p.id = ${q.product} AND a->>'id' = t.attribute_id::text AND jsonb_exists(a->'options', t.name))`
        : sql`EXISTS (SELECT 1 FROM rova_product_term_links l WHERE l.term_id = t.id AND l.product_id = ${q.product})`,
    );
  }
  if (q.hideEmpty) where.push(sql`${COUNT_SQL} > 0`);
  const cond = sql.join(where, sql` AND `);
  const total = await one<{ n: string | number }>(
    db,
    sql`SELECT count(*) AS n FROM rova_product_terms t WHERE ${cond}`,
  );
  const list = await rows<TermRow>(
    db,
    sql`${TERM_SELECT} WHERE ${cond} ORDER BY ${termOrder(q)} LIMIT ${q.limit} OFFSET ${q.offset}`,
  );
  return { items: list.map(toTerm), total: Number(total?.n ?? 0) };
}

export async function findTerm(db: Db, scope: TermScope, id: number): Promise<TermRecord | undefined> {
  const r = await one<TermRow>(db, sql`${TERM_SELECT} WHERE ${scopeSql(scope)} AND t.id = ${id}`);
  return r && toTerm(r);
}

/** The ids among `ids` that are terms of the taxonomy. */
export async function existingTermIds(db: Db, taxonomy: Taxonomy, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const r = await rows<{ id: string | number }>(
    db,
    sql`SELECT id FROM rova_product_terms WHERE taxonomy = ${taxonomy} AND id IN (${idList(ids)})`,
  );
  return new Set(r.map((x) => Number(x.id)));
}

export async function termSlugsLike(db: Db, scope: TermScope, base: string): Promise<Set<string>> {
  const like = base.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  const r = await rows<{ slug: string }>(
    db,
    sql`SELECT t.slug FROM rova_product_terms t WHERE ${scopeSql(scope)} AND t.slug LIKE ${like}`,
  );
  return new Set(r.map((x) => x.slug));
}

export async function termSlugOwner(db: Db, scope: TermScope, slug: string): Promise<number | null> {
  const r = await one<{ id: string | number }>(
    db,
    sql`SELECT t.id FROM rova_product_terms t WHERE ${scopeSql(scope)} AND t.slug = ${slug}`,
  );
  return r ? Number(r.id) : null;
}

/** Ids of the term and every term below it (to refuse a parent that would make a cycle). */
export async function termSubtree(db: Db, id: number): Promise<Set<number>> {
  const r = await rows<{ id: string | number }>(
    db,
    sql`WITH RECURSIVE sub(id) AS (SELECT ${id}::bigint UNION SELECT t.id FROM rova_product_terms t JOIN sub ON t.parent_id = sub.id) SELECT id FROM sub`,
  );
  return new Set(r.map((x) => Number(x.id)));
}

function termAssignments(p: TermPatch): SQL[] {
  const a: SQL[] = [];
  if (p.name !== undefined) a.push(sql`name = ${p.name}`);
  if (p.slug !== undefined) a.push(sql`slug = ${p.slug}`);
  if (p.parentId !== undefined) a.push(sql`parent_id = ${p.parentId}`);
  if (p.description !== undefined) a.push(sql`description = ${p.description}`);
  if (p.display !== undefined) a.push(sql`display = ${p.display}`);
  if (p.image !== undefined) a.push(sql`image = ${p.image === null ? null : JSON.stringify(p.image)}::jsonb`);
  if (p.menuOrder !== undefined) a.push(sql`menu_order = ${p.menuOrder}`);
  return a;
}

export async function insertTerm(
  db: Db,
  scope: TermScope,
  p: TermPatch & { name: string; slug: string },
): Promise<number> {
  const r = await one<{ id: string | number }>(
    db,
    sql`INSERT INTO rova_product_terms (taxonomy, attribute_id, name, slug) VALUES (${scope.taxonomy}, ${scope.attributeId}, ${p.name}, ${p.slug}) RETURNING id`,
  );
  const id = Number(r!.id);
  await updateTerm(db, id, p);
  return id;
}

export async function updateTerm(db: Db, id: number, p: TermPatch): Promise<void> {
  const a = termAssignments(p);
  if (a.length) await db.execute(sql`UPDATE rova_product_terms SET ${sql.join(a, sql`, `)} WHERE id = ${id}`);
}

export async function deleteTerm(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_product_terms WHERE id = ${id}`);
}

/** Replaces a product's terms of one taxonomy. */
export async function setProductTerms(db: Db, productId: number, taxonomy: Taxonomy, termIds: number[]): Promise<void> {
  await db.execute(sql`DELETE FROM rova_product_term_links l USING rova_product_terms t
    WHERE l.term_id = t.id AND l.product_id = ${productId} AND t.taxonomy = ${taxonomy}`);
  if (termIds.length) {
    await db.execute(sql`INSERT INTO rova_product_term_links (product_id, term_id)
      SELECT ${productId}, x FROM unnest(ARRAY[${idList(termIds)}]::bigint[]) x ON CONFLICT DO NOTHING`);
  }
}

/** Products whose terms changed (their date_modified moves, as in WooCommerce). */
export async function productsWithTerm(db: Db, termId: number): Promise<number[]> {
  const r = await rows<{ id: string | number }>(
    db,
    sql`SELECT product_id AS id FROM rova_product_term_links WHERE term_id = ${termId}`,
  );
  return r.map((x) => Number(x.id));
}

// ---- attributes ------------------------------------------------------------------------------------------------

interface AttributeRow {
  id: string | number;
  name: string;
  slug: string;
  type: string;
  order_by: string;
  has_archives: boolean;
}

const toAttribute = (r: AttributeRow): AttributeRecord => ({
  id: Number(r.id),
  name: r.name,
  slug: r.slug,
  type: r.type,
  orderBy: r.order_by,
  hasArchives: r.has_archives,
});

/** In WooCommerce's order: by attribute_name, the slug (wc_get_attribute_taxonomies). */
export async function listAttributes(db: Db): Promise<AttributeRecord[]> {
  return (await rows<AttributeRow>(db, sql`SELECT * FROM rova_product_attributes ORDER BY slug, id`)).map(toAttribute);
}

export async function findAttribute(db: Db, id: number): Promise<AttributeRecord | undefined> {
  const r = await one<AttributeRow>(db, sql`SELECT * FROM rova_product_attributes WHERE id = ${id}`);
  return r && toAttribute(r);
}

export async function findAttributes(db: Db, ids: number[]): Promise<AttributeRecord[]> {
  if (ids.length === 0) return [];
  return (await rows<AttributeRow>(db, sql`SELECT * FROM rova_product_attributes WHERE id IN (${idList(ids)})`)).map(
    toAttribute,
  );
}

export async function attributeSlugOwner(db: Db, slug: string): Promise<number | null> {
  const r = await one<{ id: string | number }>(db, sql`SELECT id FROM rova_product_attributes WHERE slug = ${slug}`);
  return r ? Number(r.id) : null;
}

function attributeAssignments(p: AttributePatch): SQL[] {
  const a: SQL[] = [];
  if (p.name !== undefined) a.push(sql`name = ${p.name}`);
  if (p.slug !== undefined) a.push(sql`slug = ${p.slug}`);
  if (p.type !== undefined) a.push(sql`type = ${p.type}`);
  if (p.orderBy !== undefined) a.push(sql`order_by = ${p.orderBy}`);
  if (p.hasArchives !== undefined) a.push(sql`has_archives = ${p.hasArchives}`);
  return a;
}

export async function insertAttribute(db: Db, p: AttributePatch & { name: string; slug: string }): Promise<number> {
  const r = await one<{ id: string | number }>(
    db,
    sql`INSERT INTO rova_product_attributes (name, slug) VALUES (${p.name}, ${p.slug}) RETURNING id`,
  );
  const id = Number(r!.id);
  await updateAttribute(db, id, p);
  return id;
}

export async function updateAttribute(db: Db, id: number, p: AttributePatch): Promise<void> {
  const a = attributeAssignments(p);
  if (a.length) await db.execute(sql`UPDATE rova_product_attributes SET ${sql.join(a, sql`, `)} WHERE id = ${id}`);
}

export async function deleteAttribute(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_product_attributes WHERE id = ${id}`);
}

/** A global attribute renamed: products carrying it show the new name. */
export async function renameProductAttribute(db: Db, attributeId: number, name: string): Promise<void> {
  await db.execute(sql`UPDATE rova_products SET attributes = (
      SELECT jsonb_agg(CASE WHEN a->>'id' = ${String(attributeId)} THEN jsonb_set(a, '{name}', to_jsonb(${name}::text)) ELSE a END ORDER BY n)
      FROM jsonb_array_elements(attributes) WITH ORDINALITY AS x(a, n))
    WHERE jsonb_path_exists(attributes, '$[*] ? (@.id == $id)', jsonb_build_object('id', ${attributeId}::bigint))`);
}

/** A global attribute deleted: it goes from the products that carried it (WooCommerce drops the taxonomy). */
export async function removeProductAttribute(db: Db, attributeId: number): Promise<void> {
  await db.execute(sql`UPDATE rova_products SET attributes = COALESCE((
      SELECT jsonb_agg(a ORDER BY n) FROM jsonb_array_elements(attributes) WITH ORDINALITY AS x(a, n) WHERE a->>'id' <> ${String(attributeId)}), '[]'::jsonb),
      date_modified = now()
    WHERE jsonb_path_exists(attributes, '$[*] ? (@.id == $id)', jsonb_build_object('id', ${attributeId}::bigint))`);
}

/** Terms of an attribute by name, created when missing (WooCommerce creates terms named in product options). */
export async function ensureAttributeTerms(db: Db, attributeId: number, names: string[]): Promise<void> {
  for (const name of names) {
    const base = slugify(name) || 'term';
    const scope: TermScope = { taxonomy: 'attribute', attributeId };
    const exists = await one<{ id: string | number }>(
      db,
      sql`SELECT id FROM rova_product_terms WHERE taxonomy = 'attribute' AND attribute_id = ${attributeId} AND name = ${name}`,
    );
    if (exists) continue;
    await insertTerm(db, scope, { name, slug: dedupeSlug(base, await termSlugsLike(db, scope, base)) });
  }
}
