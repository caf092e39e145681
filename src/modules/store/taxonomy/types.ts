import type { Image } from '../types.js';

/** Product categories, tags and global attributes with their terms (WooCommerce taxonomies). */

export type Taxonomy = 'product_cat' | 'product_tag' | 'attribute';

/** Where a term lives: slugs are unique per scope (a taxonomy, or one attribute's terms). */
export interface TermScope {
  taxonomy: Taxonomy;
  attributeId: number | null;
}

export interface TermRecord {
  id: number;
  taxonomy: Taxonomy;
  attributeId: number | null;
  parentId: number | null;
  name: string;
  slug: string;
  description: string;
  display: string;
  image: Image | null;
  menuOrder: number;
  /** Published products carrying the term. */
  count: number;
}

export interface TermPatch {
  name?: string;
  slug?: string;
  parentId?: number | null;
  description?: string;
  display?: string;
  image?: Image | null;
  menuOrder?: number;
}

export interface AttributeRecord {
  id: number;
  name: string;
  slug: string;
  type: string;
  orderBy: string;
  hasArchives: boolean;
}

export type AttributePatch = Partial<Omit<AttributeRecord, 'id'>>;

export type TermOrderBy = 'id' | 'include' | 'name' | 'slug' | 'description' | 'count';

export interface TermListQuery {
  search?: string;
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  parent?: number;
  product?: number;
  hideEmpty: boolean;
  orderby: TermOrderBy;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}
