import { stockAfter, type Stock } from '../../store/index.js';
import type { Notes, Subject } from './report.js';

/**
 * WooCommerce's stock post meta of a product or variation → Rova's stock fields: `_manage_stock` (yes/no), `_stock`
 * (a number, often "5.000000"; WooCommerce reads it with wc_stock_amount, an integer), `_backorders`
 * (no/notify/yes), `_stock_status`; the status is derived from them as WooCommerce does (store/stock.ts).
 */
export function mapStock(
  meta: Map<string, string>,
  stockStatus: Stock['stockStatus'],
  variable: boolean,
  at: Subject,
  notes: Notes,
): Stock {
  const manageStock = meta.get('_manage_stock') === 'yes';
  const rawQty = (meta.get('_stock') ?? '').trim();
  let stockQuantity: number | null = null;
  if (rawQty !== '') {
    const n = Number(rawQty);
    if (Number.isFinite(n) && Math.abs(n) <= 2_147_483_647) stockQuantity = Math.trunc(n);
    else if (manageStock)
      notes.warn(
        { ...at, key: '_stock' },
        'unreadable',
        `stock quantity "${rawQty}" is not a number, imported as none`,
      );
  }
  const rawBackorders = meta.get('_backorders') ?? 'no';
  const backorders = rawBackorders === 'notify' || rawBackorders === 'yes' ? rawBackorders : 'no';
  if (rawBackorders !== backorders)
    notes.warn({ ...at, key: '_backorders' }, 'unknown', `backorders "${rawBackorders}" is not known, imported as no`);
  return stockAfter(
    { manageStock: false, stockQuantity: null, backorders: 'no', stockStatus },
    { manageStock, stockQuantity, backorders },
    variable,
  );
}

/** A mapped record with its stock fields from the same post's meta. */
export function withStock<T extends { stockStatus: string }>(
  row: T,
  meta: Map<string, string>,
  variable: boolean,
  at: Subject,
  notes: Notes,
): T & Omit<Stock, 'stockStatus'> {
  const s = mapStock(meta, row.stockStatus, variable, at, notes);
  return {
    ...row,
    manageStock: s.manageStock,
    stockQuantity: s.stockQuantity,
    backorders: s.backorders,
    stockStatus: s.stockStatus as T['stockStatus'],
  };
}
