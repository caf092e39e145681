import type { Db } from '../../platform/db/types.js';
import { invalidParam } from '../../platform/http/errors.js';
import * as taxRepo from './taxonomy/repo.js';
import type { ProductPatch } from './types.js';

/** A product's categories, tags and global attributes: checked against the taxonomies, then linked. */

const invalid = (field: string, why: string) => invalidParam(field, why);

/**
 * Refuses unknown category/tag ids (WooCommerce would drop them silently: a typo then loses a category) and
 * unknown global attribute ids; a global attribute takes its name from the attribute, and its options become
 * terms of it when missing (as WooCommerce does).
 */
export async function checkProductTaxonomies(db: Db, patch: ProductPatch, variation: boolean): Promise<void> {
  for (const [field, taxonomy, list] of [
    ['categories', 'product_cat', patch.categoryIds],
    ['tags', 'product_tag', patch.tagIds],
  ] as const) {
    if (!list?.length) continue;
    const known = await taxRepo.existingTermIds(db, taxonomy, list);
    const missing = list.filter((id) => !known.has(id));
    if (missing.length)
      throw invalid(
        field,
        `unknown ${field === 'categories' ? 'category' : 'tag'} id(s): ${missing.join(', ')} (create them under /products/${field} first)`,
      );
  }
  if (!patch.attributes) return;
  const globalIds = [...new Set(patch.attributes.map((a) => a.id).filter((id) => id > 0))];
  const found = new Map((await taxRepo.findAttributes(db, globalIds)).map((a) => [a.id, a]));
  for (const a of patch.attributes) {
    if (a.id > 0) {
      const g = found.get(a.id);
      if (!g) throw invalid('attributes', `unknown attribute id ${a.id} (see /products/attributes)`);
      a.name = g.name;
      const options = variation ? (a.option ? [a.option] : []) : (a.options ?? []);
      await taxRepo.ensureAttributeTerms(
        db,
        a.id,
        options.filter((o) => o.trim() !== ''),
      );
    } else if (a.name.trim() === '') {
      throw invalid('attributes', 'a custom attribute (id 0) needs a name');
    }
  }
}

export async function saveProductTerms(db: Db, productId: number, patch: ProductPatch): Promise<void> {
  if (patch.categoryIds) await taxRepo.setProductTerms(db, productId, 'product_cat', patch.categoryIds);
  if (patch.tagIds) await taxRepo.setProductTerms(db, productId, 'product_tag', patch.tagIds);
}
