import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types.js';

/** An event type, `<resource>.<happening>` (e.g. `booking.created`, `payout.paid`). */
export type EventType = `${string}.${string}`;

/**
 * Records an outbound event in the outbox. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does; delivery to webhook endpoints happens later, by a job.
 * `data` is the event's public payload: ids and the fields an integrator needs, never secrets.
 */
export async function emitEvent(tx: Db, type: EventType, data: Record<string, unknown>): Promise<string> {
  const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
  await tx.execute(sql`INSERT INTO rova_events (event_id, type, payload)
    VALUES (${eventId}, ${type}, ${JSON.stringify({ type, timestamp: new Date().toISOString(), data })}::jsonb)`);
  return eventId;
}
