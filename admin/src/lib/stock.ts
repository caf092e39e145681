const STOCK_STATUS: Record<string, string> = {
  instock: 'In stock',
  outofstock: 'Out of stock',
  onbackorder: 'On backorder',
};

/** A product's stock as the catalogue list shows it: "In stock (12)" while stock is managed with a quantity. */
export function stockText(r: { manage_stock: boolean; stock_quantity: number | null; stock_status: string }): string {
  const status = STOCK_STATUS[r.stock_status] ?? r.stock_status;
  return r.manage_stock && r.stock_quantity !== null ? `${status} (${r.stock_quantity})` : status;
}
