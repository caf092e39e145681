import { Type, type TSchema } from '@sinclair/typebox';
import { readOnlyFields } from './read-only.js';

/** TypeBox schemas of the wc/v3 catalogue routes (inputs are checked strictly, without type coercion; write bodies are closed). */

const lit = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const Nullable = (t: TSchema) => Type.Union([t, Type.Null()]);

/** Ids and counters stay within exact JS integers (and PostgreSQL bigint): larger values are a 400, not a 500. */
const MAX_INT = Number.MAX_SAFE_INTEGER;
const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_INT, description });
const RefId = Type.Integer({ minimum: 0, maximum: MAX_INT });

export const DECIMAL_PATTERN = '^(\\d{1,15}(\\.\\d{1,10})?)?$';
const Price = Type.String({ pattern: DECIMAL_PATTERN, description: 'Decimal string, "" = none' });
const DateIn = Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
  description: 'ISO 8601 date-time (store time zone unless an offset is given), null or "" clears',
});
const DateGmtIn = Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
  description: 'ISO 8601 date-time in UTC',
});

const CategoryIn = Type.Object(
  {
    id: Id(),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    slug: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false, description: 'A term by id (name and slug are ignored)' },
);
const ImageIn = Type.Object(
  {
    id: Type.Optional(RefId),
    src: Type.Optional(Type.String({ maxLength: 2000 })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    alt: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
const AttributeIn = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_INT,
        description: 'Global attribute id (its name is used), or 0 for a custom attribute named by name',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    visible: Type.Optional(Type.Boolean()),
    variation: Type.Optional(Type.Boolean()),
    option: Type.Optional(Type.String({ maxLength: 200 })),
    options: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
const FixedPrices = Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.String({ pattern: DECIMAL_PATTERN }), {
  description: 'Per-currency fixed prices, e.g. {"EUR":"149.99"}; "" removes a currency',
  additionalProperties: false,
});

const common = {
  name: Type.Optional(Type.String({ maxLength: 400 })),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  sku: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 100_000 })),
  short_description: Type.Optional(Type.String({ maxLength: 20_000 })),
  regular_price: Type.Optional(Price),
  sale_price: Type.Optional(Price),
  date_on_sale_from: Type.Optional(DateIn),
  date_on_sale_from_gmt: Type.Optional(DateGmtIn),
  date_on_sale_to: Type.Optional(DateIn),
  date_on_sale_to_gmt: Type.Optional(DateGmtIn),
  stock_status: Type.Optional(
    lit(
      ['instock', 'outofstock', 'onbackorder'],
      'Ignored while manage_stock is on (derived from stock_quantity and backorders, as WooCommerce does)',
    ),
  ),
  manage_stock: Type.Optional(Type.Boolean({ description: 'Stock management at product level' })),
  // null as WooCommerce answers it for unmanaged stock: clients send the object they read back
  stock_quantity: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: -2_147_483_648,
        maximum: 2_147_483_647,
        description: 'Stock quantity (kept only while manage_stock is on; null = none)',
      }),
    ),
  ),
  backorders: Type.Optional(
    lit(['no', 'notify', 'yes'], 'If managing stock, whether backorders are allowed (no while manage_stock is off)'),
  ),
  menu_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  rova_fixed_prices: Type.Optional(FixedPrices),
};

const IdList = Type.Union(
  [Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 1000 })],
  {
    description: 'Ids: comma-separated (include=1,2) or as a list (include[]=1&include[]=2)',
  },
);
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));
const QueryDate = (description: string) =>
  Type.Optional(
    Type.String({
      maxLength: 40,
      description: `${description} (ISO 8601; store time zone unless an offset is given or dates_are_gmt)`,
    }),
  );
const QueryPrice = (description: string) =>
  Type.Optional(Type.String({ pattern: '^\\d{1,15}(\\.\\d{1,10})?$', description }));
const Currency = Type.Optional(
  Type.String({ maxLength: 20, description: 'Price in this enabled currency (rova-fx); otherwise base' }),
);

const ORDERBY = [
  'date',
  'id',
  'include',
  'title',
  'slug',
  'price',
  'popularity',
  'rating',
  'modified',
  'menu_order',
] as const;
const Context = Type.Optional(lit(['view', 'edit'], 'Accepted for WooCommerce clients; both give the same fields'));
const Fields = Type.Optional(
  Type.String({ maxLength: 2000, description: 'Only these fields of each object, comma-separated (a.b for nested)' }),
);

/** Filters shared by products and variations (WooCommerce names). */
const listCommon = {
  context: Context,
  _fields: Fields,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_INT, description: 'Skip this many items (instead of page)' }),
  ),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  sku: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated SKUs' })),
  slug: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated slugs' })),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  parent: Type.Optional(IdList),
  parent_exclude: Type.Optional(IdList),
  on_sale: Flag('Only products on sale now (true) or not on sale (false)'),
  min_price: QueryPrice('Current price at least this (base currency)'),
  max_price: QueryPrice('Current price at most this (base currency)'),
  stock_status: Type.Optional(lit(['instock', 'outofstock', 'onbackorder'])),
  after: QueryDate('Created after'),
  before: QueryDate('Created before'),
  modified_after: QueryDate('Modified after'),
  modified_before: QueryDate('Modified before'),
  dates_are_gmt: Flag('after/before/modified_* are in UTC'),
  orderby: Type.Optional(
    lit(ORDERBY, 'popularity and rating: Rova records no sales or reviews, so they order like date'),
  ),
  order: Type.Optional(lit(['asc', 'desc'])),
  currency: Currency,
};

export const ListQuery = Type.Object({
  ...listCommon,
  status: Type.Optional(lit(['any', 'publish', 'draft', 'pending', 'private', 'future', 'trash'])),
  type: Type.Optional(
    lit(['simple', 'variable'], 'Rova has simple and variable products only (no grouped or external)'),
  ),
  featured: Flag('Only featured (true) or not featured (false) products'),
  category: Type.Optional(Type.String({ maxLength: 2000, description: 'Category ids, comma-separated (any of them)' })),
  tag: Type.Optional(Type.String({ maxLength: 2000, description: 'Tag ids, comma-separated (any of them)' })),
});

export const VariationListQuery = Type.Object({
  ...listCommon,
  status: Type.Optional(lit(['any', 'publish', 'private'])),
});

export const ReadQuery = Type.Object({ currency: Currency, context: Context, _fields: Fields });
export const DeleteQuery = Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) });
export const WriteQuery = Type.Object({ _fields: Fields });
export const IdParams = Type.Object({ id: Id('Product id') });
export const VariationParams = Type.Object({ id: Id('Product id'), vid: Id('Variation id') });

const CategoryOut = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });
const ImageOut = Type.Object({ id: Type.Integer(), src: Type.String(), name: Type.String(), alt: Type.String() });
const AttributeOut = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Optional(Type.Integer()),
  visible: Type.Optional(Type.Boolean()),
  variation: Type.Optional(Type.Boolean()),
  option: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.String())),
});

const outCommon = {
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  permalink: Type.String(),
  date_created: Type.String(),
  date_created_gmt: Type.String(),
  date_modified: Type.String(),
  date_modified_gmt: Type.String(),
  type: Type.String(),
  status: Type.String(),
  description: Type.String(),
  short_description: Type.String(),
  sku: Type.String(),
  price: Type.String(),
  regular_price: Type.String(),
  sale_price: Type.String(),
  date_on_sale_from: Nullable(Type.String()),
  date_on_sale_from_gmt: Nullable(Type.String()),
  date_on_sale_to: Nullable(Type.String()),
  date_on_sale_to_gmt: Nullable(Type.String()),
  price_html: Type.String(),
  on_sale: Type.Boolean(),
  purchasable: Type.Boolean(),
  manage_stock: Type.Boolean(),
  stock_quantity: Nullable(Type.Integer()),
  backorders: lit(['no', 'notify', 'yes']),
  backorders_allowed: Type.Boolean(),
  backordered: Type.Boolean(),
  stock_status: lit(['instock', 'outofstock', 'onbackorder']),
  parent_id: Type.Integer(),
  menu_order: Type.Integer(),
  attributes: Type.Array(AttributeOut),
  rova_fixed_prices: Type.Record(Type.String(), Type.String()),
  currency_code: Type.Optional(Type.String()),
};

export const ProductOut = Type.Object({
  ...outCommon,
  password: Type.String(),
  catalog_visibility: Type.String(),
  featured: Type.Boolean(),
  categories: Type.Array(CategoryOut),
  tags: Type.Array(CategoryOut),
  images: Type.Array(ImageOut),
  variations: Type.Array(Type.Integer()),
});

export const VariationOut = Type.Object({ ...outCommon, password: Type.String(), image: Nullable(ImageOut) });

const productWritable = {
  ...common,
  type: Type.Optional(lit(['simple', 'variable'])),
  status: Type.Optional(lit(['publish', 'draft', 'pending', 'private', 'future', 'trash'])),
  catalog_visibility: Type.Optional(lit(['visible', 'catalog', 'search', 'hidden'])),
  featured: Type.Optional(Type.Boolean()),
  categories: Type.Optional(Type.Array(CategoryIn, { maxItems: 100 })),
  tags: Type.Optional(Type.Array(CategoryIn, { maxItems: 100 })),
  images: Type.Optional(Type.Array(ImageIn, { maxItems: 100 })),
  attributes: Type.Optional(Type.Array(AttributeIn, { maxItems: 100 })),
};

/**
 * The writable fields, plus the response's other fields as read-only (accepted and ignored, so a client can PUT
 * back what it read, as with WooCommerce); any other field is a 400 naming it.
 */
export const ProductIn = Type.Object(
  { ...readOnlyFields(ProductOut, productWritable), ...productWritable },
  { additionalProperties: false },
);

const variationWritable = {
  ...common,
  status: Type.Optional(lit(['publish', 'private'], 'private = disabled')),
  image: Type.Optional(Type.Union([ImageIn, Type.Null()])),
  attributes: Type.Optional(Type.Array(AttributeIn, { maxItems: 100 })),
};

export const VariationIn = Type.Object(
  { ...readOnlyFields(VariationOut, variationWritable), ...variationWritable },
  { additionalProperties: false },
);

export const VariationBatchIn = Type.Object(
  {
    create: Type.Optional(Type.Array(VariationIn)),
    update: Type.Optional(
      Type.Array(Type.Object({ ...VariationIn.properties, id: Id() }, { additionalProperties: false })),
    ),
    delete: Type.Optional(Type.Array(Id())),
  },
  { additionalProperties: false },
);

export const BatchIn = Type.Object(
  {
    create: Type.Optional(Type.Array(ProductIn)),
    update: Type.Optional(
      Type.Array(Type.Object({ ...ProductIn.properties, id: Id() }, { additionalProperties: false })),
    ),
    delete: Type.Optional(Type.Array(Id())),
  },
  { additionalProperties: false },
);

export const BatchOut = Type.Object({
  create: Type.Optional(Type.Array(ProductOut)),
  update: Type.Optional(Type.Array(ProductOut)),
  delete: Type.Optional(Type.Array(ProductOut)),
});

export const VariationBatchOut = Type.Object({
  create: Type.Optional(Type.Array(VariationOut)),
  update: Type.Optional(Type.Array(VariationOut)),
  delete: Type.Optional(Type.Array(VariationOut)),
});
