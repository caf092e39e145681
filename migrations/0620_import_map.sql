-- `rova import wordpress`: which WordPress record became which Rova row. A re-run updates the rows it finds here
-- (never a second copy); an interrupted run resumes, since every entity is written in one transaction with its
-- map rows. Ids the outside world holds (products, variations, terms, bookings, vehicles, locations) are kept
-- equal; the map also names the rows whose id had to change (a user id already taken, a guest customer).
CREATE TABLE import_id_map (
  source text NOT NULL,          -- 'wordpress'
  source_table text NOT NULL,    -- the WordPress table (without prefix) and, for posts, the post type: 'posts:product'
  old_id text NOT NULL,          -- the WordPress id (or key: a guest customer's e-mail, a ledger uuid)
  new_id bigint NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, source_table, old_id)
);
CREATE INDEX import_id_map_new ON import_id_map (source_table, new_id);
