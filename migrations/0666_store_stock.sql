-- WooCommerce's stock fields on catalogue records (issue 34.7): manage_stock, stock_quantity, backorders. The
-- stored stock_status is derived from them while stock is managed (store/stock.ts, WooCommerce's rules).
ALTER TABLE rova_products
  ADD COLUMN manage_stock boolean NOT NULL DEFAULT false,
  ADD COLUMN stock_quantity integer,
  ADD COLUMN backorders text NOT NULL DEFAULT 'no' CHECK (backorders IN ('no', 'notify', 'yes')),
  -- as WooCommerce saves them: no quantity and no backorders without stock management
  ADD CONSTRAINT rova_products_stock_unmanaged CHECK (manage_stock OR (stock_quantity IS NULL AND backorders = 'no'));
