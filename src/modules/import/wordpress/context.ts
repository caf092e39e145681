import type { Db } from '../../../platform/db/types.js';
import { mapAttributes, type AttributeRow } from './map-products.js';
import { mapUsers, type UserRow } from './map-users.js';
import { Notes, type Entity, type EntityReport, type LedgerBalanceCheck } from './report.js';
import { pluginVersion, siteMysqlIso, siteZone, type PluginVersion, type SiteZone } from './site.js';
import type { WpPost, WpSource, WpTerm, WpUser } from './source.js';

/** The rental plugin's post types, 4.x name → the 6.0.0 prefix rename's name(s). */
const RENAMED_TYPES: Record<string, string[]> = {
  vehicle: ['mhmrentiva_vehicle'],
  vehicle_booking: ['mhmrentiva_booking'],
  mhm_message: ['mhmrentiva_message'],
  vehicle_addon: ['mhmrentiva_addon', 'mhmrentiva_vehicle_addon'],
};

/**
 * 6.x meta keys under their 4.x names: the rename turned both `_mhm_*` and `_mhm_rentiva_*` into `_mhmrentiva_*`, so
 * each renamed key is offered under both old spellings (the mappers read the 4.x names; a 4.x key present wins).
 */
export function metaAs4x(meta: Map<string, string>): Map<string, string> {
  const out = new Map(meta);
  for (const [k, v] of meta) {
    if (!k.startsWith('_mhmrentiva_')) continue;
    const rest = k.slice('_mhmrentiva_'.length);
    for (const old of [`_mhm_${rest}`, `_mhm_rentiva_${rest}`]) if (!out.has(old)) out.set(old, v);
  }
  return out;
}

const isZeroDate = (v: string | undefined) => !v || v.startsWith('0000-00-00');

/**
 * A post's dates in UTC. WordPress leaves post_date_gmt at its zero date for a draft that was never published (and
 * post_modified_gmt for some writers); its local post_date is then the only date, on the site's clock: it is read
 * in the site's time zone, not as UTC.
 */
export function inUtc(p: WpPost, zone: SiteZone): WpPost {
  const utc = (gmt: string, local: string | undefined): string => {
    if (!isZeroDate(gmt) || isZeroDate(local)) return gmt;
    const iso = siteMysqlIso(local, zone);
    return iso === null ? gmt : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  };
  const dateGmt = utc(p.dateGmt, p.date);
  const modifiedGmt = utc(p.modifiedGmt, p.modified);
  return dateGmt === p.dateGmt && modifiedGmt === p.modifiedGmt ? p : { ...p, dateGmt, modifiedGmt };
}

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
    const renamed = RENAMED_TYPES[type] ?? [];
    return this.once(`posts:${type}`, async () => {
      // attachments: only the alt text (their other meta holds large serialized image metadata)
      const list = await this.source.posts(
        [type, ...renamed],
        type === 'attachment' ? ['_wp_attachment_image_alt'] : undefined,
      );
      const zone = await this.zone(new Notes());
      return list.map((p) => inUtc(renamed.includes(p.type) ? { ...p, type, meta: metaAs4x(p.meta) } : p, zone));
    });
  }
  /** How many posts of these types the site holds (what the import leaves out is counted in the report). */
  countPosts(types: string[]): Promise<number> {
    return this.once(`count:${types.join(',')}`, async () => (await this.source.posts(types, [])).length);
  }
  zone(notes: Notes): Promise<SiteZone> {
    return this.once('zone', async () =>
      siteZone(await this.source.option('timezone_string'), await this.source.option('gmt_offset'), notes),
    );
  }
  plugin(): Promise<PluginVersion> {
    return this.once('plugin', async () => {
      const [v6, v4, posts6] = await Promise.all([
        this.source.option('mhmrentiva_plugin_version'),
        this.source.option('mhm_rentiva_plugin_version'),
        this.countPosts(['mhmrentiva_vehicle', 'mhmrentiva_booking']),
      ]);
      return pluginVersion(v6, v4, posts6 > 0);
    });
  }
  users(): Promise<WpUser[]> {
    return this.once('users', () => this.source.users());
  }
  catalogueTerms(): Promise<WpTerm[]> {
    return this.once('terms', async () => {
      const attrs = await this.source.attributeTaxonomies();
      return this.source.terms([
        'product_cat',
        'product_tag',
        'product_type',
        'product_visibility',
        ...attrs.map((a) => `pa_${a.name}`),
      ]);
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
