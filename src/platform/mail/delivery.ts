import type { Platform } from '../context.js';
import { perPlatform } from '../per-platform.js';
import { mailerOf, SMTP_EXCHANGE_MAX_SECONDS } from './mailer.js';
import { bodiesOf } from './drafts.js';
import { claimDueMails, markRefused, markSent, type ClaimedMail } from './outbox.js';
import { mailSettings } from './settings.js';

/** Attempts at one mail before it is `failed` for good (an administrator reads it in the outbox). */
export const MAIL_ATTEMPTS = 8;
/** Every node looks for due mails this often (retries, and mails whose node stopped before it sent them). */
export const MAIL_POLL_MS = 5_000;
/** Mails claimed by one pass at a time. */
const CLAIM = 20;

/** Seconds before the next attempt after `attempts` refused ones: 30 s, 1 min, 2 min … at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends the outbox's `pending` mails over SMTP_URL: at once when a write that stored one is committed (`nudge`), and
 * on every node every MAIL_POLL_MS for retries and for what a stopped node left. A row is claimed (committed as
 * `sending`) before it is sent, under SKIP LOCKED, so two nodes never send one row twice; a refused attempt is tried
 * again later (retryDelaySeconds), MAIL_ATTEMPTS in all. Only a node that stops between the SMTP server's answer and
 * the `sent` mark leaves a row that is sent again once its claim runs out (SMTP_EXCHANGE_MAX_SECONDS).
 */
export class MailDelivery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly p: Platform) {
    mailerOf(p).onStored(() => this.nudge());
  }

  /** Does this deployment deliver (SMTP_URL set)? Without it mails stay `stored` for an administrator. */
  get enabled(): boolean {
    return mailSettings(this.p).smtpUrl !== null;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => this.nudge(), MAIL_POLL_MS).unref();
  }

  /** A write that stored mail committed: deliver now (a pass in progress runs once more). Never throws. */
  nudge(): void {
    if (!this.enabled || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
    });
  }

  /** Waits for the pass in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.deliverDue()) === CLAIM);
      } catch (err) {
        this.p.log.error({ err }, 'mail delivery pass failed');
      }
    } while (this.again && !this.stopped);
  }

  /** One claim of due mails, each sent and marked; the number claimed. */
  async deliverDue(): Promise<number> {
    const claimed = await claimDueMails(this.p.db, CLAIM, SMTP_EXCHANGE_MAX_SECONDS);
    for (const m of claimed) await this.send(m);
    return claimed.length;
  }

  private async send(m: ClaimedMail): Promise<void> {
    let rendered: ReturnType<typeof bodiesOf> | undefined;
    try {
      rendered = bodiesOf(this.p, m);
      if (rendered.problem) throw new Error(`not sent: ${rendered.problem}`);
      await mailerOf(this.p).deliver({
        to: m.to_address,
        subject: m.subject,
        text: rendered.text,
        html: rendered.html,
        attachments: rendered.attachments,
      });
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const last = m.attempts >= MAIL_ATTEMPTS;
      this.p.log.warn({ mail: m.id, template: m.template, attempt: m.attempts, reason }, 'mail not sent');
      await markRefused(this.p.db, m.id, reason, last ? null : retryDelaySeconds(m.attempts));
      return;
    }
    await markSent(this.p.db, m.id, rendered.rendered ? rendered : null);
  }
}

export const mailDeliveryOf: (p: Platform) => MailDelivery = perPlatform((p) => new MailDelivery(p));
