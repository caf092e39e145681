-- Shared file storage (issue 23 item 1). Vendor documents were written to the disk of the node that received the
-- upload, and every other node answered 500 for them. The default storage (STORAGE_URL unset or `database`) keeps
-- files here, where every node already looks; `s3://…` keeps them in S3 instead (src/platform/storage).
CREATE TABLE rova_objects (
  key text PRIMARY KEY,
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
