import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { readOnlyFields } from '../read-only.js';

/** TypeBox schemas of categories, tags, attributes and attribute terms (WooCommerce v3 shapes). */

const MAX_INT = Number.MAX_SAFE_INTEGER;
const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_INT, description });
const lit = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const IdList = Type.Union(
  [Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 1000 })],
  {
    description: 'Ids: comma-separated or as a list (include[]=1&include[]=2)',
  },
);

export const TermParams = Type.Object({ id: Id('Term id') });
export const AttributeParams = Type.Object({ id: Id('Attribute id') });
export const AttributeTermsParams = Type.Object({ attribute_id: Id('Attribute id') });
export const AttributeTermParams = Type.Object({ attribute_id: Id('Attribute id'), id: Id('Term id') });
export const ForceQuery = Type.Object({
  force: Type.Optional(Type.Boolean({ default: false, description: 'Required: terms and attributes are not trashed' })),
});
export const ReadQuery = Type.Object({
  context: Type.Optional(lit(['view', 'edit'])),
  _fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

const listBase = {
  context: Type.Optional(lit(['view', 'edit'])),
  _fields: Type.Optional(Type.String({ maxLength: 2000 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  include: Type.Optional(IdList),
  exclude: Type.Optional(IdList),
  order: Type.Optional(lit(['asc', 'desc'])),
  orderby: Type.Optional(lit(['id', 'include', 'name', 'slug', 'description', 'count'])),
  hide_empty: Type.Optional(Type.Boolean({ description: 'Leave out terms no published product carries' })),
  product: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT, description: 'Only terms of this product' })),
  slug: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated slugs' })),
};
export const TermListQuery = Type.Object(listBase);
export const CategoryListQuery = Type.Object({
  ...listBase,
  parent: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT, description: '0: top-level categories' })),
});

const Image = Type.Object(
  {
    id: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT })),
    src: Type.Optional(Type.String({ maxLength: 2000 })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    alt: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
const ImageOut = Type.Object({ id: Type.Integer(), src: Type.String(), name: Type.String(), alt: Type.String() });

const termOut = {
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  count: Type.Integer(),
};
export const CategoryOut = Type.Object({
  ...termOut,
  parent: Type.Integer(),
  display: Type.String(),
  image: Type.Union([ImageOut, Type.Null()]),
  menu_order: Type.Integer(),
});
export const TagOut = Type.Object(termOut);
export const AttributeTermOut = Type.Object({ ...termOut, menu_order: Type.Integer() });
export const AttributeOut = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String({ description: 'pa_<slug>' }),
  type: Type.String(),
  order_by: Type.String(),
  has_archives: Type.Boolean(),
});

const termIn = {
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Required when creating' })),
  slug: Type.Optional(Type.String({ maxLength: 200 })),
  description: Type.Optional(Type.String({ maxLength: 20_000 })),
};
/**
 * A write body: the writable fields, plus the response's other fields (`id`, `count`, `_links`) as read-only —
 * accepted and ignored, so a client can send back what it read, as with WooCommerce; anything else is a 400.
 */
const writeBody = <T extends TProperties>(out: TObject, writable: T) =>
  Type.Object({ ...readOnlyFields(out, writable), ...writable }, { additionalProperties: false });
export const CategoryIn = writeBody(CategoryOut, {
  ...termIn,
  parent: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT })),
  display: Type.Optional(lit(['default', 'products', 'subcategories', 'both'])),
  image: Type.Optional(Type.Union([Image, Type.Null()])),
  menu_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
});
export const TagIn = writeBody(TagOut, termIn);
export const AttributeTermIn = writeBody(AttributeTermOut, {
  ...termIn,
  menu_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
});
export const AttributeIn = writeBody(AttributeOut, {
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Required when creating' })),
  slug: Type.Optional(Type.String({ maxLength: 200, description: 'Stored without pa_, at most 28 characters' })),
  type: Type.Optional(lit(['select'])),
  order_by: Type.Optional(lit(['menu_order', 'name', 'name_num', 'id'])),
  has_archives: Type.Optional(Type.Boolean()),
});

export function batchIn(item: TObject) {
  return Type.Object(
    {
      create: Type.Optional(Type.Array(item)),
      update: Type.Optional(Type.Array(Type.Object({ ...item.properties, id: Id() }, { additionalProperties: false }))),
      delete: Type.Optional(Type.Array(Id())),
    },
    { additionalProperties: false },
  );
}

export function batchOut(item: TObject) {
  return Type.Object({
    create: Type.Optional(Type.Array(item)),
    update: Type.Optional(Type.Array(item)),
    delete: Type.Optional(Type.Array(item)),
  });
}
