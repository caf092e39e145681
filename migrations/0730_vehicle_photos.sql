-- Vehicle photos (issue 36.2): several per vehicle, ordered (position 0 is the cover), each with alt text. The
-- uploaded file itself is never kept (it may carry EXIF GPS): only its resized variants, metadata stripped, stored
-- in the object storage under `vehicle-photos/<storage_id>/<variant>.<webp|jpg>`. `digest` (the first bytes of the
-- upload's SHA-256) is in every variant URL, so those URLs can be cached for a year: new bytes, new URL.
CREATE TABLE rental_vehicle_photos (
  id bigserial PRIMARY KEY,
  vehicle_id bigint NOT NULL REFERENCES rental_vehicles(id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  alt text NOT NULL DEFAULT '' CHECK (length(alt) <= 300),
  storage_id text NOT NULL UNIQUE CHECK (storage_id ~ '^[0-9a-f]{32}$'),
  digest text NOT NULL CHECK (digest ~ '^[0-9a-f]{16}$'),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  -- {"thumb": {"width": 160, "height": 107}, "card": …, "detail": …}: each variant's own size, for width/height
  variants jsonb NOT NULL,
  created_by bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- a reorder rewrites every position of the vehicle in one statement: checked at commit
  CONSTRAINT rental_vehicle_photos_position UNIQUE (vehicle_id, position) DEFERRABLE INITIALLY DEFERRED
);
