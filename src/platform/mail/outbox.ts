import { sql } from 'drizzle-orm';
import type { Platform } from '../context.js';
import { rows, type Db } from '../db/types.js';
import type { OutgoingMail } from './mailer.js';
import { mailSettings } from './settings.js';
import type { MailAttachment } from './templates.js';
import type { RenderedMail } from './drafts.js';

/**
 * A mail stored by the write that causes it in that write's own transaction (so it exists exactly when the write
 * does), and delivered afterwards (`MailDelivery`): rendered in TypeScript, or as its template's data (`draft`),
 * rendered when it is sent or read (drafts.ts).
 */
export interface MailToStore {
  to: string;
  subject: string;
  /** null for a draft. */
  text: string | null;
  html: string | null;
  template: string;
  /** Files sent with it (an .ics of the booking), kept in the row's `attachments`; a draft renders its own. */
  attachments: MailAttachment[];
  /** The template's data, for a mail stored unrendered; null for a rendered one. */
  draft: unknown;
  /** `pending`: the delivery sends it (SMTP_URL set); `stored`: kept for an administrator to read (no SMTP_URL). */
  status: 'pending' | 'stored';
  /** Seconds before the delivery may send it; the write that follows it may release it earlier (`releaseMail`). */
  hold_seconds: number;
}

/** `pending` for the delivery to send (SMTP_URL set), else `stored` for an administrator to read. */
function outboxStatus(p: Platform): MailToStore['status'] {
  return mailSettings(p).smtpUrl ? 'pending' : 'stored';
}

/** The outbox row of `m`, as the deployment delivers mail. `holdSeconds`: see `MailToStore.hold_seconds`. */
export function mailToStore(p: Platform, m: OutgoingMail, holdSeconds = 0): MailToStore {
  return {
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    template: m.template,
    attachments: m.attachments ?? [],
    draft: null,
    status: outboxStatus(p),
    hold_seconds: holdSeconds,
  };
}

/** The outbox row of a mail stored as its draft (its template's renderer registered: drafts.ts). */
export function mailDraftToStore(
  p: Platform,
  m: { to: string; subject: string; template: string; draft: unknown },
  holdSeconds = 0,
): MailToStore {
  return {
    ...m,
    text: null,
    html: null,
    attachments: [],
    status: outboxStatus(p),
    hold_seconds: holdSeconds,
  };
}

/** Stores `m` in the caller's transaction; `about` names what it is about (`booking:42`). */
export async function storeMail(tx: Db, m: MailToStore, about: string | null): Promise<void> {
  await tx.execute(sql`INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, not_before, about, attachments, draft)
    VALUES (${m.to}, ${m.subject}, ${m.text}, ${m.html}, ${m.template}, ${m.status},
      now() + make_interval(secs => ${m.hold_seconds}), ${about}, ${JSON.stringify(m.attachments)}::jsonb,
      ${m.draft === null ? null : JSON.stringify(m.draft)}::jsonb)`);
}

/** A held mail may go now (the write it waited for is done); wakes the delivery. */
export async function releaseMail(db: Db, id: number): Promise<void> {
  await db.execute(sql`UPDATE rova_mail_outbox SET not_before = now() WHERE id = ${id} AND status = 'pending'`);
}

/** A held mail whose write was undone: gone before anything was sent (in the transaction that undoes the write). */
export async function withdrawMail(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_mail_outbox WHERE id = ${id} AND status IN ('pending', 'stored')`);
}

export interface ClaimedMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  template: string;
  attachments: MailAttachment[];
  draft: unknown;
  attempts: number;
}

/**
 * Claims up to `limit` mails that are due: `pending` past `not_before`, or `sending` whose claim ran out (the node
 * that claimed it stopped). The row locks are taken with SKIP LOCKED and the claim committed before anything is sent,
 * so two nodes' passes never claim the same row; a claimed row is this pass's for `leaseSeconds`.
 */
export async function claimDueMails(db: Db, limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
  return rows<ClaimedMail>(
    db,
    sql`UPDATE rova_mail_outbox m SET status = 'sending', attempts = m.attempts + 1,
        claimed_until = now() + make_interval(secs => ${leaseSeconds})
      FROM (SELECT id FROM rova_mail_outbox
        WHERE (status = 'pending' AND not_before <= now()) OR (status = 'sending' AND claimed_until < now())
        ORDER BY not_before, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
      WHERE m.id = due.id
      RETURNING m.id::int AS id, m.to_address, m.subject, m.text_body, m.html_body, m.template, m.attachments, m.draft, m.attempts`,
  );
}

/** Sent; a draft rendered for it keeps what was sent (its bodies and files), so reading it later shows that. */
export async function markSent(db: Db, id: number, rendered: RenderedMail | null = null): Promise<void> {
  const bodies = rendered
    ? sql`, text_body = ${rendered.text}, html_body = ${rendered.html}, attachments = ${JSON.stringify(rendered.attachments)}::jsonb`
    : sql``;
  await db.execute(
    sql`UPDATE rova_mail_outbox SET status = 'sent', sent_at = now(), claimed_until = NULL, error = NULL ${bodies}
      WHERE id = ${id} AND status = 'sending'`,
  );
}

/** A refused attempt: again after `retryInSeconds`, or `failed` for good when that was the last attempt. */
export async function markRefused(db: Db, id: number, reason: string, retryInSeconds: number | null): Promise<void> {
  await db.execute(
    sql`UPDATE rova_mail_outbox SET error = ${reason}, claimed_until = NULL,
        status = ${retryInSeconds === null ? 'failed' : 'pending'},
        not_before = now() + make_interval(secs => ${retryInSeconds ?? 0})
      WHERE id = ${id} AND status = 'sending'`,
  );
}
