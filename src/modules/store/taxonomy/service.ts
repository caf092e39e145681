import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { invalidParam, missingParam } from '../../../platform/http/errors.js';
import { batchItemError, StoreErrors } from '../errors.js';
import { dedupeSlug, slugify } from '../slug.js';
import type { Image } from '../types.js';
import * as repo from './repo.js';
import type { AttributePatch, AttributeRecord, TermListQuery, TermPatch, TermRecord, TermScope } from './types.js';

/** Rules of categories, tags, global attributes and attribute terms (WooCommerce shapes and error codes). */

export const CATEGORIES: TermScope = { taxonomy: 'product_cat', attributeId: null };
export const TAGS: TermScope = { taxonomy: 'product_tag', attributeId: null };
export const attributeTerms = (attributeId: number): TermScope => ({ taxonomy: 'attribute', attributeId });
export const TAXONOMY_BATCH_LIMIT = 100;

export type Body = Record<string, unknown>;
export type Wire = Record<string, unknown>;

const termNotFound = () => StoreErrors.termInvalid('Resource does not exist.');
const attributeNotFound = () => StoreErrors.attributeInvalid('Resource does not exist.');
const noTrash = () => StoreErrors.trashNotSupported('Resource does not support trashing. Set force=true to delete.');
const invalid = (field: string, why: string) => invalidParam(field, why);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function termWire(t: TermRecord): Wire {
  const base = { id: t.id, name: t.name, slug: t.slug };
  if (t.taxonomy === 'product_cat') {
    return {
      ...base,
      parent: t.parentId ?? 0,
      description: t.description,
      display: t.display,
      image: t.image,
      menu_order: t.menuOrder,
      count: t.count,
    };
  }
  if (t.taxonomy === 'product_tag') return { ...base, description: t.description, count: t.count };
  return { ...base, description: t.description, menu_order: t.menuOrder, count: t.count };
}

export function attributeWire(a: AttributeRecord): Wire {
  return {
    id: a.id,
    name: a.name,
    slug: `pa_${a.slug}`,
    type: a.type,
    order_by: a.orderBy,
    has_archives: a.hasArchives,
  };
}

/** Products show term names: any taxonomy change reaches every node's catalogue view. */
async function write<T>(platform: Platform, fn: (tx: Db) => Promise<T>): Promise<T> {
  const out = await platform.transaction(fn);
  await platform.bus.publish('store.catalogue', 'terms');
  return out;
}

// ---- terms -----------------------------------------------------------------------------------------------------

async function getTermIn(db: Db, scope: TermScope, id: number): Promise<TermRecord> {
  if (scope.attributeId !== null && !(await repo.findAttribute(db, scope.attributeId))) throw attributeNotFound();
  const t = await repo.findTerm(db, scope, id);
  if (!t) throw termNotFound();
  return t;
}

export async function listTerms(
  platform: Platform,
  scope: TermScope,
  q: TermListQuery,
): Promise<{ items: Wire[]; total: number }> {
  if (scope.attributeId !== null && !(await repo.findAttribute(platform.db, scope.attributeId)))
    throw attributeNotFound();
  const r = await repo.listTerms(platform.db, scope, q);
  return { items: r.items.map(termWire), total: r.total };
}

export async function getTerm(platform: Platform, scope: TermScope, id: number): Promise<Wire> {
  return termWire(await getTermIn(platform.db, scope, id));
}

function image(v: unknown): Image | null {
  if (v === null || typeof v !== 'object') return null;
  const x = v as Record<string, unknown>;
  return { id: Number(x.id ?? 0), src: str(x.src) ?? '', name: str(x.name) ?? '', alt: str(x.alt) ?? '' };
}

async function termPatch(db: Db, scope: TermScope, body: Body, current: TermRecord | null): Promise<TermPatch> {
  const p: TermPatch = {};
  if (body.name !== undefined) {
    const name = (str(body.name) ?? '').trim();
    if (name === '') throw invalid('name', 'name must not be empty');
    p.name = name;
  }
  const wanted = body.slug !== undefined ? slugify(str(body.slug) ?? '') : current ? '' : slugify(p.name ?? '');
  if (wanted !== '' && wanted !== current?.slug) {
    const owner = await repo.termSlugOwner(db, scope, wanted);
    if (owner !== null) {
      if (body.slug !== undefined)
        throw StoreErrors.duplicateTermSlug(`The slug "${wanted}" is already in use by another term.`, {
          resource_id: owner,
        });
      if (!current)
        throw StoreErrors.termExists('A term with the name provided already exists.', {
          resource_id: owner,
          term_id: owner,
        });
    }
    p.slug = wanted;
  } else if (!current) {
    p.slug = dedupeSlug('term', await repo.termSlugsLike(db, scope, 'term'));
  }
  if (body.parent !== undefined && scope.taxonomy === 'product_cat') {
    const parent = Number(body.parent);
    if (parent === 0) p.parentId = null;
    else {
      if (!(await repo.findTerm(db, scope, parent)))
        throw StoreErrors.parentTermInvalid(`Parent category ${parent} does not exist.`, {
          params: { parent: 'unknown category' },
        });
      if (current && (await repo.termSubtree(db, current.id)).has(parent))
        throw invalid('parent', 'a category cannot be placed under itself or one of its subcategories');
      p.parentId = parent;
    }
  }
  if (body.description !== undefined) p.description = str(body.description) ?? '';
  if (body.display !== undefined && scope.taxonomy === 'product_cat') p.display = str(body.display);
  if (body.image !== undefined && scope.taxonomy === 'product_cat') p.image = image(body.image);
  if (body.menu_order !== undefined && scope.taxonomy !== 'product_tag') p.menuOrder = Number(body.menu_order);
  return p;
}

async function createTermIn(db: Db, scope: TermScope, body: Body): Promise<number> {
  if (scope.attributeId !== null && !(await repo.findAttribute(db, scope.attributeId))) throw attributeNotFound();
  if (typeof body.name !== 'string' || body.name.trim() === '') throw missingParam('name');
  const p = await termPatch(db, scope, body, null);
  return repo.insertTerm(db, scope, { ...p, name: p.name!, slug: p.slug! });
}

async function updateTermIn(db: Db, scope: TermScope, id: number, body: Body): Promise<void> {
  const current = await getTermIn(db, scope, id);
  await repo.updateTerm(db, id, await termPatch(db, scope, body, current));
}

export async function createTerm(platform: Platform, scope: TermScope, body: Body): Promise<Wire> {
  return write(platform, async (tx) =>
    termWire((await repo.findTerm(tx, scope, await createTermIn(tx, scope, body)))!),
  );
}

export async function updateTerm(platform: Platform, scope: TermScope, id: number, body: Body): Promise<Wire> {
  return write(platform, async (tx) => {
    await updateTermIn(tx, scope, id, body);
    return termWire((await repo.findTerm(tx, scope, id))!);
  });
}

async function deleteTermIn(db: Db, scope: TermScope, id: number): Promise<Wire> {
  const t = await getTermIn(db, scope, id);
  await repo.deleteTerm(db, id);
  return termWire(t);
}

export async function deleteTerm(platform: Platform, scope: TermScope, id: number, force: boolean): Promise<Wire> {
  if (!force) throw noTrash();
  return write(platform, (tx) => deleteTermIn(tx, scope, id));
}

// ---- attributes ------------------------------------------------------------------------------------------------

/** WooCommerce attribute slugs: sanitised, stored without `pa_`, at most 28 characters. */
function attributeSlug(raw: string): string {
  return slugify(raw.replace(/^pa_/, '')).slice(0, 28).replace(/-+$/, '');
}

async function attributePatch(db: Db, body: Body, current: AttributeRecord | null): Promise<AttributePatch> {
  const p: AttributePatch = {};
  if (body.name !== undefined) {
    const name = (str(body.name) ?? '').trim();
    if (name === '') throw invalid('name', 'name must not be empty');
    p.name = name;
  }
  const wanted =
    body.slug !== undefined ? attributeSlug(str(body.slug) ?? '') : current ? '' : attributeSlug(p.name ?? '');
  if (body.slug !== undefined || !current) {
    if (wanted === '') throw invalid('slug', 'slug must contain letters or digits');
    const owner = await repo.attributeSlugOwner(db, wanted);
    if (owner !== null && owner !== current?.id) {
      throw StoreErrors.cannotCreate(`Slug "${wanted}" is already in use. Change it, please.`, {
        params: { slug: 'already in use' },
      });
    }
    p.slug = wanted;
  }
  if (body.type !== undefined) p.type = str(body.type);
  if (body.order_by !== undefined) p.orderBy = str(body.order_by);
  if (body.has_archives !== undefined) p.hasArchives = body.has_archives === true;
  return p;
}

async function getAttributeIn(db: Db, id: number): Promise<AttributeRecord> {
  const a = await repo.findAttribute(db, id);
  if (!a) throw attributeNotFound();
  return a;
}

export async function listAttributes(platform: Platform): Promise<Wire[]> {
  return (await repo.listAttributes(platform.db)).map(attributeWire);
}

export async function getAttribute(platform: Platform, id: number): Promise<Wire> {
  return attributeWire(await getAttributeIn(platform.db, id));
}

async function createAttributeIn(db: Db, body: Body): Promise<number> {
  if (typeof body.name !== 'string' || body.name.trim() === '') throw missingParam('name');
  const p = await attributePatch(db, body, null);
  return repo.insertAttribute(db, { ...p, name: p.name!, slug: p.slug! });
}

async function updateAttributeIn(db: Db, id: number, body: Body): Promise<void> {
  const current = await getAttributeIn(db, id);
  const p = await attributePatch(db, body, current);
  await repo.updateAttribute(db, id, p);
  if (p.name !== undefined && p.name !== current.name) await repo.renameProductAttribute(db, id, p.name);
}

async function deleteAttributeIn(db: Db, id: number): Promise<Wire> {
  const a = await getAttributeIn(db, id);
  await repo.removeProductAttribute(db, id);
  await repo.deleteAttribute(db, id);
  return attributeWire(a);
}

export async function createAttribute(platform: Platform, body: Body): Promise<Wire> {
  return write(platform, async (tx) => attributeWire(await getAttributeIn(tx, await createAttributeIn(tx, body))));
}

export async function updateAttribute(platform: Platform, id: number, body: Body): Promise<Wire> {
  return write(platform, async (tx) => {
    await updateAttributeIn(tx, id, body);
    return attributeWire(await getAttributeIn(tx, id));
  });
}

export async function deleteAttribute(platform: Platform, id: number, force: boolean): Promise<Wire> {
  if (!force) throw noTrash();
  return write(platform, (tx) => deleteAttributeIn(tx, id));
}

// ---- batch -----------------------------------------------------------------------------------------------------

export interface TaxonomyBatch {
  create?: Body[];
  update?: (Body & { id: number })[];
  delete?: number[];
}

interface BatchOps {
  create(tx: Db, body: Body): Promise<number>;
  update(tx: Db, id: number, body: Body): Promise<void>;
  remove(tx: Db, id: number): Promise<Wire>;
  read(tx: Db, id: number): Promise<Wire>;
}

const itemError = batchItemError;

/** All items in one transaction: one bad item fails the batch and nothing is written (like products/batch). */
async function runBatch(platform: Platform, body: TaxonomyBatch, ops: BatchOps): Promise<Record<string, Wire[]>> {
  const total = (body.create?.length ?? 0) + (body.update?.length ?? 0) + (body.delete?.length ?? 0);
  if (total > TAXONOMY_BATCH_LIMIT) {
    throw StoreErrors.tooManyItems(`Unable to accept more than ${TAXONOMY_BATCH_LIMIT} items for this request.`);
  }
  return write(platform, async (tx) => {
    const out: Record<string, Wire[]> = {};
    const step = async <I>(name: string, items: I[] | undefined, fn: (item: I) => Promise<Wire>) => {
      if (!items) return;
      out[name] = [];
      for (const [i, item] of items.entries()) {
        try {
          out[name].push(await fn(item));
        } catch (err) {
          throw itemError(err, name, i);
        }
      }
    };
    await step('create', body.create, async (b) => ops.read(tx, await ops.create(tx, b)));
    await step('update', body.update, async (b) => {
      await ops.update(tx, b.id, b);
      return ops.read(tx, b.id);
    });
    await step('delete', body.delete, (id) => ops.remove(tx, id));
    return out;
  });
}

export function batchTerms(platform: Platform, scope: TermScope, body: TaxonomyBatch): Promise<Record<string, Wire[]>> {
  return runBatch(platform, body, {
    create: (tx, b) => createTermIn(tx, scope, b),
    update: (tx, id, b) => updateTermIn(tx, scope, id, b),
    remove: (tx, id) => deleteTermIn(tx, scope, id),
    read: async (tx, id) => termWire(await getTermIn(tx, scope, id)),
  });
}

export function batchAttributes(platform: Platform, body: TaxonomyBatch): Promise<Record<string, Wire[]>> {
  return runBatch(platform, body, {
    create: (tx, b) => createAttributeIn(tx, b),
    update: (tx, id, b) => updateAttributeIn(tx, id, b),
    remove: (tx, id) => deleteAttributeIn(tx, id),
    read: async (tx, id) => attributeWire(await getAttributeIn(tx, id)),
  });
}
