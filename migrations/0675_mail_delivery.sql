-- Mail delivered from the outbox (issue 37 item 8): a mail a write causes is stored in that write's transaction and,
-- with SMTP_URL, sent afterwards by the delivery pass (platform/mail/delivery.ts) with retries. `pending` rows wait
-- for `not_before`; a pass claims them as `sending` (FOR UPDATE SKIP LOCKED: one node per row) until `claimed_until`,
-- then marks them `sent`, back to `pending` (a later attempt) or `failed` (attempts used up). `stored` stays what it
-- was: a mail kept for an administrator to read when there is no SMTP server. `about` names what the mail is about
-- (`booking:42`), so the write that follows it can release or withdraw it.
ALTER TABLE rova_mail_outbox DROP CONSTRAINT rova_mail_outbox_status_check;
ALTER TABLE rova_mail_outbox
  ADD CONSTRAINT rova_mail_outbox_status_check CHECK (status IN ('stored', 'failed', 'pending', 'sending', 'sent')),
  ADD COLUMN about text,
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN not_before timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN claimed_until timestamptz,
  ADD COLUMN sent_at timestamptz;
CREATE INDEX rova_mail_outbox_due ON rova_mail_outbox(not_before, id) WHERE status IN ('pending', 'sending');
