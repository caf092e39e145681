import { sql } from 'drizzle-orm';
import { Id } from '../../schemas.js';
import { col, defineExportType } from '../type.js';
import { majorUnits } from './minor-units.js';

const PAYOUT_STATUSES = ['requested', 'approved', 'rejected', 'paid', 'failed'] as const;

/** Every vendor payout request and what became of it; the date range applies to the request date. */
export const payoutsExport = defineExportType({
  name: 'payouts',
  title: 'Payouts',
  description: 'One row per vendor payout request. date_from/date_to filter on requested_at (store time zone).',
  cap: 'manage_options',
  from: sql`vendor_payouts p JOIN rova_users u ON u.id = p.vendor_id`,
  id: sql`p.id`,
  date: sql`p.requested_at`,
  status: { expr: sql`p.status`, values: PAYOUT_STATUSES },
  filters: {
    vendor_id: { schema: Id(), where: (v) => sql`p.vendor_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`p.id`, 'Payout id'),
    col('vendor_id', 'integer', sql`p.vendor_id`, 'Vendor (user id)'),
    col('vendor_login', 'string', sql`u.login`, 'Vendor login'),
    col('vendor_name', 'string', sql`u.display_name`, 'Vendor (display name)'),
    col(
      'statement_no',
      'integer',
      sql`p.statement_no`,
      "The payout's number among the vendor's payouts (#1, #2 …): the name vendor and operator use",
    ),
    col('amount', 'number', majorUnits(sql`p.amount`, sql`p.currency`), 'Amount in the currency (exact decimal)'),
    col('amount_minor', 'integer', sql`p.amount`, 'Amount in integer minor units (as the ledger holds it)'),
    col('currency', 'string', sql`p.currency`, 'ISO 4217 currency'),
    col('status', 'string', sql`p.status`, `Status (${PAYOUT_STATUSES.join(', ')})`),
    col(
      'statement_number',
      'string',
      sql`p.statement_number`,
      'Payout statement (PS-YYYY-NNNN), given on approval',
      true,
    ),
    col('rejection_reason', 'string', sql`p.rejection_reason`, 'Why it was rejected', true),
    col('external_reference', 'string', sql`p.external_reference`, "The processor's reference", true),
    col('requested_at', 'instant', sql`p.requested_at`, 'Requested (ISO-8601 UTC)'),
    col('requested_date', 'date', sql`p.requested_at`, 'Requested (store-local date)'),
    col('decided_at', 'instant', sql`p.decided_at`, 'Approved or rejected (ISO-8601 UTC)', true),
    col('paid_at', 'instant', sql`p.paid_at`, 'Reported paid (ISO-8601 UTC)', true),
    col('failed_at', 'instant', sql`p.failed_at`, 'Reported failed (ISO-8601 UTC)', true),
  ],
});
