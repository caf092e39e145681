import { sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Platform } from '../context.js';
import { one, rows, type Db } from '../db/types.js';
import { perPlatform } from '../per-platform.js';
import { mailSettings } from './settings.js';
import type { MailContent } from './templates.js';

export interface OutgoingMail extends MailContent {
  to: string;
  /** Template name, kept with an outbox copy (e.g. `password_reset`). */
  template: string;
}

/**
 * Sends mail over SMTP_URL (nodemailer), or, without it, stores it in rova_mail_outbox for an admin to read.
 * Sending never fails the caller's request: an SMTP error is logged and the mail kept as `failed`.
 */
export class Mailer {
  private transport: Transporter | null = null;
  constructor(private readonly p: Platform) {}

  async send(m: OutgoingMail): Promise<void> {
    const s = mailSettings(this.p);
    if (!s.smtpUrl) {
      await storeMail(this.p.db, m, 'stored', null);
      return;
    }
    this.transport ??= nodemailer.createTransport(s.smtpUrl);
    try {
      await this.transport.sendMail({ from: s.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.p.log.warn({ template: m.template, reason }, 'mail not sent');
      await storeMail(this.p.db, m, 'failed', reason.slice(0, 500)).catch(() => undefined);
    }
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

export const mailerOf = perPlatform((p) => new Mailer(p));

/** Where a mail composed before its recipient's name is known puts the name (see `storedMailWith`). */
export const RECIPIENT_NAME = '\uE000recipient\uE000';

/**
 * The outbox INSERT of mails whose recipients the caller's statement reads, as a CTE's body: `from` gives one row per
 * mail, with the mail itself as a jsonb SQL expression (`mail`: an `Omit<OutgoingMail, 'to'>`: subject, text, html, template)
 * and its recipient's address and name as SQL (`to`, `name`). RECIPIENT_NAME in the mail is replaced by the name —
 * HTML-escaped in the HTML body, as the templates escape — so the mail is stored with the write that causes it, in the
 * same statement. Undefined when mail goes over SMTP (it is sent after the write, not stored).
 */
export function storedMailsWith(
  p: Platform,
  r: { from: string; mail: string; to: string; name: string },
): string | undefined {
  if (mailSettings(p).smtpUrl) return undefined;
  const html = `replace(replace(replace(replace(replace(${r.name}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;
  const token = `'${RECIPIENT_NAME}'::text`;
  return `INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, error)
    SELECT ${r.to}, ${r.mail}->>'subject', replace(${r.mail}->>'text', ${token}, ${r.name}), replace(${r.mail}->>'html', ${token}, ${html}),
      ${r.mail}->>'template', 'stored', NULL FROM ${r.from}`;
}

// One statement per mail, not group-committed: a mail whose write dies must fail its own request only (a batch
// could carry another request's mail into the next write; see idempotency-lease.test.ts, "killed after its commit").
async function storeMail(db: Db, m: OutgoingMail, status: 'stored' | 'failed', error: string | null): Promise<void> {
  await db.execute(sql`INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, error)
    VALUES (${m.to}, ${m.subject}, ${m.text}, ${m.html}, ${m.template}, ${status}, ${error})`);
}

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  template: string;
  status: string;
  error: string | null;
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
    sql`SELECT id::int AS id, to_address, subject, text_body, html_body, template, status, error, created_at
    FROM rova_mail_outbox WHERE ${w} ORDER BY id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  const t = await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_mail_outbox WHERE ${w}`);
  return { items, total: t?.n ?? 0 };
}
