// The wc/v3 error catalogue: WooCommerce's codes for the catalogue routes (products, variations, categories, tags,
// attributes and their terms). Routes and services throw these entries (or the shared HttpErrors); they never build
// an HttpError themselves (test/ops/error-catalogue.test.ts keeps it so). The namespace's defaults for the statuses
// without a code of their own are declared in module.ts.
import { errorKind, HttpError, type ErrorCatalogue } from '../../platform/http/errors.js';

export const StoreErrors = {
  productInvalidId: errorKind(
    404,
    'woocommerce_rest_product_invalid_id',
    'The product id does not exist (or is a variation asked for as a product).',
  ),
  variationInvalidId: errorKind(
    404,
    'woocommerce_rest_product_variation_invalid_id',
    'The variation id does not exist or is not a variation of that product.',
  ),
  variationInvalidParent: errorKind(
    400,
    'woocommerce_rest_product_variation_invalid_parent',
    'Variations were asked of a product that is not a variable product.',
  ),
  invalidSku: errorKind(
    400,
    'product_invalid_sku',
    'The SKU (or, on a concurrent write, the slug) is already used by another product; `params.sku` names the owner.',
  ),
  alreadyTrashed: errorKind(410, 'woocommerce_rest_already_trashed', 'The product is already in the trash.'),
  trashNotSupported: errorKind(
    501,
    'woocommerce_rest_trash_not_supported',
    'A variation, term or attribute was deleted without force=true: they cannot be trashed.',
  ),
  tooManyItems: errorKind(
    413,
    'woocommerce_rest_request_entity_too_large',
    'A batch request carries more than 100 create, update and delete items together.',
  ),
  termInvalid: errorKind(
    404,
    'woocommerce_rest_term_invalid',
    'The category, tag or attribute term id does not exist.',
  ),
  parentTermInvalid: errorKind(
    400,
    'woocommerce_rest_term_invalid',
    'The `parent` category sent does not exist; `params.parent` says so.',
  ),
  attributeInvalid: errorKind(404, 'woocommerce_rest_attribute_invalid', 'The global attribute id does not exist.'),
  termExists: errorKind(
    400,
    'term_exists',
    'A term with this name already exists in the taxonomy; `resource_id` and `term_id` name it.',
  ),
  duplicateTermSlug: errorKind(
    400,
    'duplicate_term_slug',
    'The slug sent is already used by another term of the taxonomy; `resource_id` names it.',
  ),
  cannotCreate: errorKind(
    400,
    'woocommerce_rest_cannot_create',
    'The global attribute slug sent is already used by another attribute.',
  ),
} as const;

/**
 * A batch item's error: the item's error with its place in the batch (`batch.operation`, `batch.index`), and
 * "Nothing was written." (the batch is one transaction). An item's 404 is the batch's 400: the batch route exists.
 */
export function batchItemError(err: unknown, op: string, index: number): unknown {
  if (!(err instanceof HttpError)) return err;
  return new HttpError(
    err.status === 404 ? 400 : err.status,
    err.code,
    `${op}[${index}]: ${err.message} Nothing was written.`,
    { ...(err.data ?? {}), batch: { operation: op, index } },
  );
}

export const storeErrorCatalogue: ErrorCatalogue = { namespace: 'wc/v3', kinds: StoreErrors };
