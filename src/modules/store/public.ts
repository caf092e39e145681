import type { ProductRecord } from './types.js';

type PublicFacts = Pick<ProductRecord, 'status' | 'password' | 'type'>;

/** A product is public when published and not password-protected. */
export function isPublicProduct(p: PublicFacts): boolean {
  return p.type !== 'variation' && p.status === 'publish' && p.password === '';
}

/**
 * Public-ness of any catalogue record: a product as above; a variation only when it is published (not
 * `private` = disabled), not password-protected, and its parent is a public product.
 */
export function isPublicRecord(r: PublicFacts, parent: PublicFacts | null | undefined): boolean {
  if (r.type !== 'variation') return isPublicProduct(r);
  if (r.status !== 'publish' || r.password !== '') return false;
  return !!parent && isPublicProduct(parent);
}

/**
 * Whether a variation counts for its variable product's price, range and on_sale: when it is public in
 * itself (published, not disabled, no password). Same rule in SQL (repo.ts orderby price).
 */
export function pricesParent(v: Pick<ProductRecord, 'status' | 'password'>): boolean {
  return v.status === 'publish' && v.password === '';
}
