import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../db/types.js';

export interface EndpointRow {
  id: number;
  url: string;
  description: string;
  events: string[];
  secretEnc: string;
  previousSecretEnc: string | null;
  previousSecretUntil: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const EP = sql`id::int AS id, url, description, events, secret_enc AS "secretEnc", previous_secret_enc AS "previousSecretEnc",
  previous_secret_until AS "previousSecretUntil", enabled, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

const textArray = (a: readonly string[]) => sql`${JSON.stringify(a)}::jsonb`;
const toTextArray = (a: readonly string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${textArray(a)}))`;

export async function insertEndpoint(
  db: Db,
  e: { url: string; description: string; events: string[]; secretEnc: string; enabled: boolean },
): Promise<EndpointRow> {
  return (await one<EndpointRow>(
    db,
    sql`INSERT INTO rova_webhook_endpoints (url, description, events, secret_enc, enabled)
        VALUES (${e.url}, ${e.description}, ${toTextArray(e.events)}, ${e.secretEnc}, ${e.enabled}) RETURNING ${EP}`,
  ))!;
}

export async function findEndpoint(db: Db, id: number): Promise<EndpointRow | undefined> {
  return one<EndpointRow>(db, sql`SELECT ${EP} FROM rova_webhook_endpoints WHERE id = ${id}`);
}

export async function listEndpoints(db: Db): Promise<EndpointRow[]> {
  return rows<EndpointRow>(db, sql`SELECT ${EP} FROM rova_webhook_endpoints ORDER BY id`);
}

export async function updateEndpoint(
  db: Db,
  id: number,
  p: { url?: string; description?: string; events?: string[]; enabled?: boolean },
): Promise<EndpointRow | undefined> {
  return one<EndpointRow>(
    db,
    sql`UPDATE rova_webhook_endpoints SET
          url = COALESCE(${p.url ?? null}, url),
          description = COALESCE(${p.description ?? null}, description),
          events = CASE WHEN ${p.events !== undefined} THEN ${toTextArray(p.events ?? [])} ELSE events END,
          enabled = COALESCE(${p.enabled ?? null}::boolean, enabled),
          disabled_reason = CASE WHEN ${p.enabled === true} THEN NULL ELSE disabled_reason END,
          updated_at = now()
        WHERE id = ${id} RETURNING ${EP}`,
  );
}

export async function rotateSecret(
  db: Db,
  id: number,
  secretEnc: string,
  previousUntil: string,
): Promise<EndpointRow | undefined> {
  return one<EndpointRow>(
    db,
    sql`UPDATE rova_webhook_endpoints SET previous_secret_enc = secret_enc, previous_secret_until = ${previousUntil},
          secret_enc = ${secretEnc}, updated_at = now() WHERE id = ${id} RETURNING ${EP}`,
  );
}

export async function disableEndpoint(db: Db, id: number, reason: string): Promise<void> {
  await db.execute(
    sql`UPDATE rova_webhook_endpoints SET enabled = false, disabled_reason = ${reason}, updated_at = now() WHERE id = ${id}`,
  );
}

export async function deleteEndpoint(db: Db, id: number): Promise<boolean> {
  return (
    (await rows<{ id: number }>(db, sql`DELETE FROM rova_webhook_endpoints WHERE id = ${id} RETURNING id::int AS id`))
      .length > 0
  );
}

/** Events not yet fanned out, locked so two nodes never fan out the same event. */
export async function pendingEvents(db: Db, limit: number): Promise<{ eventId: string; type: string }[]> {
  return rows<{ eventId: string; type: string }>(
    db,
    sql`SELECT event_id AS "eventId", type FROM rova_events WHERE fanned_out_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  );
}

export async function markFannedOut(db: Db, eventIds: string[]): Promise<void> {
  if (eventIds.length)
    await db.execute(
      sql`UPDATE rova_events SET fanned_out_at = now() WHERE event_id IN (SELECT jsonb_array_elements_text(${textArray(eventIds)}))`,
    );
}

export async function insertDelivery(
  db: Db,
  endpointId: number,
  eventId: string,
  type: string,
  at: Date,
): Promise<number> {
  return (await one<{ id: number }>(
    db,
    sql`INSERT INTO rova_webhook_deliveries (endpoint_id, event_id, event_type, next_attempt_at) VALUES (${endpointId}, ${eventId}, ${type}, ${at.toISOString()}) RETURNING id::int AS id`,
  ))!.id;
}

export interface DeliveryRow {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const DL = sql`d.id::int AS id, d.endpoint_id::int AS "endpointId", d.event_id AS "eventId", d.event_type AS "eventType", d.status, d.attempts,
  d.next_attempt_at AS "nextAttemptAt", d.last_status AS "lastStatus", d.last_duration_ms AS "lastDurationMs", d.last_error AS "lastError",
  d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"`;

export async function dueDeliveries(db: Db, now: Date, limit: number): Promise<DeliveryRow[]> {
  return rows<DeliveryRow>(
    db,
    sql`SELECT ${DL} FROM rova_webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= ${now.toISOString()} ORDER BY d.next_attempt_at, d.id LIMIT ${limit}`,
  );
}

export async function findDelivery(db: Db, endpointId: number, id: number): Promise<DeliveryRow | undefined> {
  return one<DeliveryRow>(
    db,
    sql`SELECT ${DL} FROM rova_webhook_deliveries d WHERE d.id = ${id} AND d.endpoint_id = ${endpointId}`,
  );
}

export async function listDeliveries(
  db: Db,
  endpointId: number,
  page: number,
  perPage: number,
): Promise<{ items: DeliveryRow[]; total: number }> {
  const total =
    (
      await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM rova_webhook_deliveries WHERE endpoint_id = ${endpointId}`,
      )
    )?.n ?? 0;
  const items = await rows<DeliveryRow>(
    db,
    sql`SELECT ${DL} FROM rova_webhook_deliveries d WHERE d.endpoint_id = ${endpointId} ORDER BY d.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  return { items, total };
}

export async function eventPayload(db: Db, eventId: string): Promise<string | undefined> {
  return (await one<{ p: string }>(db, sql`SELECT payload::text AS p FROM rova_events WHERE event_id = ${eventId}`))?.p;
}

export async function recordAttempt(
  db: Db,
  d: {
    id: number;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    next: Date | null;
    responseStatus: number | null;
    durationMs: number;
    error: string | null;
    at: Date;
  },
): Promise<void> {
  await db.execute(sql`INSERT INTO rova_webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
    VALUES (${d.id}, ${d.at.toISOString()}, ${d.responseStatus}, ${d.durationMs}, ${d.error})`);
  await db.execute(sql`UPDATE rova_webhook_deliveries SET status = ${d.status}, attempts = ${d.attempts}, next_attempt_at = ${d.next ? d.next.toISOString() : null},
    last_status = ${d.responseStatus}, last_duration_ms = ${d.durationMs}, last_error = ${d.error},
    delivered_at = CASE WHEN ${d.status === 'delivered'} THEN ${d.at.toISOString()}::timestamptz ELSE delivered_at END WHERE id = ${d.id}`);
}

export async function attemptsOf(
  db: Db,
  deliveryId: number,
): Promise<{ attemptedAt: string; responseStatus: number | null; durationMs: number; error: string | null }[]> {
  return rows(
    db,
    sql`SELECT attempted_at AS "attemptedAt", response_status AS "responseStatus", duration_ms AS "durationMs", error
    FROM rova_webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY id`,
  );
}
