/** What `rova import wordpress` did, entity by entity: the closing report and the tests read it. */
export const ENTITIES = [
  'settings',
  'attributes',
  'categories',
  'tags',
  'products',
  'variations',
  'currency',
  'users',
  'customers',
  'locations',
  'routes',
  'pricing',
  'vehicles',
  'vendors',
  'bookings',
  'messages',
  'ledger',
  'vendor_reports',
] as const;
export type Entity = (typeof ENTITIES)[number];

export interface Skipped {
  /** The WordPress id (post ID, user ID, row id, option name). */
  id: string;
  reason: string;
}

/** A value of a record that was not read as it stood: unreadable (left out) or cleaned (NUL removed, over-long text refused). */
export interface ValueNote {
  /** The WordPress id of the record. */
  id: string;
  /** The meta key, option or column. */
  key: string;
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
  values: ValueNote[];
}

/**
 * Something the site holds that Rova does not import (docs/operators/import-wordpress.md, "Not imported"), with how
 * many the site has.
 */
export interface NotImported {
  what: string;
  count: number;
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
  /** What was read: the rental plugin's version (null when the site stores none) and generation, the site's time zone. */
  site: { pluginVersion: string | null; pluginGeneration: '4' | '6'; timeZone: string } | null;
  notImported: NotImported[];
  entities: EntityReport[];
  /** Per-vendor balances after the ledger import, against the original's (a mismatch is reported, never smoothed). */
  ledger: LedgerBalanceCheck[];
}

/** Collects what one entity's mapping and writing noticed. */
export class Notes {
  readonly skipped: Skipped[] = [];
  readonly warnings: string[] = [];
  readonly values: ValueNote[] = [];
  skip(id: number | string, reason: string): void {
    this.skipped.push({ id: String(id), reason });
  }
  /** A value of record `id` (meta key, option or column `key`) that was not read as it stood. */
  value(id: number | string, key: string, reason: string): void {
    this.values.push({ id: String(id), key, reason });
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}
