-- Store catalogue (wc/v3): products and their variations in one table (variations: type 'variation' + parent_id).
CREATE TABLE rova_products (
  id bigserial PRIMARY KEY,
  parent_id bigint REFERENCES rova_products(id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('simple', 'variable', 'variation')),
  name text NOT NULL DEFAULT '',
  slug text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'draft', 'pending', 'private', 'future', 'trash')),
  password text NOT NULL DEFAULT '',
  sku text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  short_description text NOT NULL DEFAULT '',
  regular_price numeric CHECK (regular_price >= 0),
  sale_price numeric CHECK (sale_price >= 0),
  date_on_sale_from timestamptz,
  date_on_sale_to timestamptz,
  catalog_visibility text NOT NULL DEFAULT 'visible' CHECK (catalog_visibility IN ('visible', 'catalog', 'search', 'hidden')),
  stock_status text NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
  categories jsonb NOT NULL DEFAULT '[]'::jsonb,
  images jsonb NOT NULL DEFAULT '[]'::jsonb,
  attributes jsonb NOT NULL DEFAULT '[]'::jsonb,
  menu_order integer NOT NULL DEFAULT 0,
  rova_fixed_prices jsonb NOT NULL DEFAULT '{}'::jsonb,
  pre_trash_status text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  CHECK ((type = 'variation') = (parent_id IS NOT NULL))
);
CREATE INDEX rova_products_parent ON rova_products(parent_id);
CREATE INDEX rova_products_type_status ON rova_products(type, status);
CREATE UNIQUE INDEX rova_products_sku ON rova_products(sku) WHERE sku <> '';
