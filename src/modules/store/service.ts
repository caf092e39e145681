import type { Platform } from '../../platform/context.js';
import { emitProductUpdated } from './events.js';
import type { Db } from '../../platform/db/types.js';
import { invalidParam } from '../../platform/http/errors.js';
import { batchItemError, StoreErrors } from './errors.js';
import { toPatch, type ProductBody } from './input.js';
import { checkProductTaxonomies, saveProductTerms } from './product-terms.js';
import { baseFormat, requestedCurrency } from './pricing.js';
import * as repo from './repo.js';
import { productWire, variationWire, type Wire, type WireContext } from './serialize.js';
import { dedupeSlug, slugify } from './slug.js';
import { NO_STOCK_MANAGEMENT, stockAfter, touchesStock } from './stock.js';
import type { ProductPatch, ProductRecord } from './types.js';

/** The catalogue's rules: reads (with `?currency=`), writes in one transaction each, trash, batch. */

export const CATALOGUE_TOPIC = 'store.catalogue';
export const BATCH_LIMIT = 100;

const productNotFound = () => StoreErrors.productInvalidId('Invalid ID.');
const variationNotFound = () => StoreErrors.variationInvalidId('Invalid ID.');

async function context(
  platform: Platform,
  db: Db,
  records: ProductRecord[],
  currencyRaw?: unknown,
): Promise<WireContext> {
  const variable = records.filter((r) => r.type === 'variable').map((r) => r.id);
  const children = new Map<number, ProductRecord[]>();
  for (const c of await repo.findChildren(db, variable)) {
    const list = children.get(c.parentId!) ?? [];
    list.push(c);
    children.set(c.parentId!, list);
  }
  const parents = new Map<number, ProductRecord>();
  for (const id of new Set(records.map((r) => r.parentId).filter((x): x is number => x !== null))) {
    const parent = await repo.findById(db, id);
    if (parent) parents.set(id, parent);
  }
  return {
    now: new Date(),
    tz: platform.config.storeTimezone,
    baseFormat: baseFormat(platform),
    currency: requestedCurrency(platform, currencyRaw),
    children,
    parents,
  };
}

async function wireOf(platform: Platform, db: Db, r: ProductRecord, currencyRaw?: unknown): Promise<Wire> {
  const ctx = await context(platform, db, [r], currencyRaw);
  return r.type === 'variation' ? variationWire(r, ctx) : productWire(r, ctx);
}

async function changed(platform: Platform): Promise<void> {
  await platform.bus.publish(CATALOGUE_TOPIC, 'changed');
}

/** After a write the route committed itself (a keyed create, a batch): every node's catalogue view reloads. */
export const catalogueChanged = changed;

// ---- reads -------------------------------------------------------------------------------------------------

/** A listing: the repository's filters plus paging and the pricing currency. */
export interface ListParams extends Omit<repo.ListQuery, 'parentId' | 'limit' | 'offset'> {
  page: number;
  perPage: number;
  /** WordPress `offset`: overrides the page's offset. */
  offset?: number;
  currency?: unknown;
}

export async function listProducts(
  platform: Platform,
  p: ListParams,
  parentId?: number,
): Promise<{ items: Wire[]; total: number }> {
  if (parentId !== undefined) await getParent(platform.db, parentId);
  const { page, perPage, offset, currency: _c, ...filters } = p;
  const { items, total } = await repo.list(platform.db, {
    ...filters,
    parentId,
    limit: perPage,
    offset: offset ?? (page - 1) * perPage,
  });
  const ctx = await context(platform, platform.db, items, p.currency);
  return { items: items.map((r) => (r.type === 'variation' ? variationWire(r, ctx) : productWire(r, ctx))), total };
}

async function getParent(db: Db, id: number): Promise<ProductRecord> {
  const r = await repo.findById(db, id);
  if (!r || r.type === 'variation') throw productNotFound();
  return r;
}

async function getVariationOf(db: Db, parentId: number, vid: number): Promise<ProductRecord> {
  await getParent(db, parentId);
  const v = await repo.findById(db, vid);
  if (!v || v.parentId !== parentId) throw variationNotFound();
  return v;
}

export async function getProduct(platform: Platform, id: number, currency?: unknown): Promise<Wire> {
  return wireOf(platform, platform.db, await getParent(platform.db, id), currency);
}

export async function getVariation(platform: Platform, id: number, vid: number, currency?: unknown): Promise<Wire> {
  return wireOf(platform, platform.db, await getVariationOf(platform.db, id, vid), currency);
}

// ---- writes ------------------------------------------------------------------------------------------------

async function uniqueSlug(db: Db, base: string, own?: string): Promise<string> {
  const b = base || 'product';
  if (own === b) return b;
  return dedupeSlug(b, await repo.slugsLike(db, b));
}

async function checkSku(db: Db, sku: string | undefined, self?: number): Promise<void> {
  if (!sku) return;
  const owner = await repo.skuOwner(db, sku);
  if (owner !== null && owner !== self) {
    throw StoreErrors.invalidSku('Invalid or duplicated SKU.', {
      params: { sku: `SKU "${sku}" is already used by product ${owner}` },
    });
  }
}

function trashFields(patch: ProductPatch, current: ProductRecord | null): { preTrashStatus?: string | null } {
  if (patch.status === undefined) return {};
  if (patch.status === 'trash')
    return current?.status === 'trash' ? {} : { preTrashStatus: current?.status ?? 'draft' };
  return { preTrashStatus: null };
}

/**
 * A variation's slug, as WooCommerce derives it from the title ("Mileage - 300 km" → mileage-300-km): the
 * parent's slug is put in front only when the title does not already start with it (no mileage-mileage-…).
 */
export function variationSlug(parentSlug: string, name: string): string {
  const own = slugify(name);
  if (own === parentSlug || own.startsWith(`${parentSlug}-`)) return own;
  return slugify(`${parentSlug}-${own}`) || parentSlug;
}

async function createIn(db: Db, tz: string, body: ProductBody, parent: ProductRecord | null): Promise<number> {
  const patch = toPatch(body, tz, parent !== null);
  if (touchesStock(patch))
    Object.assign(patch, stockAfter(NO_STOCK_MANAGEMENT, patch, parent === null && patch.type === 'variable'));
  await checkSku(db, patch.sku);
  await checkProductTaxonomies(db, patch, parent !== null);
  if (parent) {
    if (patch.name === undefined || patch.name === '') {
      const opts = (patch.attributes ?? []).map((a) => a.option).filter((o): o is string => !!o);
      patch.name = opts.length ? `${parent.name} - ${opts.join(', ')}` : parent.name;
    }
    const slug = await uniqueSlug(db, patch.slug ?? variationSlug(parent.slug, patch.name));
    return repo.insert(db, parent.id, { ...patch, slug, type: 'variation', status: patch.status ?? 'publish' });
  }
  const slug = await uniqueSlug(db, patch.slug ?? slugify(patch.name ?? ''));
  const status = patch.status ?? 'publish';
  const id = await repo.insert(db, null, { ...patch, slug, type: patch.type ?? 'simple', status });
  await saveProductTerms(db, id, patch);
  if (status === 'trash') await repo.update(db, id, {}, { preTrashStatus: 'draft' });
  return id;
}

async function updateIn(db: Db, tz: string, current: ProductRecord, body: ProductBody): Promise<void> {
  const patch = toPatch(body, tz, current.type === 'variation');
  if (touchesStock(patch))
    Object.assign(patch, stockAfter(current, patch, (patch.type ?? current.type) === 'variable'));
  await checkSku(db, patch.sku, current.id);
  await checkProductTaxonomies(db, patch, current.type === 'variation');
  await saveProductTerms(db, current.id, patch);
  if (patch.slug !== undefined) patch.slug = await uniqueSlug(db, patch.slug, current.slug);
  if (patch.saleFrom !== undefined || patch.saleTo !== undefined) {
    const from = patch.saleFrom !== undefined ? patch.saleFrom : current.saleFrom;
    const to = patch.saleTo !== undefined ? patch.saleTo : current.saleTo;
    if (from && to && from.getTime() > to.getTime()) {
      throw invalidParam('date_on_sale_to', 'date_on_sale_to must not be before date_on_sale_from');
    }
  }
  await repo.update(db, current.id, patch, trashFields(patch, current));
}

/** Runs a write in one transaction and announces the change to every node's catalogue view. */
async function write<T>(platform: Platform, fn: (tx: Db) => Promise<T>): Promise<T> {
  try {
    const out = await platform.transaction(fn);
    await changed(platform);
    return out;
  } catch (err) {
    throw mapDbError(err);
  }
}

/**
 * A write in the route's transaction (its Idempotency-Key commits in it): the database's refusals said as the
 * catalogue says them; the route announces the change after the commit (`catalogueChanged`).
 */
async function inRouteTransaction<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw mapDbError(err);
  }
}

function mapDbError(err: unknown): unknown {
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === '23505') return StoreErrors.invalidSku('Invalid or duplicated SKU or slug.');
  return err;
}

/** Creates a product in the route's transaction `tx` (see inRouteTransaction). */
export async function createProduct(platform: Platform, tx: Db, body: ProductBody): Promise<Wire> {
  return inRouteTransaction(async () => {
    const id = await createIn(tx, platform.config.storeTimezone, body, null);
    return wireOf(platform, tx, (await repo.findById(tx, id))!);
  });
}

export async function updateProduct(platform: Platform, id: number, body: ProductBody): Promise<Wire> {
  return write(platform, async (tx) => {
    const current = await getParent(tx, id);
    await updateIn(tx, platform.config.storeTimezone, current, body);
    await emitProductUpdated(tx, id, null);
    return wireOf(platform, tx, (await repo.findById(tx, id))!);
  });
}

async function deleteIn(platform: Platform, tx: Db, r: ProductRecord, force: boolean): Promise<Wire> {
  if (force) {
    const wire = await wireOf(platform, tx, r);
    await repo.remove(tx, r.id);
    return wire;
  }
  if (r.type === 'variation') {
    throw StoreErrors.trashNotSupported('Variations do not support trashing. Set force=true to delete.');
  }
  if (r.status === 'trash') throw StoreErrors.alreadyTrashed('The product has already been deleted.');
  await repo.update(tx, r.id, { status: 'trash' }, { preTrashStatus: r.status });
  return wireOf(platform, tx, (await repo.findById(tx, r.id))!);
}

export async function deleteProduct(platform: Platform, id: number, force: boolean): Promise<Wire> {
  return write(platform, async (tx) => deleteIn(platform, tx, await getParent(tx, id), force));
}

async function variableParent(db: Db, parentId: number): Promise<ProductRecord> {
  const parent = await getParent(db, parentId);
  if (parent.type !== 'variable') {
    throw StoreErrors.variationInvalidParent(
      `Product ${parentId} is not a variable product; only variable products have variations.`,
    );
  }
  return parent;
}

/** Creates a variation in the route's transaction `tx` (see inRouteTransaction). */
export async function createVariation(platform: Platform, tx: Db, parentId: number, body: ProductBody): Promise<Wire> {
  return inRouteTransaction(async () => {
    const parent = await variableParent(tx, parentId);
    const id = await createIn(tx, platform.config.storeTimezone, body, parent);
    return wireOf(platform, tx, (await repo.findById(tx, id))!);
  });
}

export async function updateVariation(
  platform: Platform,
  parentId: number,
  vid: number,
  body: ProductBody,
): Promise<Wire> {
  return write(platform, async (tx) => {
    const current = await getVariationOf(tx, parentId, vid);
    await updateIn(tx, platform.config.storeTimezone, current, body);
    await emitProductUpdated(tx, vid, parentId);
    return wireOf(platform, tx, (await repo.findById(tx, vid))!);
  });
}

export async function deleteVariation(
  platform: Platform,
  parentId: number,
  vid: number,
  force: boolean,
): Promise<Wire> {
  return write(platform, async (tx) => deleteIn(platform, tx, await getVariationOf(tx, parentId, vid), force));
}

// ---- batch -------------------------------------------------------------------------------------------------

export interface BatchBody {
  create?: ProductBody[];
  update?: (ProductBody & { id: number })[];
  delete?: number[];
}

const itemError = batchItemError;

function checkBatchSize(body: BatchBody): void {
  const total = (body.create?.length ?? 0) + (body.update?.length ?? 0) + (body.delete?.length ?? 0);
  if (total > BATCH_LIMIT) {
    throw StoreErrors.tooManyItems(`Unable to accept more than ${BATCH_LIMIT} items for this request.`);
  }
}

/**
 * A variable product's variations: create, update and delete in ONE transaction, like products/batch (the route's
 * `tx`, see inRouteTransaction).
 */
export async function batchVariations(
  platform: Platform,
  tx: Db,
  parentId: number,
  body: BatchBody,
): Promise<Record<string, Wire[]>> {
  checkBatchSize(body);
  const tz = platform.config.storeTimezone;
  return inRouteTransaction(async () => {
    const parent = await getParent(tx, parentId);
    const ids: Record<'create' | 'update', number[]> = { create: [], update: [] };
    const deleted: Wire[] = [];
    for (const [i, item] of (body.create ?? []).entries()) {
      try {
        ids.create.push(await createIn(tx, tz, item, await variableParent(tx, parentId)));
      } catch (err) {
        throw itemError(err, 'create', i);
      }
    }
    for (const [i, item] of (body.update ?? []).entries()) {
      try {
        await updateIn(tx, tz, await getVariationOf(tx, parent.id, item.id), item);
        ids.update.push(item.id);
      } catch (err) {
        throw itemError(err, 'update', i);
      }
    }
    for (const [i, id] of (body.delete ?? []).entries()) {
      try {
        deleted.push(await deleteIn(platform, tx, await getVariationOf(tx, parent.id, id), true));
      } catch (err) {
        throw itemError(err, 'delete', i);
      }
    }
    const read = (list: number[]) => readWires(platform, tx, list, variationWire);
    const out: Record<string, Wire[]> = {};
    if (body.create) out.create = await read(ids.create);
    if (body.update) out.update = await read(ids.update);
    if (body.delete) out.delete = deleted;
    return out;
  });
}

/** A batch's answer: the records it wrote, read back in order (sequentially: one transaction, one connection). */
async function readWires(
  platform: Platform,
  tx: Db,
  ids: number[],
  wire: (r: ProductRecord, ctx: Awaited<ReturnType<typeof context>>) => Wire,
): Promise<Wire[]> {
  const recs: ProductRecord[] = [];
  for (const id of ids) {
    const r = await repo.findById(tx, id);
    if (r) recs.push(r);
  }
  const ctx = await context(platform, tx, recs);
  return recs.map((r) => wire(r, ctx));
}

/**
 * Create, update and delete in ONE transaction (the route's `tx`, see inRouteTransaction): any bad item → the whole
 * batch fails, nothing is written.
 */
export async function batch(platform: Platform, tx: Db, body: BatchBody): Promise<Record<string, Wire[]>> {
  checkBatchSize(body);
  const tz = platform.config.storeTimezone;
  return inRouteTransaction(async () => {
    const created: number[] = [];
    const updated: number[] = [];
    const deleted: Wire[] = [];
    for (const [i, item] of (body.create ?? []).entries()) {
      try {
        created.push(await createIn(tx, tz, item, null));
      } catch (err) {
        throw itemError(err, 'create', i);
      }
    }
    for (const [i, item] of (body.update ?? []).entries()) {
      try {
        const current = await getParent(tx, item.id);
        await updateIn(tx, tz, current, item);
        updated.push(item.id);
      } catch (err) {
        throw itemError(err, 'update', i);
      }
    }
    for (const [i, id] of (body.delete ?? []).entries()) {
      try {
        deleted.push(await deleteIn(platform, tx, await getParent(tx, id), true));
      } catch (err) {
        throw itemError(err, 'delete', i);
      }
    }
    const read = (list: number[]) => readWires(platform, tx, list, productWire);
    const out: Record<string, Wire[]> = {};
    if (body.create) out.create = await read(created);
    if (body.update) out.update = await read(updated);
    if (body.delete) out.delete = deleted;
    return out;
  });
}
