-- Mail attachments (issue 35 item 3): a customer's booking mail carries the booking as an iCalendar file (.ics). The
-- outbox keeps each attachment with its mail — a JSON array of {filename, content_type, content}, content as text —
-- so the delivery sends it as written in the transaction of the write that caused the mail; '[]' for mails without.
ALTER TABLE rova_mail_outbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb;
