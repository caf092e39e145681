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
  await tx.execute(asSql(insertEvents(s, [e]), s.params));
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

/**
 * The outbox INSERT of `events`, as text of a statement built with `s`: emitEvent's own, or a CTE of the caller's
 * statement. With `from`, each event is selected from the caller's rows (`from.rows`), and `from.payload` may
 * complete the payload in SQL from them (a booking's id, written by the same statement).
 */
export function insertEvents(s: StatementText, events: readonly OutboxEvent[], from?: { rows: string; payload?: (json: string) => string }): string {
  const select = (e: OutboxEvent) => {
    const id = s.param(e.eventId);
    const type = s.param(e.type);
    const json = `${s.param(e.payload)}::jsonb`;
    return `SELECT ${id}::text, ${type}::text, ${from?.payload ? from.payload(json) : json}${from ? ` FROM ${from.rows}` : ''}`;
  };
  return `INSERT INTO rova_events (event_id, type, payload) ${events.map(select).join(' UNION ALL ')}`;
}
