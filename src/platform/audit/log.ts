import { sql, type SQL } from 'drizzle-orm';
import { inOwnTransaction } from '../db/answered.js';
import { TRANSACTION_ID_COLUMN, transactionIdKnown } from '../db/outcome.js';
import { preparedStatementRefused, rowsPreparedInTransaction, rowsPreparedText } from '../db/prepared.js';
import { LONE_SURROGATES } from '../http/nul-guard.js';
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

/**
 * The group-commit writer's batches (writer.ts) as ONE statement whose text is the same for any number of rows
 * (the rows travel as one JSON array): the database parses and plans it once per connection, and no statement
 * tree is built per row. The same text runs on PGlite.
 */
const INSERT_AUDIT_ROWS = `INSERT INTO rova_audit_log
  (request_id, actor_user_id, actor_login, auth_method, api_key_id, ip, method, route, path, target, status, outcome, details)
  SELECT request_id, actor_user_id, actor_login, auth_method, api_key_id, ip, method, route, path, target, status, outcome, details
  FROM jsonb_to_recordset($1::jsonb) AS r(request_id text, actor_user_id bigint, actor_login text, auth_method text, api_key_id bigint,
    ip text, method text, route text, path text, target text, status int, outcome text, details jsonb)`;

/**
 * Text as PostgreSQL can store it, for every string of the batch (columns and `details` alike): a request refused
 * for a NUL or an unpaired surrogate in its path (nul-guard.ts) is still audited, with U+FFFD in their place, and
 * cannot make the batch it shares with other requests fail.
 */
const storable = (_key: string, v: unknown): unknown =>
  typeof v === 'string' ? v.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD') : v;

/** The same INSERT reading its transaction's id (the batch commits in a transaction of its own: `insertAuditBatch`). */
const INSERT_AUDIT_ROWS_READING_ID = `WITH written AS (${INSERT_AUDIT_ROWS}) SELECT ${TRANSACTION_ID_COLUMN} AS xid`;

export async function insertAuditRows(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await rowsPreparedText(db, INSERT_AUDIT_ROWS, [auditJson(entries)]);
}

/**
 * A batch of the group commit (writer.ts), in a transaction of its own whose INSERT reads the transaction's id: when
 * the connection dies with the COMMIT sent, the transaction helper asks PostgreSQL whether it committed, so rows that
 * were written are never logged as lost (nor written again). Three round trips instead of one, per batch.
 */
export async function insertAuditBatch(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const json = auditJson(entries);
  const attempt = () =>
    inOwnTransaction(db, async (tx) => {
      const [r] = await rowsPreparedInTransaction<{ xid: string }>(tx, INSERT_AUDIT_ROWS_READING_ID, [json]);
      if (r) transactionIdKnown(tx, r.xid);
    });
  // a pooler that refuses named statements refused this one (it did not run): once more, unnamed from now on
  await attempt().catch((err: unknown) => {
    if (!preparedStatementRefused(err)) throw err;
    return attempt();
  });
}

function auditJson(entries: readonly AuditEntry[]): string {
  return JSON.stringify(
    entries.map((e) => ({
      request_id: e.requestId,
      actor_user_id: e.actorUserId,
      actor_login: e.actorLogin,
      auth_method: e.authMethod,
      api_key_id: e.apiKeyId,
      ip: e.ip,
      method: e.method,
      route: e.route,
      path: e.path,
      target: e.target,
      status: e.status,
      outcome: e.outcome,
      details: e.details ?? null,
    })),
    storable,
  );
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
  const total =
    (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE ${cond}`))[0]?.n ?? 0;
  const items = await rows<AuditRecord>(
    db,
    sql`SELECT id::int AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, request_id AS "requestId",
      actor_user_id::int AS "actorUserId", actor_login AS "actorLogin", auth_method AS "authMethod", api_key_id::int AS "apiKeyId",
      ip, method, route, path, target, status, outcome, details
      FROM rova_audit_log WHERE ${cond} ORDER BY id DESC LIMIT ${q.perPage} OFFSET ${(q.page - 1) * q.perPage}`,
  );
  return { items, total };
}
