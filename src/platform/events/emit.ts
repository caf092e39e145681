import { randomUUID } from 'node:crypto';
import { asSql, StatementText } from '../db/statement.js';
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
  const s = new StatementText();
  await tx.execute(asSql(insertEvent(s, e), s.params));
  return e.eventId;
}

/** An event ready for the outbox, for a caller that writes it inside one of its own statements (a CTE; see rental/bookings/create/repo.ts). */
export interface OutboxEvent {
  eventId: string;
  type: EventType;
  payload: string;
}

export function outboxEvent(type: EventType, data: Record<string, unknown>): OutboxEvent {
  return {
    eventId: `evt_${randomUUID().replace(/-/g, '')}`,
    type,
    payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }),
  };
}

/** The outbox INSERT of one event, as text of a statement built with `s`. */
function insertEvent(s: StatementText, e: OutboxEvent): string {
  return `INSERT INTO rova_events (event_id, type, payload) VALUES (${s.param(e.eventId)}::text, ${s.param(e.type)}::text, ${s.param(e.payload)}::jsonb)`;
}
