import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/types.js';

export interface AuditEntry {
  requestId: string;
  actorUserId: number | null;
  actorLogin: string | null;
  authMethod: string;
  apiKeyId: number | null;
  ip: string | null;
  method: string;
  route: string;
  path: string;
  target: string | null;
  status: number;
  outcome: 'success' | 'failure' | 'denied';
  details?: Record<string, unknown> | null;
}

export interface AuditRecord extends Omit<AuditEntry, 'details'> {
  id: number;
  at: string;
  details: Record<string, unknown> | null;
}

export interface AuditQuery {
  actorUserId?: number;
  method?: string;
  routeContains?: string;
  outcome?: AuditEntry['outcome'];
  since?: string;
  until?: string;
  page: number;
  perPage: number;
}

export async function appendAudit(db: Db, e: AuditEntry): Promise<void> {
  await insertAuditRows(db, [e]);
}

/** One multi-row INSERT (the group-commit writer's batches, writer.ts). */
export async function insertAuditRows(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const values = entries.map(
    (e) => sql`(${e.requestId}, ${e.actorUserId}, ${e.actorLogin}, ${e.authMethod}, ${e.apiKeyId}, ${e.ip}, ${e.method},
      ${e.route}, ${e.path}, ${e.target}, ${e.status}, ${e.outcome}, ${e.details ? JSON.stringify(e.details) : null}::jsonb)`,
  );
  await db.execute(sql`INSERT INTO rova_audit_log
    (request_id, actor_user_id, actor_login, auth_method, api_key_id, ip, method, route, path, target, status, outcome, details)
    VALUES ${sql.join(values, sql`, `)}`);
}

export async function queryAudit(db: Db, q: AuditQuery): Promise<{ items: AuditRecord[]; total: number }> {
  const where: SQL[] = [sql`true`];
  if (q.actorUserId !== undefined) where.push(sql`actor_user_id = ${q.actorUserId}`);
  if (q.method) where.push(sql`method = ${q.method}`);
  if (q.routeContains) where.push(sql`route ILIKE ${'%' + q.routeContains.replace(/[%_\\]/g, (c) => '\\' + c) + '%'}`);
  if (q.outcome) where.push(sql`outcome = ${q.outcome}`);
  if (q.since) where.push(sql`at >= ${q.since}::timestamptz`);
  if (q.until) where.push(sql`at <= ${q.until}::timestamptz`);
  const cond = sql.join(where, sql` AND `);
  const total = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE ${cond}`))[0]?.n ?? 0;
  const items = await rows<AuditRecord>(
    db,
    sql`SELECT id::int AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, request_id AS "requestId",
      actor_user_id::int AS "actorUserId", actor_login AS "actorLogin", auth_method AS "authMethod", api_key_id::int AS "apiKeyId",
      ip, method, route, path, target, status, outcome, details
      FROM rova_audit_log WHERE ${cond} ORDER BY id DESC LIMIT ${q.perPage} OFFSET ${(q.page - 1) * q.perPage}`,
  );
  return { items, total };
}
