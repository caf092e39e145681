-- Product categories, tags and global attributes with their terms (WooCommerce taxonomies), linked to
-- products through one link table. Categories carried as JSON on products until now become real terms
-- (same ids), so existing catalogues keep their categories.
CREATE TABLE rova_product_attributes (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  type text NOT NULL DEFAULT 'select' CHECK (type IN ('select')),
  order_by text NOT NULL DEFAULT 'menu_order' CHECK (order_by IN ('menu_order', 'name', 'name_num', 'id')),
  has_archives boolean NOT NULL DEFAULT false
);

CREATE TABLE rova_product_terms (
  id bigserial PRIMARY KEY,
  taxonomy text NOT NULL CHECK (taxonomy IN ('product_cat', 'product_tag', 'attribute')),
  attribute_id bigint REFERENCES rova_product_attributes(id) ON DELETE CASCADE,
  parent_id bigint REFERENCES rova_product_terms(id) ON DELETE SET NULL,
  name text NOT NULL,
  slug text NOT NULL,
  description text NOT NULL DEFAULT '',
  display text NOT NULL DEFAULT 'default' CHECK (display IN ('default', 'products', 'subcategories', 'both')),
  image jsonb,
  menu_order integer NOT NULL DEFAULT 0,
  CHECK ((taxonomy = 'attribute') = (attribute_id IS NOT NULL))
);
CREATE UNIQUE INDEX rova_product_terms_slug ON rova_product_terms (taxonomy, COALESCE(attribute_id, 0), slug);

CREATE TABLE rova_product_term_links (
  product_id bigint NOT NULL REFERENCES rova_products(id) ON DELETE CASCADE,
  term_id bigint NOT NULL REFERENCES rova_product_terms(id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, term_id)
);
CREATE INDEX rova_product_term_links_term ON rova_product_term_links (term_id);

INSERT INTO rova_product_terms (id, taxonomy, name, slug)
SELECT DISTINCT ON ((c->>'id')::bigint) (c->>'id')::bigint, 'product_cat', COALESCE(c->>'name', ''),
       COALESCE(NULLIF(c->>'slug', ''), 'category-' || (c->>'id'))
FROM rova_products p, jsonb_array_elements(p.categories) c
WHERE (c->>'id') ~ '^[0-9]{1,15}$' AND (c->>'id')::bigint > 0
ORDER BY (c->>'id')::bigint
ON CONFLICT DO NOTHING;
SELECT setval(pg_get_serial_sequence('rova_product_terms', 'id'), COALESCE((SELECT max(id) FROM rova_product_terms), 0) + 1, false);

INSERT INTO rova_product_term_links (product_id, term_id)
SELECT DISTINCT p.id, t.id
FROM rova_products p, jsonb_array_elements(p.categories) c JOIN rova_product_terms t ON t.id::text = c->>'id'
ON CONFLICT DO NOTHING;

ALTER TABLE rova_products DROP COLUMN categories;
ALTER TABLE rova_products ADD COLUMN featured boolean NOT NULL DEFAULT false;
CREATE INDEX rova_products_slug_parent ON rova_products (parent_id, slug);
