import type { ProductPatch, ProductRecord } from './types.js';

/** WooCommerce's stock fields of one catalogue record. */
export type Stock = Pick<ProductRecord, 'manageStock' | 'stockQuantity' | 'backorders' | 'stockStatus'>;

export const NO_STOCK_MANAGEMENT: Stock = {
  manageStock: false,
  stockQuantity: null,
  backorders: 'no',
  stockStatus: 'instock',
};

/** Whether a write names any stock field (only then are the rules applied again). */
export function touchesStock(p: ProductPatch): boolean {
  return (
    p.manageStock !== undefined ||
    p.stockQuantity !== undefined ||
    p.backorders !== undefined ||
    p.stockStatus !== undefined
  );
}

/**
 * The stock fields after a write, by WooCommerce's rules (REST v3 prepare_object_for_database, then
 * WC_Product::validate_props; woocommerce_manage_stock on, notify-no-stock amount 0): without stock management
 * there is no quantity and no backorders and stock_status is as given; with it, a quantity above 0 is `instock`,
 * else `onbackorder` when backorders are allowed, else `outofstock` (a sent stock_status is ignored). A variable
 * product's status is its own (WooCommerce takes it from the variations, which Rova does not sync).
 */
export function stockAfter(current: Stock, p: ProductPatch, variable: boolean): Stock {
  const manageStock = p.manageStock ?? current.manageStock;
  const given = p.stockStatus ?? current.stockStatus;
  if (!manageStock) return { manageStock, stockQuantity: null, backorders: 'no', stockStatus: given };
  const stockQuantity = p.stockQuantity !== undefined ? p.stockQuantity : current.stockQuantity;
  const backorders = p.backorders ?? current.backorders;
  if (variable) return { manageStock, stockQuantity, backorders, stockStatus: given };
  const stockStatus = (stockQuantity ?? 0) > 0 ? 'instock' : backorders !== 'no' ? 'onbackorder' : 'outofstock';
  return { manageStock, stockQuantity, backorders, stockStatus };
}

/** The wc/v3 response fields, as WooCommerce's REST API v3 shapes them. */
export function stockWire(s: Stock): Record<string, unknown> {
  const allowed = s.backorders !== 'no';
  return {
    manage_stock: s.manageStock,
    stock_quantity: s.manageStock ? s.stockQuantity : null,
    backorders: s.backorders,
    backorders_allowed: allowed,
    // WC_Product::is_on_backorder()
    backordered: s.stockStatus === 'onbackorder' || (s.manageStock && allowed && (s.stockQuantity ?? 0) < 0),
    stock_status: s.stockStatus,
  };
}
