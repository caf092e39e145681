import { auditLogExport } from './types/audit-log.js';
import { bookingsExport } from './types/bookings.js';
import { customersExport } from './types/customers.js';
import { ledgerEntriesExport } from './types/ledger-entries.js';
import { messagesExport } from './types/messages.js';
import { payoutsExport } from './types/payouts.js';
import { transfersExport } from './types/transfers.js';
import { vehiclesExport } from './types/vehicles.js';
import type { ExportType } from './type.js';

/** Every exportable type, in documentation order. A new type: one file in types/ and one line here. */
export const EXPORT_TYPES: readonly ExportType[] = [
  bookingsExport,
  transfersExport,
  vehiclesExport,
  customersExport,
  messagesExport,
  payoutsExport,
  ledgerEntriesExport,
  auditLogExport,
];

export function exportType(name: string): ExportType | undefined {
  return EXPORT_TYPES.find((t) => t.name === name);
}
