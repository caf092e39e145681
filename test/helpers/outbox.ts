import { sql, type SQL } from 'drizzle-orm';
import type { Platform } from '../../src/platform/context.js';
import { rows } from '../../src/platform/db/types.js';
import { bodiesOf } from '../../src/platform/mail/drafts.js';
import type { MailAttachment } from '../../src/platform/mail/templates.js';

/** An outbox row as a reader sees it: a mail stored as its draft comes rendered, as the admin's outbox shows it. */
export interface OutboxMail {
  id: number;
  to_address: string;
  subject: string;
  template: string;
  status: string;
  about: string | null;
  text_body: string;
  html_body: string;
  attachments: MailAttachment[];
  /** Stored as its draft (rendered when read or sent), not as bodies. */
  drafted: boolean;
}

/** The outbox's mails matching `where` (a condition on `rova_mail_outbox m`), oldest first, with their bodies. */
export async function outboxMails(p: Platform, where: SQL): Promise<OutboxMail[]> {
  const stored = await rows<{
    id: number;
    to_address: string;
    subject: string;
    template: string;
    status: string;
    about: string | null;
    text_body: string | null;
    html_body: string | null;
    attachments: MailAttachment[];
    draft: unknown;
  }>(
    p.db,
    sql`SELECT m.id::int AS id, m.to_address, m.subject, m.template, m.status, m.about, m.text_body, m.html_body,
        m.attachments, m.draft
      FROM rova_mail_outbox m WHERE ${where} ORDER BY m.id`,
  );
  return stored.map(({ draft, ...m }) => {
    const body = bodiesOf(p, { ...m, draft });
    if (body.problem) throw new Error(`outbox mail ${m.id} (${m.template}): ${body.problem}`);
    return {
      ...m,
      text_body: body.text,
      html_body: body.html,
      attachments: body.attachments,
      drafted: draft !== null,
    };
  });
}
