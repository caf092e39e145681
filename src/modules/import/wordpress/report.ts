/** What `rova import wordpress` did, entity by entity: the closing report and the tests read it. */
export const ENTITIES = [
  'attributes', 'categories', 'tags', 'products', 'variations', 'currency', 'users', 'customers', 'locations', 'routes', 'pricing',
  'vehicles', 'vendors', 'bookings', 'messages', 'ledger', 'vendor_reports',
] as const;
export type Entity = (typeof ENTITIES)[number];

export interface Skipped {
  /** The WordPress id (post ID, user ID, row id, option name). */
  id: string;
  reason: string;
}

export interface EntityReport {
  entity: Entity;
  /** Records read from WordPress. */
  read: number;
  /** New in Rova this run. */
  created: number;
  /** Already imported before: written again in place. */
  updated: number;
  skipped: Skipped[];
  warnings: string[];
}

export interface LedgerBalanceCheck {
  vendorId: number;
  currency: string;
  original: { available: string; pending: string };
  rova: { available: string; pending: string };
  matches: boolean;
}

export interface ImportReport {
  dryRun: boolean;
  entities: EntityReport[];
  /** Per-vendor balances after the ledger import, against the original's (a mismatch is reported, never smoothed). */
  ledger: LedgerBalanceCheck[];
}

/** Collects what one entity's mapping and writing noticed. */
export class Notes {
  readonly skipped: Skipped[] = [];
  readonly warnings: string[] = [];
  skip(id: number | string, reason: string): void {
    this.skipped.push({ id: String(id), reason });
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}
