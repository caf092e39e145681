import { sql } from 'drizzle-orm';
import type { Platform } from '../context.js';
import { rows, type Db } from '../db/types.js';

const DAY_MS = 86_400_000;
/** Rows deleted per statement: a long history goes in short transactions, never one lock on the whole table. */
const BATCH = 5_000;

export interface DeliveryLogRetention {
  /** Mails (sent, stored for reading, failed) older than this many days; 0 keeps them for good. */
  mailDays: number;
  /** Webhook deliveries (delivered or failed) older than this many days; 0 keeps them for good. */
  webhookDays: number;
}

/**
 * Drops what the outbox and the webhook delivery log keep after it is settled: mails and deliveries still waiting to
 * go (pending, sending) are never touched, whatever their age.
 */
export async function pruneDeliveryLogs(
  db: Db,
  keep: DeliveryLogRetention,
  now = new Date(),
): Promise<{ mails: number; deliveries: number }> {
  const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  let mails = 0;
  let deliveries = 0;
  if (keep.mailDays > 0) {
    for (;;) {
      const gone = await rows<{ id: number }>(
        db,
        sql`DELETE FROM rova_mail_outbox WHERE id IN (SELECT id FROM rova_mail_outbox
          WHERE status IN ('sent', 'stored', 'failed') AND created_at < ${cutoff(keep.mailDays)}::timestamptz LIMIT ${BATCH})
          RETURNING id`,
      );
      mails += gone.length;
      if (gone.length < BATCH) break;
    }
  }
  if (keep.webhookDays > 0) {
    for (;;) {
      const gone = await rows<{ id: number }>(
        db,
        sql`DELETE FROM rova_webhook_deliveries WHERE id IN (SELECT id FROM rova_webhook_deliveries
          WHERE status IN ('delivered', 'failed') AND created_at < ${cutoff(keep.webhookDays)}::timestamptz LIMIT ${BATCH})
          RETURNING id`,
      );
      deliveries += gone.length;
      if (gone.length < BATCH) break;
    }
  }
  return { mails, deliveries };
}

/** Daily job (one node at a time, JobRunner lease): MAIL_OUTBOX_RETENTION_DAYS, WEBHOOK_DELIVERY_RETENTION_DAYS. */
export function scheduleDeliveryLogRetention(p: Platform): void {
  p.jobs.schedule({
    name: 'delivery-log-retention',
    intervalMs: () => DAY_MS,
    run: async () => {
      const r = await pruneDeliveryLogs(p.db, {
        mailDays: p.config.mailOutboxRetentionDays,
        webhookDays: p.config.webhookDeliveryRetentionDays,
      });
      if (r.mails + r.deliveries > 0) p.log.info(r, 'sent mails and settled webhook deliveries past retention dropped');
    },
  });
}
