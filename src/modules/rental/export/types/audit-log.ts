import { sql } from 'drizzle-orm';
import { Id, lit } from '../../schemas.js';
import { col, defineExportType } from '../type.js';

/** The platform audit log (every write and authentication failure); `status` filters the outcome. */
export const auditLogExport = defineExportType({
  name: 'audit_log',
  title: 'Audit log',
  description:
    'One row per audit entry (every write and every authentication failure). status filters the outcome (success, failure, denied). ' +
    'date_from/date_to filter on the entry time (store time zone).',
  cap: 'manage_options',
  from: sql`rova_audit_log a`,
  id: sql`a.id`,
  date: sql`a.at`,
  status: { expr: sql`a.outcome`, values: ['success', 'failure', 'denied'] },
  filters: {
    actor_user_id: { schema: Id(), where: (v) => sql`a.actor_user_id = ${v}` },
    method: { schema: lit(['POST', 'PUT', 'PATCH', 'DELETE', 'GET'] as const), where: (v) => sql`a.method = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`a.id`, 'Entry id'),
    col('at', 'instant', sql`a.at`, 'When (ISO-8601 UTC)'),
    col('request_id', 'string', sql`a.request_id`, 'Request id'),
    col('actor_user_id', 'integer', sql`a.actor_user_id`, 'Acting user id', true),
    col('actor_login', 'string', sql`a.actor_login`, 'Acting user login', true),
    col('auth_method', 'string', sql`a.auth_method`, 'How the caller authenticated'),
    col('api_key_id', 'integer', sql`a.api_key_id`, 'API key id', true),
    col('ip', 'string', sql`a.ip`, 'Client address (personal data)', true),
    col('method', 'string', sql`a.method`, 'HTTP method'),
    col('route', 'string', sql`a.route`, 'Route pattern'),
    col('path', 'string', sql`a.path`, 'Path'),
    col('target', 'string', sql`a.target`, 'What was acted on', true),
    col('status', 'integer', sql`a.status`, 'HTTP status'),
    col('outcome', 'string', sql`a.outcome`, 'success, failure or denied'),
    col('details', 'json', sql`a.details`, 'Details (JSON; CSV: its JSON text)', true),
  ],
});
