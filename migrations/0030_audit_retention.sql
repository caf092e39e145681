-- Audit retention (AUDIT_RETENTION_DAYS): the log stays append-only; the only way rows leave is
-- rova_audit_purge(before, up_to_id), which the retention job calls after archiving those rows to a file.
-- The trigger lets a DELETE through only while that function has set rova.audit_purge_before (transaction-local)
-- and only for rows older than it and older than a day: an ad-hoc DELETE or any UPDATE is still refused.
CREATE OR REPLACE FUNCTION rova_audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  purge_before text := current_setting('rova.audit_purge_before', true);
BEGIN
  IF TG_OP = 'DELETE' AND purge_before IS NOT NULL AND purge_before <> ''
     AND OLD.at < purge_before::timestamptz AND OLD.at < now() - interval '1 day' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'rova_audit_log is append-only';
END $$;

CREATE FUNCTION rova_audit_purge(before timestamptz, up_to_id bigint) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('rova.audit_purge_before', before::text, true);
  DELETE FROM rova_audit_log WHERE at < before AND id <= up_to_id;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('rova.audit_purge_before', '', true);
  RETURN n;
END $$;
