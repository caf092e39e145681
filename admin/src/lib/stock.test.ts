import { describe, expect, it } from 'vitest';
import { stockText } from './stock';

describe('stockText', () => {
  it('shows the quantity only while stock is managed', () => {
    expect(stockText({ manage_stock: true, stock_quantity: 12, stock_status: 'instock' })).toBe('In stock (12)');
    expect(stockText({ manage_stock: true, stock_quantity: -2, stock_status: 'onbackorder' })).toBe(
      'On backorder (-2)',
    );
    expect(stockText({ manage_stock: true, stock_quantity: null, stock_status: 'outofstock' })).toBe('Out of stock');
    expect(stockText({ manage_stock: false, stock_quantity: null, stock_status: 'outofstock' })).toBe('Out of stock');
    expect(stockText({ manage_stock: false, stock_quantity: null, stock_status: 'weird' })).toBe('weird');
  });
});
