import { describe, expect, it } from 'vitest';
import { mapProducts } from '../../src/modules/import/wordpress/map-products.js';
import { Notes } from '../../src/modules/import/wordpress/report.js';
import type { WpPost } from '../../src/modules/import/wordpress/source.js';

// Issue 34.7: WooCommerce's `_manage_stock`, `_stock`, `_backorders` and `_stock_status` post meta → Rova's stock fields.
const post = (id: number, type: string, meta: Record<string, string>, extra: Partial<WpPost> = {}): WpPost => ({
  id,
  author: 1,
  type,
  status: 'publish',
  title: `T${id}`,
  content: '',
  excerpt: '',
  name: `p-${id}`,
  password: '',
  parent: 0,
  menuOrder: 0,
  guid: '',
  dateGmt: '2025-01-02 03:04:05',
  modifiedGmt: '2025-01-03 00:00:00',
  meta: new Map(Object.entries(meta)),
  ...extra,
});

describe('stock post meta', () => {
  it('managed stock keeps its quantity (wc_stock_amount: an integer) and backorders; stock_status as WooCommerce derives it; unmanaged drops them', () => {
    const n = new Notes();
    const products = [
      post(1, 'product', { _manage_stock: 'yes', _stock: '5.000000', _backorders: 'no', _stock_status: 'instock' }),
      post(2, 'product', { _manage_stock: 'yes', _stock: '0', _backorders: 'notify', _stock_status: 'onbackorder' }),
      // WordPress saved a status its own rules would not give: Rova derives it again
      post(3, 'product', { _manage_stock: 'yes', _stock: '-3', _backorders: 'no', _stock_status: 'instock' }),
      post(4, 'product', { _manage_stock: 'no', _stock: '12', _backorders: 'yes', _stock_status: 'outofstock' }),
      post(5, 'product', { _stock_status: 'onbackorder' }),
      post(6, 'product', { _manage_stock: 'yes', _stock: 'many', _backorders: 'sometimes', _stock_status: 'instock' }),
    ];
    const variations = [
      post(
        7,
        'product_variation',
        { _manage_stock: 'yes', _stock: '2', _backorders: 'yes', _stock_status: 'instock' },
        { parent: 8 },
      ),
    ];
    const rows = mapProducts(
      {
        products: [...products, post(8, 'product', { _stock_status: 'instock' })],
        variations,
        links: new Map(),
        terms: [],
        attributes: [],
        attachments: new Map(),
      },
      n,
    );
    const got = Object.fromEntries(
      rows.map((r) => [r.id, [r.manageStock, r.stockQuantity, r.backorders, r.stockStatus]]),
    );
    expect(got).toMatchObject({
      1: [true, 5, 'no', 'instock'],
      2: [true, 0, 'notify', 'onbackorder'],
      3: [true, -3, 'no', 'outofstock'],
      4: [false, null, 'no', 'outofstock'],
      5: [false, null, 'no', 'onbackorder'],
      6: [true, null, 'no', 'outofstock'],
    });
    expect(n.warnings).toEqual([
      'product 6: stock quantity "many" is not a number, imported as none',
      'product 6: backorders "sometimes" is not known, imported as no',
    ]);
  });
});
