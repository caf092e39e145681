import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';

/** An event type, `<resource>.<happening>` (e.g. `booking.created`, `payout.paid`). */
export type EventType = `${string}.${string}`;

/**
 * Records an outbound event in the outbox. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does; delivery to webhook endpoints happens later, by a job.
 * `data` is the event's public payload: ids and the fields an integrator needs, never secrets.
 */
export async function emitEvent(tx: Db, type: EventType, data: Record<string, unknown>): Promise<string> {
  const e = outboxEvent(type, data);
  await tx.execute(insertEvents([e]));
  return e.eventId;
}

/** An event ready for the outbox, for a caller that writes it inside one of its own statements (a CTE). */
export interface OutboxEvent {
  eventId: string;
  type: EventType;
  payload: string;
}

export function outboxEvent(type: EventType, data: Record<string, unknown>): OutboxEvent {
  return { eventId: `evt_${randomUUID().replace(/-/g, '')}`, type, payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }) };
}

/** The INSERT of events into the outbox: a statement of its own, or the body of a CTE in the caller's statement. */
export function insertEvents(events: readonly OutboxEvent[]): SQL {
  return sql`INSERT INTO rova_events (event_id, type, payload)
    VALUES ${sql.join(events.map((e) => sql`(${e.eventId}, ${e.type}, ${e.payload}::jsonb)`), sql`, `)}`;
}
