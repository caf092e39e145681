/** Domain records of the store catalogue (products and variations share one shape). */
export const PRODUCT_TYPES = ['simple', 'variable'] as const;
export const STATUSES = ['publish', 'draft', 'pending', 'private', 'future', 'trash'] as const;
export const VARIATION_STATUSES = ['publish', 'private'] as const;
export const CATALOG_VISIBILITIES = ['visible', 'catalog', 'search', 'hidden'] as const;
export const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

export type RecordType = 'simple' | 'variable' | 'variation';
export type ProductStatus = (typeof STATUSES)[number];

export interface Category {
  id: number;
  name: string;
  slug: string;
}
export interface Image {
  id: number;
  src: string;
  name: string;
  alt: string;
}
export interface Attribute {
  id: number;
  name: string;
  position?: number;
  visible?: boolean;
  variation?: boolean;
  option?: string;
  options?: string[];
  /** A variation's global-attribute choice: the term's slug when it is known (the permalink's value; never sent). */
  slug?: string;
}

export interface ProductRecord {
  id: number;
  parentId: number | null;
  type: RecordType;
  name: string;
  slug: string;
  status: ProductStatus;
  password: string;
  sku: string;
  description: string;
  shortDescription: string;
  /** Decimal strings exactly as stored; "" = none. */
  regularPrice: string;
  salePrice: string;
  saleFrom: Date | null;
  saleTo: Date | null;
  catalogVisibility: string;
  stockStatus: string;
  featured: boolean;
  /** Terms of the product_cat and product_tag taxonomies (kept in the link table, shown as WooCommerce does). */
  categories: Category[];
  tags: Category[];
  images: Image[];
  attributes: Attribute[];
  menuOrder: number;
  fixedPrices: Record<string, string>;
  preTrashStatus: string | null;
  dateCreated: Date;
  dateModified: Date;
}

/** The price facts the pricing rules need (a subset of ProductRecord, also held by the catalogue view). */
export type PriceFacts = Pick<ProductRecord, 'regularPrice' | 'salePrice' | 'saleFrom' | 'saleTo' | 'fixedPrices'>;

/** Fields a create/update may set (already validated and normalised). */
export interface ProductPatch {
  name?: string;
  slug?: string;
  type?: RecordType;
  status?: ProductStatus;
  password?: string;
  sku?: string;
  description?: string;
  shortDescription?: string;
  regularPrice?: string;
  salePrice?: string;
  saleFrom?: Date | null;
  saleTo?: Date | null;
  catalogVisibility?: string;
  stockStatus?: string;
  featured?: boolean;
  /** Term ids; written to the link table, not to a column. */
  categoryIds?: number[];
  tagIds?: number[];
  images?: Image[];
  attributes?: Attribute[];
  menuOrder?: number;
  fixedPrices?: Record<string, string>;
}
