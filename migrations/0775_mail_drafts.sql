-- Issue 39.3: a booking mail is stored as its template's data (`draft`) and rendered when it is sent or read, not
-- on the booking's path. A sent draft keeps the bodies it was sent with; a stored one is rendered each time it is read.
ALTER TABLE rova_mail_outbox ADD COLUMN IF NOT EXISTS draft jsonb;
ALTER TABLE rova_mail_outbox ALTER COLUMN text_body DROP NOT NULL;
ALTER TABLE rova_mail_outbox ALTER COLUMN html_body DROP NOT NULL;
ALTER TABLE rova_mail_outbox DROP CONSTRAINT IF EXISTS rova_mail_outbox_bodies_or_draft;
ALTER TABLE rova_mail_outbox ADD CONSTRAINT rova_mail_outbox_bodies_or_draft
  CHECK ((text_body IS NOT NULL AND html_body IS NOT NULL) OR draft IS NOT NULL);
