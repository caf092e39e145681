import { sql, type SQL } from 'drizzle-orm';
import { one, rows, toDate, toDateOrNull, type Db } from '../../platform/db/types.js';
import type {
  Attribute,
  Backorders,
  Category,
  Image,
  ProductPatch,
  ProductRecord,
  ProductStatus,
  RecordType,
} from './types.js';

/** SQL of the catalogue table `rova_products`. */

interface Row {
  id: string | number;
  parent_id: string | number | null;
  type: string;
  name: string;
  slug: string;
  status: string;
  password: string;
  sku: string;
  description: string;
  short_description: string;
  regular_price: string | null;
  sale_price: string | null;
  date_on_sale_from: unknown;
  date_on_sale_to: unknown;
  catalog_visibility: string;
  stock_status: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  backorders: string;
  featured: boolean;
  categories: unknown;
  tags: unknown;
  images: unknown;
  attributes: unknown;
  menu_order: number;
  rova_fixed_prices: unknown;
  pre_trash_status: string | null;
  date_created: unknown;
  date_modified: unknown;
}

function json<T>(v: unknown, fallback: T): T {
  if (typeof v === 'string') return JSON.parse(v) as T;
  return (v ?? fallback) as T;
}

function toRecord(r: Row): ProductRecord {
  return {
    id: Number(r.id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    type: r.type as RecordType,
    name: r.name,
    slug: r.slug,
    status: r.status as ProductStatus,
    password: r.password,
    sku: r.sku,
    description: r.description,
    shortDescription: r.short_description,
    regularPrice: r.regular_price === null ? '' : String(r.regular_price),
    salePrice: r.sale_price === null ? '' : String(r.sale_price),
    saleFrom: toDateOrNull(r.date_on_sale_from),
    saleTo: toDateOrNull(r.date_on_sale_to),
    catalogVisibility: r.catalog_visibility,
    stockStatus: r.stock_status,
    manageStock: r.manage_stock === true,
    stockQuantity: r.stock_quantity === null ? null : Number(r.stock_quantity),
    backorders: r.backorders as Backorders,
    featured: r.featured === true,
    categories: json<Category[]>(r.categories, []),
    tags: json<Category[]>(r.tags, []),
    images: json<Image[]>(r.images, []),
    attributes: json<Attribute[]>(r.attributes, []),
    menuOrder: Number(r.menu_order),
    fixedPrices: json<Record<string, string>>(r.rova_fixed_prices, {}),
    preTrashStatus: r.pre_trash_status,
    dateCreated: toDate(r.date_created),
    dateModified: toDate(r.date_modified),
  };
}

/** A product's terms of one taxonomy as `[{id, name, slug}]`, by name (WooCommerce's order). */
function termsSql(taxonomy: 'product_cat' | 'product_tag'): SQL {
  return sql`(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'slug', t.slug) ORDER BY t.name, t.id), '[]'::jsonb)
    FROM rova_product_term_links l JOIN rova_product_terms t ON t.id = l.term_id WHERE l.product_id = p.id AND t.taxonomy = ${taxonomy})`;
}

/** Every column plus the product's categories and tags. */
const SELECT = sql`SELECT p.*, ${termsSql('product_cat')} AS categories, ${termsSql('product_tag')} AS tags FROM rova_products p`;

export async function findById(db: Db, id: number): Promise<ProductRecord | undefined> {
  const r = await one<Row>(db, sql`${SELECT} WHERE p.id = ${id}`);
  return r && toRecord(r);
}

export async function findChildren(db: Db, parentIds: number[]): Promise<ProductRecord[]> {
  if (parentIds.length === 0) return [];
  const list = await rows<Row>(
    db,
    sql`${SELECT} WHERE p.parent_id IN (${sql.join(
      parentIds.map((i) => sql`${i}`),
      sql`, `,
    )}) ORDER BY p.menu_order, p.id`,
  );
  return list.map(toRecord);
}

/** Everything the in-memory catalogue view needs (every record; public-ness is decided in memory). */
export async function loadAll(db: Db): Promise<ProductRecord[]> {
  return (await rows<Row>(db, sql`${SELECT} ORDER BY p.id`)).map(toRecord);
}

export type OrderBy =
  'date' | 'id' | 'include' | 'title' | 'price' | 'slug' | 'menu_order' | 'popularity' | 'rating' | 'modified';

export interface ListQuery {
  parentId?: number;
  /** null = every status except trash. */
  statuses: ProductStatus[] | null;
  types?: string[];
  search?: string;
  skus?: string[];
  slugs?: string[];
  include?: number[];
  exclude?: number[];
  /** Parent product ids (of variations); a top-level product's parent is 0. */
  parents?: number[];
  parentExclude?: number[];
  featured?: boolean;
  onSale?: boolean;
  minPrice?: string;
  maxPrice?: string;
  stockStatus?: string;
  categories?: number[];
  tags?: number[];
  after?: Date;
  before?: Date;
  modifiedAfter?: Date;
  modifiedBefore?: Date;
  orderby: OrderBy;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const ids = (list: number[]) =>
  sql.join(
    list.map((i) => sql`${i}`),
    sql`, `,
  );

function activePriceSql(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`(CASE WHEN ${a}.sale_price IS NOT NULL AND ${a}.regular_price IS NOT NULL AND ${a}.regular_price > ${a}.sale_price
    AND (${a}.date_on_sale_from IS NULL OR ${a}.date_on_sale_from <= now())
    AND (${a}.date_on_sale_to IS NULL OR ${a}.date_on_sale_to >= now())
    THEN ${a}.sale_price ELSE ${a}.regular_price END)`;
}

const PRICE_SQL = sql`(CASE WHEN p.type = 'variable'
  THEN (SELECT min(${activePriceSql('v')}) FROM rova_products v WHERE v.parent_id = p.id AND v.status = 'publish' AND v.password = '')
  ELSE ${activePriceSql('p')} END)`;

function saleActiveSql(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.sale_price IS NOT NULL AND ${a}.regular_price IS NOT NULL AND ${a}.regular_price > ${a}.sale_price
    AND (${a}.date_on_sale_from IS NULL OR ${a}.date_on_sale_from <= now())
    AND (${a}.date_on_sale_to IS NULL OR ${a}.date_on_sale_to >= now()))`;
}

/** WooCommerce on_sale: the record's own sale is active; a variable product when one of its priced variations is. */
const ON_SALE_SQL = sql`(CASE WHEN p.type = 'variable'
  THEN EXISTS (SELECT 1 FROM rova_products v WHERE v.parent_id = p.id AND v.status = 'publish' AND v.password = '' AND ${saleActiveSql('v')})
  ELSE ${saleActiveSql('p')} END)`;

function orderSql(q: ListQuery): SQL {
  const dir = sql.raw(q.order === 'asc' ? 'ASC' : 'DESC');
  switch (q.orderby) {
    case 'id':
      return sql`p.id ${dir}`;
    case 'include':
      return q.include?.length
        ? sql`array_position(ARRAY[${ids(q.include)}]::bigint[], p.id) ${dir}, p.id ${dir}`
        : sql`p.id ${dir}`;
    case 'modified':
      return sql`p.date_modified ${dir}, p.id ${dir}`;
    case 'title':
      return sql`p.name ${dir}, p.id ${dir}`;
    case 'slug':
      return sql`p.slug ${dir}, p.id ${dir}`;
    case 'price':
      return sql`${PRICE_SQL} ${dir} NULLS LAST, p.id ${dir}`;
    case 'menu_order':
      return sql`p.menu_order ${dir}, p.id ${dir}`;
    default:
      return sql`p.date_created ${dir}, p.id ${dir}`;
  }
}

const texts = (list: string[]) =>
  sql.join(
    list.map((s) => sql`${s}`),
    sql`, `,
  );
const hasTerm = (termIds: number[]) =>
  sql`EXISTS (SELECT 1 FROM rova_product_term_links l WHERE l.product_id = p.id AND l.term_id IN (${ids(termIds)}))`;

/** The WHERE conditions of a product listing (WooCommerce's filters). */
function conditions(q: ListQuery): SQL[] {
  const where: SQL[] = [q.parentId !== undefined ? sql`p.parent_id = ${q.parentId}` : sql`p.parent_id IS NULL`];
  if (q.statuses) where.push(sql`p.status IN (${texts(q.statuses)})`);
  else where.push(sql`p.status <> 'trash'`);
  if (q.types) where.push(q.types.length ? sql`p.type IN (${texts(q.types)})` : sql`false`);
  if (q.slugs?.length) where.push(sql`p.slug IN (${texts(q.slugs)})`);
  if (q.parents?.length) where.push(sql`COALESCE(p.parent_id, 0) IN (${ids(q.parents)})`);
  if (q.parentExclude?.length) where.push(sql`COALESCE(p.parent_id, 0) NOT IN (${ids(q.parentExclude)})`);
  if (q.featured !== undefined) where.push(sql`p.featured = ${q.featured}`);
  if (q.stockStatus) where.push(sql`p.stock_status = ${q.stockStatus}`);
  if (q.categories?.length) where.push(hasTerm(q.categories));
  if (q.tags?.length) where.push(hasTerm(q.tags));
  if (q.after) where.push(sql`p.date_created > ${q.after.toISOString()}::timestamptz`);
  if (q.before) where.push(sql`p.date_created < ${q.before.toISOString()}::timestamptz`);
  if (q.modifiedAfter) where.push(sql`p.date_modified > ${q.modifiedAfter.toISOString()}::timestamptz`);
  if (q.modifiedBefore) where.push(sql`p.date_modified < ${q.modifiedBefore.toISOString()}::timestamptz`);
  if (q.minPrice !== undefined) where.push(sql`${PRICE_SQL} >= ${q.minPrice}::numeric`);
  if (q.maxPrice !== undefined) where.push(sql`${PRICE_SQL} <= ${q.maxPrice}::numeric`);
  if (q.onSale !== undefined) where.push(q.onSale ? ON_SALE_SQL : sql`NOT ${ON_SALE_SQL}`);
  return where;
}

export async function list(db: Db, q: ListQuery): Promise<{ items: ProductRecord[]; total: number }> {
  const where = conditions(q);
  if (q.search) {
    const like = '%' + q.search.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    where.push(sql`(p.name ILIKE ${like} OR p.description ILIKE ${like} OR p.short_description ILIKE ${like})`);
  }
  if (q.skus?.length)
    where.push(
      sql`p.sku IN (${sql.join(
        q.skus.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  if (q.include?.length) where.push(sql`p.id IN (${ids(q.include)})`);
  if (q.exclude?.length) where.push(sql`p.id NOT IN (${ids(q.exclude)})`);
  const cond = sql.join(where, sql` AND `);
  const count = await one<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM rova_products p WHERE ${cond}`);
  const items = await rows<Row>(
    db,
    sql`${SELECT} WHERE ${cond} ORDER BY ${orderSql(q)} LIMIT ${q.limit} OFFSET ${q.offset}`,
  );
  return { items: items.map(toRecord), total: Number(count?.n ?? 0) };
}

export async function slugsLike(db: Db, base: string): Promise<Set<string>> {
  const like = base.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  const r = await rows<{ slug: string }>(db, sql`SELECT slug FROM rova_products WHERE slug LIKE ${like}`);
  return new Set(r.map((x) => x.slug));
}

export async function skuOwner(db: Db, sku: string): Promise<number | null> {
  const r = await one<{ id: string | number }>(db, sql`SELECT id FROM rova_products WHERE sku = ${sku}`);
  return r ? Number(r.id) : null;
}

const price = (v: string) => (v === '' ? null : v);

/** Column assignments for the fields a patch sets. */
function assignments(p: ProductPatch): SQL[] {
  const a: SQL[] = [];
  if (p.name !== undefined) a.push(sql`name = ${p.name}`);
  if (p.slug !== undefined) a.push(sql`slug = ${p.slug}`);
  if (p.type !== undefined) a.push(sql`type = ${p.type}`);
  if (p.status !== undefined) a.push(sql`status = ${p.status}`);
  if (p.password !== undefined) a.push(sql`password = ${p.password}`);
  if (p.sku !== undefined) a.push(sql`sku = ${p.sku}`);
  if (p.description !== undefined) a.push(sql`description = ${p.description}`);
  if (p.shortDescription !== undefined) a.push(sql`short_description = ${p.shortDescription}`);
  if (p.regularPrice !== undefined) a.push(sql`regular_price = ${price(p.regularPrice)}::numeric`);
  if (p.salePrice !== undefined) a.push(sql`sale_price = ${price(p.salePrice)}::numeric`);
  if (p.saleFrom !== undefined) a.push(sql`date_on_sale_from = ${p.saleFrom?.toISOString() ?? null}::timestamptz`);
  if (p.saleTo !== undefined) a.push(sql`date_on_sale_to = ${p.saleTo?.toISOString() ?? null}::timestamptz`);
  if (p.catalogVisibility !== undefined) a.push(sql`catalog_visibility = ${p.catalogVisibility}`);
  if (p.stockStatus !== undefined) a.push(sql`stock_status = ${p.stockStatus}`);
  if (p.manageStock !== undefined) a.push(sql`manage_stock = ${p.manageStock}`);
  if (p.stockQuantity !== undefined) a.push(sql`stock_quantity = ${p.stockQuantity}`);
  if (p.backorders !== undefined) a.push(sql`backorders = ${p.backorders}`);
  if (p.featured !== undefined) a.push(sql`featured = ${p.featured}`);
  if (p.images !== undefined) a.push(sql`images = ${JSON.stringify(p.images)}::jsonb`);
  if (p.attributes !== undefined) a.push(sql`attributes = ${JSON.stringify(p.attributes)}::jsonb`);
  if (p.menuOrder !== undefined) a.push(sql`menu_order = ${p.menuOrder}`);
  if (p.fixedPrices !== undefined) a.push(sql`rova_fixed_prices = ${JSON.stringify(p.fixedPrices)}::jsonb`);
  return a;
}

/** Inserts a record (slug and type must be set) and returns its id. */
export async function insert(
  db: Db,
  parentId: number | null,
  p: ProductPatch & { slug: string; type: RecordType },
): Promise<number> {
  const r = await one<{ id: string | number }>(
    db,
    sql`INSERT INTO rova_products (parent_id, type, slug) VALUES (${parentId}, ${p.type}, ${p.slug}) RETURNING id`,
  );
  const id = Number(r!.id);
  const a = assignments(p);
  if (a.length) await db.execute(sql`UPDATE rova_products SET ${sql.join(a, sql`, `)} WHERE id = ${id}`);
  return id;
}

export async function update(
  db: Db,
  id: number,
  p: ProductPatch,
  extra: { preTrashStatus?: string | null } = {},
): Promise<void> {
  const a = assignments(p);
  if (extra.preTrashStatus !== undefined) a.push(sql`pre_trash_status = ${extra.preTrashStatus}`);
  a.push(sql`date_modified = now()`);
  await db.execute(sql`UPDATE rova_products SET ${sql.join(a, sql`, `)} WHERE id = ${id}`);
}

export async function remove(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_products WHERE id = ${id}`);
}
