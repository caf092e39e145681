import type { Db } from '../../../platform/db/types.js';
import { mapAttributes, type AttributeRow } from './map-products.js';
import { mapUsers, type UserRow } from './map-users.js';
import { Notes, type Entity, type EntityReport, type LedgerBalanceCheck } from './report.js';
import type { WpPost, WpSource, WpTerm, WpUser } from './source.js';

/** Where the import writes: the app's database (PGlite or PostgreSQL) and the secret Rova seals IBANs with. */
export interface ImportTarget {
  db: Db;
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  secret: string;
}

export interface ImportOptions {
  /** Only these entities (default: all). */
  only?: readonly Entity[];
  /** Run everything in one transaction and roll it back: counts and warnings, nothing written. */
  dryRun?: boolean;
  /** WordPress's AUTH_KEY and SECURE_AUTH_SALT (wp-config.php): the rental plugin sealed vendor IBANs with them. */
  wpKeys?: { authKey: string; secureAuthSalt: string } | null;
  /** Called as records of an entity are written (done of total). */
  progress?: (entity: Entity, done: number, total: number) => void;
}

/** What one entity's step works with; it fills `rep` (created, updated) and `notes`. */
export interface StepContext {
  tx: Db;
  source: WpSource;
  notes: Notes;
  rep: EntityReport;
  opts: ImportOptions;
  target: ImportTarget;
  cache: SourceCache;
  /** Per-vendor balance checks (the ledger step fills it). */
  ledger: LedgerBalanceCheck[];
  tick(done: number, total: number): void;
}

/** WordPress reads shared by several entities, read once per run. */
export class SourceCache {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(private readonly source: WpSource) {}
  private once<T>(key: string, f: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) this.memo.set(key, (p = f()));
    return p;
  }
  posts(type: string): Promise<WpPost[]> {
    // attachments: only the alt text (their other meta holds large serialized image metadata)
    return this.once(`posts:${type}`, () => this.source.posts([type], type === 'attachment' ? ['_wp_attachment_image_alt'] : undefined));
  }
  users(): Promise<WpUser[]> {
    return this.once('users', () => this.source.users());
  }
  catalogueTerms(): Promise<WpTerm[]> {
    return this.once('terms', async () => {
      const attrs = await this.source.attributeTaxonomies();
      return this.source.terms(['product_cat', 'product_tag', 'product_type', 'product_visibility', ...attrs.map((a) => `pa_${a.name}`)]);
    });
  }
  attributes(notes: Notes): Promise<AttributeRow[]> {
    return this.once('attributes', async () => mapAttributes(await this.source.attributeTaxonomies(), notes));
  }
  userRows(): Promise<UserRow[]> {
    return this.once('userRows', async () => mapUsers(await this.users(), this.source.prefix, new Notes()));
  }
}

export type Step = (c: StepContext) => Promise<void>;

