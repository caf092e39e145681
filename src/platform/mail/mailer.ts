import { sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Platform } from '../context.js';
import { one, rows, type Db } from '../db/types.js';
import { perPlatform } from '../per-platform.js';
import { mailSettings } from './settings.js';
import type { MailAttachment, MailContent } from './templates.js';

export interface OutgoingMail extends MailContent {
  to: string;
  /** Template name, kept with an outbox copy (e.g. `password_reset`). */
  template: string;
  attachments?: MailAttachment[];
}

/**
 * Mail through the outbox: `send` stores it in rova_mail_outbox (`pending` when SMTP_URL is set, which the delivery
 * sends at once and retries; `stored` without it, for an administrator to read), so every mail is listed there.
 * Sending never fails the caller's request: a write that fails is logged. Writes that cause a mail store it in their
 * own transaction instead (outbox.ts `storeMail`).
 */
export class Mailer {
  private transport: Transporter | null = null;
  /** Set by the running delivery (`MailDelivery.start`): a stored `pending` mail wakes it. */
  private stored: (() => void) | null = null;
  constructor(private readonly p: Platform) {}

  /** The delivery asks to be woken when a mail waits for it (the mailer does not know the delivery). */
  onStored(wake: () => void): void {
    this.stored = wake;
  }

  async send(m: OutgoingMail): Promise<void> {
    const smtp = mailSettings(this.p).smtpUrl !== null;
    try {
      await storeMail(this.p.db, m, smtp ? 'pending' : 'stored', null);
    } catch (err) {
      this.p.log.warn({ template: m.template, err }, 'mail not stored');
      return;
    }
    if (smtp) this.stored?.();
  }

  /**
   * Sends `m` over SMTP_URL now; throws what the server or the connection said. Bounded in time, so a delivery's
   * claim (`MailDelivery`) always outlasts it.
   */
  async deliver(m: Omit<OutgoingMail, 'template'>): Promise<void> {
    const s = mailSettings(this.p);
    if (!s.smtpUrl) throw new Error('no SMTP_URL');
    // loaded with the first mail sent over SMTP: a node that only stores mail does not carry it
    this.transport ??= (await import('nodemailer')).default.createTransport({ url: s.smtpUrl, ...SMTP_TIMEOUTS });
    await this.transport.sendMail({
      from: s.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      attachments: (m.attachments ?? []).map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.content_type,
      })),
    });
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

/** Milliseconds an SMTP exchange may take at most (nodemailer's own defaults run to 10 minutes). */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
/** Longer than any one SMTP exchange can take (SMTP_TIMEOUTS): what a delivery's claim of a mail lasts. */
export const SMTP_EXCHANGE_MAX_SECONDS = 300;

export const mailerOf = perPlatform((p) => new Mailer(p));

// One statement per mail, not group-committed: a mail whose write dies must fail its own request only (a batch
// could carry another request's mail into the next write; see idempotency-lease.test.ts, "killed after its commit").
async function storeMail(db: Db, m: OutgoingMail, status: 'stored' | 'pending', error: string | null): Promise<void> {
  await db.execute(sql`INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, error, attachments)
    VALUES (${m.to}, ${m.subject}, ${m.text}, ${m.html}, ${m.template}, ${status}, ${error},
      ${JSON.stringify(m.attachments ?? [])}::jsonb)`);
}

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  /** null for a mail stored as its draft (drafts.ts `bodiesOf` renders it). */
  text_body: string | null;
  html_body: string | null;
  draft: unknown;
  template: string;
  status: string;
  error: string | null;
  attachments: MailAttachment[];
  created_at: string;
}

export async function listOutbox(
  db: Db,
  f: { to?: string; template?: string },
  page: number,
  perPage: number,
): Promise<{ items: OutboxRow[]; total: number }> {
  const c = [sql`true`];
  if (f.to) c.push(sql`lower(to_address) = lower(${f.to})`);
  if (f.template) c.push(sql`template = ${f.template}`);
  const w = sql.join(c, sql` AND `);
  const items = await rows<OutboxRow>(
    db,
    sql`SELECT id::int AS id, to_address, subject, text_body, html_body, draft, template, status, error, attachments, created_at
    FROM rova_mail_outbox WHERE ${w} ORDER BY id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  const t = await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_mail_outbox WHERE ${w}`);
  return { items, total: t?.n ?? 0 };
}
