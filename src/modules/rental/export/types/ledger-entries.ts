import { sql } from 'drizzle-orm';
import { Id, lit } from '../../schemas.js';
import { col, defineExportType } from '../type.js';
import { majorUnits } from './minor-units.js';

const KINDS = [
  'commission',
  'commission_clearing',
  'commission_refund',
  'payout_hold',
  'payout_release',
  'payout_paid',
  'payout_reversal',
  'penalty',
  'penalty_reversal',
] as const;

/** Every ledger entry (both legs of every transaction, so each transaction's rows sum to 0). */
export const ledgerEntriesExport = defineExportType({
  name: 'ledger_entries',
  title: 'Ledger entries',
  description:
    "One row per ledger entry: the signed legs of each double-entry transaction (a transaction's rows sum to 0). " +
    'date_from/date_to filter on when the entry was written (store time zone); filters kind, vendor_id, transaction_id.',
  cap: 'manage_options',
  from: sql`ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id JOIN ledger_accounts a ON a.id = e.account_id`,
  id: sql`e.id`,
  date: sql`e.created_at`,
  status: null,
  filters: {
    kind: { schema: lit(KINDS), where: (v) => sql`t.kind = ${v}` },
    vendor_id: { schema: Id(), where: (v) => sql`t.vendor_id = ${v}` },
    transaction_id: { schema: Id(), where: (v) => sql`e.transaction_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`e.id`, 'Entry id'),
    col('transaction_id', 'integer', sql`e.transaction_id`, 'Transaction id'),
    col('kind', 'string', sql`t.kind`, `Transaction kind (${KINDS.join(', ')})`),
    col(
      'account',
      'string',
      sql`a.code`,
      'Account (vendor:{id}:pending|available|payout_hold, platform:commission, platform:penalties, external)',
    ),
    col('vendor_id', 'integer', sql`t.vendor_id`, 'Vendor the transaction concerns', true),
    col(
      'amount',
      'number',
      majorUnits(sql`e.amount`, sql`t.currency`),
      'Signed amount in the currency (exact decimal)',
    ),
    col('amount_minor', 'integer', sql`e.amount`, 'Signed amount in integer minor units'),
    col('currency', 'string', sql`t.currency`, 'ISO 4217 currency'),
    col('reference', 'string', sql`t.reference`, 'What it is about (booking:{id}, payout:{id}, vehicle:{id}, …)', true),
    col('created_at', 'instant', sql`e.created_at`, 'Written (ISO-8601 UTC)'),
  ],
});
