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

/**
 * Why a note was written, for a program reading the report (the reason says it for a person):
 * - `not_live`: in the trash, an auto-draft, a void or pending row that counts in no balance of the original;
 * - `missing`: a value the record needs is not there (no vehicle, no valid e-mail, no dates);
 * - `unreadable`: a value that does not read as what it should hold (a number, a date, serialized data, JSON);
 * - `unknown`: a value Rova does not know, read as a default (a status, a fuel type);
 * - `unsupported`: something Rova has no equivalent for (a product type, a role, a legacy setting);
 * - `cleaned`: a value changed so it can be stored (NUL characters removed, a login sanitised);
 * - `too_long`: a text longer than the import takes; `out_of_range`: a number beyond what Rova holds;
 * - `unlinked`: what the record points at is not imported;
 * - `conflict`: Rova already holds its slug, SKU, login, e-mail or id; `duplicate`: the site holds it twice;
 * - `refused`: Rova's database refused the record; `changed`: changed in WordPress since it was imported;
 * - `balance`: a vendor balance differs from the original's; `setting`: about a setting of the site as a whole.
 */
export type NoteCode =
  | 'not_live'
  | 'missing'
  | 'unreadable'
  | 'unknown'
  | 'unsupported'
  | 'cleaned'
  | 'too_long'
  | 'out_of_range'
  | 'unlinked'
  | 'conflict'
  | 'duplicate'
  | 'refused'
  | 'changed'
  | 'balance'
  | 'setting';

/** What the import noticed about one record (or the site), said without the record's values. */
export interface Note {
  /** skipped: the record was not imported; value: one of its values was not read as it stood; warning: the rest. */
  kind: 'skipped' | 'value' | 'warning';
  /** The entity whose step wrote it (null in a mapper's own notes, before a step takes them). */
  entity: Entity | null;
  /** The WordPress id (post ID, user ID, row id, option name); null when the note is about the site as a whole. */
  id: string | null;
  /** The meta key, option or column, when the note is about one value. */
  key?: string;
  code: NoteCode;
  reason: string;
  /** How a warning line names the record ("vehicle 304", "user 5 (anna)"). */
  record?: string;
}

/** Where a note points: the WordPress id and how a warning line names the record. */
export interface Subject {
  id: number | string | null;
  record?: string;
  key?: string;
}

/** "vehicle 304" (with its WordPress id) as a note's subject. */
export const subject = (what: string, id: number | string, name?: string): Subject => ({
  id,
  record: name === undefined ? `${what} ${id}` : `${what} ${id} (${name})`,
});

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
  /** Every note of the step, structured (the three lists below are views of it, as the report prints them). */
  notes: Note[];
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

/** Collects what one entity's mapping and writing noticed, record by record. */
export class Notes {
  readonly list: Note[] = [];
  constructor(readonly entity: Entity | null = null) {}
  /** Record `id` is not imported. */
  skip(id: number | string, code: NoteCode, reason: string): void {
    this.list.push({ kind: 'skipped', entity: this.entity, id: String(id), code, reason });
  }
  /** A value of record `id` (meta key, option or column `key`) that was not read as it stood. */
  value(id: number | string, key: string, code: NoteCode, reason: string): void {
    this.list.push({ kind: 'value', entity: this.entity, id: String(id), key, code, reason });
  }
  /** Anything else worth knowing about a record (`at`), or about the site as a whole (`at` null). */
  warn(at: Subject | null, code: NoteCode, reason: string): void {
    this.list.push({
      kind: 'warning',
      entity: this.entity,
      id: at?.id === null || at?.id === undefined ? null : String(at.id),
      ...(at?.key !== undefined ? { key: at.key } : {}),
      code,
      reason,
      ...(at?.record !== undefined ? { record: at.record } : {}),
    });
  }
  /** Takes notes another collector wrote (a mapper's), as this one's. */
  take(notes: readonly Note[]): void {
    for (const n of notes) this.list.push({ ...n, entity: this.entity });
  }
  clear(): void {
    this.list.length = 0;
  }
  get skipped(): Skipped[] {
    return skippedOf(this.list);
  }
  get warnings(): string[] {
    return warningsOf(this.list);
  }
  get values(): ValueNote[] {
    return valuesOf(this.list);
  }
}

export const skippedOf = (list: readonly Note[]): Skipped[] =>
  list.filter((n) => n.kind === 'skipped').map((n) => ({ id: n.id ?? '', reason: n.reason }));
export const warningsOf = (list: readonly Note[]): string[] =>
  list.filter((n) => n.kind === 'warning').map((n) => (n.record ? `${n.record}: ${n.reason}` : n.reason));
export const valuesOf = (list: readonly Note[]): ValueNote[] =>
  list.filter((n) => n.kind === 'value').map((n) => ({ id: n.id ?? '', key: n.key ?? '', reason: n.reason }));

/** One value of a subject, as a warning line names it ("product 11 sale price") with its key. */
export const detail = (at: Subject, label: string, key: string): Subject => ({
  id: at.id,
  record: `${at.record ?? ''} ${label}`.trim(),
  key,
});
