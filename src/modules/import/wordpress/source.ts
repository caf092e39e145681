import type mysql from 'mysql2/promise';

/** One WordPress post with its meta (the first value of each key, as get_post_meta(..., true) reads it). */
export interface WpPost {
  id: number;
  author: number;
  type: string;
  status: string;
  title: string;
  content: string;
  excerpt: string;
  name: string;
  password: string;
  parent: number;
  menuOrder: number;
  /** The post's GUID (for an attachment: the file's URL). */
  guid: string;
  /**
   * "YYYY-MM-DD HH:MM:SS" in UTC: post_date_gmt as the source stores it. WordPress writes its zero date there for a
   * draft that was never published; the import's reader (context.ts, SourceCache) then reads `date` on the site's
   * clock, so a mapper always gets an instant in UTC.
   */
  dateGmt: string;
  modifiedGmt: string;
  /** post_date and post_modified: the same instants on the site's clock (current_time('mysql')). */
  date?: string;
  modified?: string;
  meta: Map<string, string>;
}

export interface WpUser {
  id: number;
  login: string;
  email: string;
  pass: string;
  displayName: string;
  registered: string;
  meta: Map<string, string>;
}

export interface WpTerm {
  termId: number;
  taxonomyId: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  meta: Map<string, string>;
}

export interface WpAttributeTaxonomy {
  id: number;
  name: string;
  label: string;
  type: string;
  orderby: string;
  public: boolean;
}

export type SqlRow = Record<string, string | number | null>;

/** What the import reads; the MySQL implementation below, or a stub in tests of the mappers. */
export interface WpSource {
  readonly prefix: string;
  /** Posts of these types with their meta (only `metaKeys` when given: attachments carry large metadata blobs). */
  posts(types: string[], metaKeys?: string[]): Promise<WpPost[]>;
  users(): Promise<WpUser[]>;
  terms(taxonomies: string[]): Promise<WpTerm[]>;
  /** term_id per object id, for the given taxonomies. */
  termLinks(taxonomies: string[]): Promise<Map<number, number[]>>;
  attributeTaxonomies(): Promise<WpAttributeTaxonomy[]>;
  option(name: string): Promise<string | null>;
  /** All rows of a plugin table (name without prefix), or null when the table does not exist. */
  table(name: string, orderBy?: string): Promise<SqlRow[] | null>;
  /** How many rows a table holds (name without prefix), or null when the table does not exist. */
  count(name: string): Promise<number | null>;
  /** How many posts of each type the site holds (any status). */
  postTypeCounts(): Promise<Map<string, number>>;
  /** Comments on posts of the types `on`, and on every other post. */
  commentCounts(on: string[]): Promise<{ on: number; other: number }>;
  /** The names of the options that start with `prefix`. */
  optionNames(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A user error about the source (bad URL, unreachable server, wrong credentials): shown without a stack trace. */
export class SourceError extends Error {}

export const GMT_ZERO = '0000-00-00 00:00:00';
const dateText = (v: unknown): string => (v === null || v === undefined || v === '' ? GMT_ZERO : String(v));

function metaMap(rows: SqlRow[], idCol: string): Map<number, Map<string, string>> {
  const by = new Map<number, Map<string, string>>();
  for (const r of rows) {
    const id = Number(r[idCol]);
    let m = by.get(id);
    if (!m) by.set(id, (m = new Map()));
    const k = String(r.meta_key ?? '');
    if (!m.has(k)) m.set(k, String(r.meta_value ?? ''));
  }
  return by;
}

export function describeUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** Opens the WordPress database at a `mysql://user:pass@host:3306/db` URL (read-only use). */
export async function openMysqlSource(url: string, prefix: string): Promise<WpSource> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SourceError(`--from is not a URL: use mysql://user:password@host:3306/database`);
  }
  if (u.protocol !== 'mysql:' && u.protocol !== 'mariadb:')
    throw new SourceError(`--from must be a mysql:// URL (got ${u.protocol}//…)`);
  if (u.pathname.length < 2)
    throw new SourceError('--from names no database: add it as the path, e.g. mysql://user@host:3306/wordpress');
  if (!/^\w*$/.test(prefix)) throw new SourceError(`--prefix may hold only letters, digits and _ (got "${prefix}")`);
  u.protocol = 'mysql:';
  let c: mysql.Connection;
  try {
    // loaded by the import command only, not by every server
    const { default: driver } = await import('mysql2/promise');
    c = await driver.createConnection({
      uri: u.toString(),
      charset: 'utf8mb4',
      dateStrings: true,
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: true,
      connectTimeout: 10_000,
    });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const where = describeUrl(url);
    if (e.code === 'ECONNREFUSED' || e.code === 'ETIMEDOUT' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH')
      throw new SourceError(
        `cannot reach the WordPress database at ${where} (${e.code}): check the host and port, and that MySQL/MariaDB accepts connections from here`,
      );
    if (e.code === 'ER_ACCESS_DENIED_ERROR')
      throw new SourceError(
        `the WordPress database refused the user and password in ${where}: check the credentials (wp-config.php DB_USER / DB_PASSWORD)`,
      );
    if (e.code === 'ER_BAD_DB_ERROR')
      throw new SourceError(`the database in ${where} does not exist: check its name (wp-config.php DB_NAME)`);
    throw new SourceError(`cannot open the WordPress database at ${where}: ${e.message ?? String(err)}`);
  }
  const q = async (text: string, params: unknown[] = []): Promise<SqlRow[]> =>
    (await c.query(text, params))[0] as SqlRow[];
  const t = (name: string) => `\`${prefix}${name}\``;
  const tables = new Set((await q('SHOW TABLES')).map((r) => String(Object.values(r)[0])));
  if (!tables.has(`${prefix}posts`) || !tables.has(`${prefix}options`)) {
    await c.end();
    throw new SourceError(
      `no WordPress tables with prefix "${prefix}" in ${describeUrl(url)} (no ${prefix}posts / ${prefix}options): check --prefix (wp-config.php $table_prefix)`,
    );
  }
  return {
    prefix,
    async posts(types, metaKeys) {
      const rows = await q(
        `SELECT ID, post_author, post_type, post_status, post_title, post_content, post_excerpt, post_name, post_password, post_parent, menu_order, guid,
        post_date, post_date_gmt, post_modified, post_modified_gmt FROM ${t('posts')} WHERE post_type IN (?) ORDER BY ID`,
        [types],
      );
      const keys = metaKeys ? ' AND m.meta_key IN (?)' : '';
      const meta =
        metaKeys?.length === 0
          ? new Map<number, Map<string, string>>()
          : metaMap(
              await q(
                `SELECT m.post_id, m.meta_key, m.meta_value FROM ${t('postmeta')} m
        JOIN ${t('posts')} p ON p.ID = m.post_id WHERE p.post_type IN (?)${keys} ORDER BY m.meta_id`,
                metaKeys ? [types, metaKeys] : [types],
              ),
              'post_id',
            );
      return rows.map((r) => ({
        id: Number(r.ID),
        author: Number(r.post_author),
        type: String(r.post_type),
        status: String(r.post_status),
        title: String(r.post_title ?? ''),
        content: String(r.post_content ?? ''),
        excerpt: String(r.post_excerpt ?? ''),
        name: String(r.post_name ?? ''),
        password: String(r.post_password ?? ''),
        parent: Number(r.post_parent),
        menuOrder: Number(r.menu_order),
        guid: String(r.guid ?? ''),
        dateGmt: dateText(r.post_date_gmt),
        modifiedGmt: dateText(r.post_modified_gmt),
        date: dateText(r.post_date),
        modified: dateText(r.post_modified),
        meta: meta.get(Number(r.ID)) ?? new Map(),
      }));
    },
    async users() {
      const rows = await q(
        `SELECT ID, user_login, user_email, user_pass, display_name, user_registered FROM ${t('users')} ORDER BY ID`,
      );
      const meta = metaMap(
        await q(`SELECT user_id, meta_key, meta_value FROM ${t('usermeta')} ORDER BY umeta_id`),
        'user_id',
      );
      return rows.map((r) => ({
        id: Number(r.ID),
        login: String(r.user_login),
        email: String(r.user_email ?? ''),
        pass: String(r.user_pass ?? ''),
        displayName: String(r.display_name ?? ''),
        registered: String(r.user_registered ?? GMT_ZERO),
        meta: meta.get(Number(r.ID)) ?? new Map(),
      }));
    },
    async terms(taxonomies) {
      if (!taxonomies.length) return []; // `IN ()` is not SQL
      const rows = await q(
        `SELECT t.term_id, tt.term_taxonomy_id, tt.taxonomy, t.name, t.slug, tt.description, tt.parent FROM ${t('terms')} t
        JOIN ${t('term_taxonomy')} tt ON tt.term_id = t.term_id WHERE tt.taxonomy IN (?) ORDER BY t.term_id`,
        [taxonomies],
      );
      const meta = tables.has(`${prefix}termmeta`)
        ? metaMap(await q(`SELECT term_id, meta_key, meta_value FROM ${t('termmeta')} ORDER BY meta_id`), 'term_id')
        : new Map<number, Map<string, string>>();
      return rows.map((r) => ({
        termId: Number(r.term_id),
        taxonomyId: Number(r.term_taxonomy_id),
        taxonomy: String(r.taxonomy),
        name: String(r.name),
        slug: String(r.slug),
        description: String(r.description ?? ''),
        parent: Number(r.parent),
        meta: meta.get(Number(r.term_id)) ?? new Map(),
      }));
    },
    async termLinks(taxonomies) {
      if (!taxonomies.length) return new Map();
      const rows = await q(
        `SELECT r.object_id, tt.term_id FROM ${t('term_relationships')} r JOIN ${t('term_taxonomy')} tt ON tt.term_taxonomy_id = r.term_taxonomy_id
        WHERE tt.taxonomy IN (?) ORDER BY r.object_id, r.term_order, tt.term_id`,
        [taxonomies],
      );
      const by = new Map<number, number[]>();
      for (const r of rows) {
        const id = Number(r.object_id);
        by.set(id, [...(by.get(id) ?? []), Number(r.term_id)]);
      }
      return by;
    },
    async attributeTaxonomies() {
      if (!tables.has(`${prefix}woocommerce_attribute_taxonomies`)) return [];
      const rows = await q(
        `SELECT attribute_id, attribute_name, attribute_label, attribute_type, attribute_orderby, attribute_public FROM ${t('woocommerce_attribute_taxonomies')} ORDER BY attribute_id`,
      );
      return rows.map((r) => ({
        id: Number(r.attribute_id),
        name: String(r.attribute_name),
        label: String(r.attribute_label ?? r.attribute_name),
        type: String(r.attribute_type),
        orderby: String(r.attribute_orderby),
        public: Number(r.attribute_public) === 1,
      }));
    },
    async option(name) {
      const r = await q(`SELECT option_value FROM ${t('options')} WHERE option_name = ?`, [name]);
      return r.length ? String(r[0]!.option_value ?? '') : null;
    },
    async table(name, orderBy = 'id') {
      if (!/^\w+$/.test(name) || !/^\w+$/.test(orderBy)) throw new Error(`bad table name ${name}`);
      if (!tables.has(`${prefix}${name}`)) return null;
      return q(`SELECT * FROM ${t(name)} ORDER BY \`${orderBy}\``);
    },
    async count(name) {
      if (!/^\w+$/.test(name)) throw new Error(`bad table name ${name}`);
      if (!tables.has(`${prefix}${name}`)) return null;
      return Number((await q(`SELECT COUNT(*) AS n FROM ${t(name)}`))[0]!.n);
    },
    async postTypeCounts() {
      const rows = await q(`SELECT post_type, COUNT(*) AS n FROM ${t('posts')} GROUP BY post_type`);
      return new Map(rows.map((r) => [String(r.post_type), Number(r.n)]));
    },
    async commentCounts(on) {
      if (!tables.has(`${prefix}comments`)) return { on: 0, other: 0 };
      const rows = await q(
        `SELECT p.post_type IN (?) AS matched, COUNT(*) AS n FROM ${t('comments')} c
        JOIN ${t('posts')} p ON p.ID = c.comment_post_ID GROUP BY matched`,
        [on.length ? on : ['']],
      );
      const n = (m: number) => Number(rows.find((r) => Number(r.matched) === m)?.n ?? 0);
      return { on: n(1), other: n(0) };
    },
    async optionNames(start) {
      const like = `${start.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await q(`SELECT option_name FROM ${t('options')} WHERE option_name LIKE ? ORDER BY option_name`, [
        like,
      ]);
      return rows.map((r) => String(r.option_name));
    },
    close: () => c.end(),
  };
}
