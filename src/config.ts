import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { parseMailEnv } from './platform/mail/env.js';
import { checkStorageUrl } from './platform/storage/index.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; null means embedded PGlite in `dataDir` (or in memory for tests). */
  databaseUrl: string | null;
  /** DATABASE_POOL_SIZE: connections this node keeps to PostgreSQL. */
  databasePoolSize: number;
  /**
   * DATABASE_COMMIT_OUTCOME_WAIT_MS: how long a transaction whose COMMIT answer was lost (the connection died) waits for
   * PostgreSQL to say whether it committed, before the request answers 503 with the outcome unknown.
   */
  databaseCommitOutcomeWaitMs: number;
  /** When true and no databaseUrl, PGlite runs in memory (tests). */
  memoryDb: boolean;
  redisUrl: string | null;
  /** REDIS_COMMAND_TIMEOUT_MS: how long a Redis command may take before it fails (read only with REDIS_URL). */
  redisCommandTimeoutMs: number;
  /** Where files live (vendor documents, statements): null = the database; `s3://…` or `file:///…` (src/platform/storage). */
  storageUrl: string | null;
  /** Prefix for every Redis key, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  restRoot: string;
  /** Fastify/proxy-addr trust value: false, a hop count, or a list of addresses/CIDRs/names. */
  trustProxy: false | number | string[];
  secret: string;
  /**
   * STORE_CURRENCY as set (upper-cased), null when unset. Only the first start uses it, to write the store's currency
   * into the database; afterwards it must agree with the stored one (`platform.storeCurrency` is what modules read).
   */
  storeCurrencyEnv: string | null;
  storeTimezone: string;
  /** STORE_TIMEZONE is set: it wins over the zone stored in the database (src/platform/store-timezone.ts). */
  storeTimezoneFromEnv: boolean;
  logLevel: LogLevel;
  bootstrapAdminKey: string | null;
  demo: boolean;
  /** ROVA_ADMIN_PASSWORD: password of the demo administrator created on the first start with demo data (else generated and printed once). */
  adminPassword: string | null;
  /** Origins allowed to call the API from a browser on another origin (CORS); '*' for any; empty = same-origin only. */
  corsOrigins: string[];
  /** Files (ES modules) loaded at start whose default export `(platform) => void` adds extension filters. */
  extensions: string[];
  /** AUDIT_RETENTION_DAYS: audit rows older than this are archived to auditArchiveDir, then dropped. */
  auditRetentionDays: number;
  /** AUDIT_ARCHIVE_DIR: where the retention job writes gzipped NDJSON archives (default DATA_DIR/audit-archive). */
  auditArchiveDir: string;
  /** MAIL_OUTBOX_RETENTION_DAYS: sent, stored and failed mails older than this are dropped daily (0 = kept for good). */
  mailOutboxRetentionDays: number;
  /** WEBHOOK_DELIVERY_RETENTION_DAYS: delivered and failed webhook deliveries older than this are dropped daily (0 = kept). */
  webhookDeliveryRetentionDays: number;
  /** BACKUP_DIR: where `rova backup` and the scheduled backup write (default DATA_DIR/backups). */
  backupDir: string;
  /** BACKUP_SCHEDULE: time between scheduled backups (`24h`, `6h`, `90m`); null = no scheduled backups. */
  backupEveryMs: number | null;
  /** BACKUP_KEEP: how many completed backups the scheduled job keeps in backupDir (older ones are deleted). */
  backupKeep: number;
  /** Set by tests to skip background jobs. */
  jobs: boolean;
  /** ROVA_JOB_TICK_MS: how often a node looks for due jobs; a job's lease lasts 4 ticks (a dead holder's job waits that long). */
  jobTickMs: number;
  /** ROVA_AUTH_CACHE_SECONDS: how long a node may answer an API key from memory when it missed the bus's invalidation (0 = no cache). */
  authCacheSeconds: number;
  /**
   * LOG_FORMAT: json lines, or pretty (local time, colours); unset = pretty when stdout is a terminal. `line` (not a
   * setting): a one-shot CLI command's warnings on a terminal, one plain line each.
   */
  logFormat: 'json' | 'pretty' | 'line';
  /** GET /metrics (Prometheus): off (404), public, or token (Authorization: Bearer METRICS_TOKEN). */
  metrics: { mode: 'off' | 'public' | 'token'; token: string | null };
  /** How long a graceful shutdown waits for in-flight requests and jobs before it exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * How long SIGTERM keeps serving with /readyz failing before it stops accepting (a load balancer's health check
   * needs that long to take the node out); 0 for a node without one.
   */
  shutdownDrainMs: number;
  /** PUBLIC_URL without trailing slashes: where operators reach the server (the admin app's address); null = unset. */
  publicUrl: string | null;
  /** ROVA_SETUP_LOGIN, ROVA_SETUP_EMAIL, ROVA_SETUP_PASSWORD as given: `rova setup`'s answers when no flag gives them. */
  setupAccount: { login?: string; email?: string; password?: string };
  /**
   * The environment as loaded, read only by config.ts and the settings files (module settings: e.g.
   * src/modules/rental/settings.ts, src/modules/fx/env.ts), which give each value a type, a default and bounds.
   */
  env: Readonly<Record<string, string | undefined>>;
}

export { ConfigError };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`PORT must be an integer 0-65535 (got "${raw}")`);
  return n;
}

function parseLogFormat(raw: string | undefined, isTty: boolean): Config['logFormat'] {
  const v = raw?.trim().toLowerCase() ?? '';
  if (v === '') return isTty ? 'pretty' : 'json';
  if (v === 'json' || v === 'pretty') return v;
  throw new ConfigError(`LOG_FORMAT must be json or pretty (got "${raw}")`);
}

function parseMetrics(mode: string | undefined, token: string | undefined): Config['metrics'] {
  const t = token?.trim() || null;
  if (t !== null && t.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 24`)');
  const m = mode?.trim().toLowerCase() || (t ? 'token' : 'off');
  if (m !== 'off' && m !== 'public' && m !== 'token')
    throw new ConfigError(`METRICS must be off, public or token (got "${mode}")`);
  if (m === 'token' && !t)
    throw new ConfigError('METRICS is token but METRICS_TOKEN is not set (at least 16 characters)');
  return { mode: m, token: m === 'token' ? t : null };
}

function parseHost(raw: string | undefined): string {
  const v = raw?.trim() || '127.0.0.1';
  if (
    isIP(v) === 0 &&
    !/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
      v,
    )
  ) {
    throw new ConfigError(`HOST must be an IP address or a host name such as 0.0.0.0 or localhost (got "${raw}")`);
  }
  return v;
}

function parseRedisPrefix(raw: string | undefined): string {
  const v = raw?.trim() || 'rova:';
  if (!/^[A-Za-z0-9:_.{}-]{1,64}$/.test(v))
    throw new ConfigError(`REDIS_PREFIX must be 1-64 letters, digits or :_.-{} (got "${raw}")`);
  return v;
}

/** Integer environment setting in [min, max]; the one message shape for every numeric variable. */
export function parseIntSetting(
  name: string,
  raw: string | undefined,
  fallback: number,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.trim());
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `${min}-${max}`;
    throw new ConfigError(`${name} must be an integer ${range} (got "${raw}")`);
  }
  return n;
}

function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw.trim() === '' || /^(false|0|no|off)$/i.test(raw.trim())) return false;
  const v = raw.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (/^(true|yes|on)$/i.test(v)) {
    throw new ConfigError(
      'TRUST_PROXY must list the proxies to trust (addresses, CIDRs, "loopback", or a hop count), not "true"',
    );
  }
  const parts = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of parts) {
    const addr = p.includes('/') ? p.slice(0, p.indexOf('/')) : p;
    if (!['loopback', 'linklocal', 'uniquelocal'].includes(p) && isIP(addr) === 0) {
      throw new ConfigError(`TRUST_PROXY entry "${p}" is not an IP address, CIDR, loopback, linklocal or uniquelocal`);
    }
  }
  return parts;
}

export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  return Intl.supportedValuesOf('currency').includes(code);
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function parseCorsOrigins(raw: string | undefined): string[] {
  if (!raw || raw.trim() === '') return [];
  const list = raw
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const o of list) {
    if (o === '*') continue;
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new ConfigError(`CORS_ORIGINS entry "${o}" must be an origin such as https://shop.example.com, or *`);
    }
    if (u.origin !== o)
      throw new ConfigError(
        `CORS_ORIGINS entry "${o}" must be an origin only (scheme://host[:port]), e.g. ${u.origin}`,
      );
  }
  return list;
}

function parseExtensions(raw: string | undefined): string[] {
  if (!raw || raw.trim() === '') return [];
  const files = raw
    .split(',')
    .map((s) => path.resolve(s.trim()))
    .filter(Boolean);
  for (const f of files) if (!existsSync(f)) throw new ConfigError(`ROVA_EXTENSIONS: file not found: ${f}`);
  return files;
}

function loadOrCreateSecret(dataDir: string, raw: string | undefined, persist: boolean, mayCreate: boolean): string {
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32)
      throw new ConfigError('ROVA_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)');
    return raw;
  }
  if (!persist) return randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  }
  if (!mayCreate)
    throw new ConfigError(
      `ROVA_SECRET is not set and ${file} does not exist: a command on the server's database (DATABASE_URL) needs the ` +
        "server's secret, or the keys and passwords it writes are ones the server refuses. Run it with the server's " +
        'settings, e.g. `set -a; . /etc/rova/rova.env; set +a` first (DATABASE_URL, ROVA_SECRET, and STORAGE_URL ' +
        'when set) — see docs/operators/cli.md',
    );
  mkdirSync(dataDir, { recursive: true });
  const s = randomBytes(32).toString('hex');
  writeFileSync(file, s + '\n', { mode: 0o600 });
  return s;
}

/** `24h`, `6h`, `90m`, `1d`; unset, `off` or empty: no scheduled backups. At least 15 minutes apart. */
function parseBackupSchedule(raw: string | undefined): number | null {
  const v = raw?.trim().toLowerCase() ?? '';
  if (v === '' || v === 'off') return null;
  const m = /^(\d{1,5})(m|h|d)$/.exec(v);
  const ms = m ? Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'] : NaN;
  if (!(ms >= 15 * 60_000 && ms <= 366 * 86_400_000))
    throw new ConfigError(
      `BACKUP_SCHEDULE must be a time between backups such as 24h, 6h or 90m (15m to 366d), or off (got "${raw}")`,
    );
  return ms;
}

function parseRetentionDays(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 365;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 1 || n > 36_500)
    throw new ConfigError(`AUDIT_RETENTION_DAYS must be a whole number of days, 1-36500 (got "${raw}")`);
  return n;
}

export interface LoadConfigOptions {
  /** Do not touch the file system (tests): secret is random, database in memory unless DATABASE_URL. */
  ephemeral?: boolean;
  /** Whether stdout is a terminal (decides the default LOG_FORMAT); default: process.stdout.isTTY. */
  isTty?: boolean;
  /**
   * false: with DATABASE_URL and no ROVA_SECRET nor DATA_DIR/secret, refuse instead of making a new secret (CLI
   * commands on a server's database, where a new secret would write keys the server refuses).
   */
  createSecret?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: LoadConfigOptions = {}): Config {
  const port = parsePort(env.PORT);
  const host = parseHost(env.HOST);
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  const storageUrl = env.STORAGE_URL?.trim() || null;
  const storageProblem = storageUrl ? checkStorageUrl(storageUrl) : null;
  if (storageProblem) throw new ConfigError(storageProblem);
  let restRoot = env.REST_ROOT?.trim() || '/wp-json';
  if (!restRoot.startsWith('/')) restRoot = '/' + restRoot;
  restRoot = restRoot.replace(/\/+$/, '');
  if (restRoot === '' || !/^\/[A-Za-z0-9/_-]*$/.test(restRoot)) {
    throw new ConfigError(`REST_ROOT must be a path such as /wp-json (got "${env.REST_ROOT}")`);
  }
  const storeCurrencyEnv = env.STORE_CURRENCY?.trim().toUpperCase() || null;
  if (storeCurrencyEnv !== null && !isCurrencyCode(storeCurrencyEnv))
    throw new ConfigError(`STORE_CURRENCY must be an ISO 4217 code such as USD (got "${env.STORE_CURRENCY}")`);
  const storeTimezone = env.STORE_TIMEZONE?.trim() || 'UTC';
  if (!isTimeZone(storeTimezone))
    throw new ConfigError(`STORE_TIMEZONE must be an IANA time zone such as Europe/Istanbul (got "${storeTimezone}")`);
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  const bootstrapAdminKey = env.ROVA_BOOTSTRAP_ADMIN_KEY?.trim() || null;
  if (bootstrapAdminKey !== null && bootstrapAdminKey.length < 16) {
    throw new ConfigError('ROVA_BOOTSTRAP_ADMIN_KEY must be at least 16 characters');
  }
  for (const w of (env.ROVA_PAYOUT_WEBHOOK_SECRET ?? '').split(/\s+/).filter(Boolean)) {
    if (!/^whsec_[A-Za-z0-9+/=]{16,}$/.test(w))
      throw new ConfigError('ROVA_PAYOUT_WEBHOOK_SECRET must be one or more space-separated whsec_<base64> secrets');
  }
  const adminPassword = env.ROVA_ADMIN_PASSWORD || null;
  if (adminPassword !== null && (adminPassword.length < 8 || adminPassword.length > 200))
    throw new ConfigError('ROVA_ADMIN_PASSWORD must be 8-200 characters');
  parseMailEnv(env);
  const ephemeral = opts.ephemeral === true;
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    memoryDb: ephemeral && !databaseUrl,
    redisUrl,
    redisCommandTimeoutMs: redisUrl
      ? parseIntSetting('REDIS_COMMAND_TIMEOUT_MS', env.REDIS_COMMAND_TIMEOUT_MS, 500, 10)
      : 500,
    storageUrl,
    redisPrefix: parseRedisPrefix(env.REDIS_PREFIX),
    restRoot,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    secret: loadOrCreateSecret(dataDir, env.ROVA_SECRET, !ephemeral, opts.createSecret !== false || !databaseUrl),
    storeCurrencyEnv,
    storeTimezone,
    storeTimezoneFromEnv: Boolean(env.STORE_TIMEZONE?.trim()),
    logLevel,
    bootstrapAdminKey,
    demo: parseBool('ROVA_DEMO', env.ROVA_DEMO, false),
    adminPassword,
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    extensions: parseExtensions(env.ROVA_EXTENSIONS),
    auditRetentionDays: parseRetentionDays(env.AUDIT_RETENTION_DAYS),
    auditArchiveDir: path.resolve(env.AUDIT_ARCHIVE_DIR?.trim() || path.join(dataDir, 'audit-archive')),
    mailOutboxRetentionDays: parseIntSetting(
      'MAIL_OUTBOX_RETENTION_DAYS',
      env.MAIL_OUTBOX_RETENTION_DAYS,
      365,
      0,
      36_500,
    ),
    webhookDeliveryRetentionDays: parseIntSetting(
      'WEBHOOK_DELIVERY_RETENTION_DAYS',
      env.WEBHOOK_DELIVERY_RETENTION_DAYS,
      90,
      0,
      36_500,
    ),
    backupDir: path.resolve(env.BACKUP_DIR?.trim() || path.join(dataDir, 'backups')),
    backupEveryMs: parseBackupSchedule(env.BACKUP_SCHEDULE),
    backupKeep: parseIntSetting('BACKUP_KEEP', env.BACKUP_KEEP, 7, 1, 1000),
    jobs: !ephemeral && parseBool('ROVA_JOBS', env.ROVA_JOBS, true),
    jobTickMs: parseIntSetting('ROVA_JOB_TICK_MS', env.ROVA_JOB_TICK_MS, 30_000, 1_000, 600_000),
    databasePoolSize: parseIntSetting('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 20, 1, 500),
    databaseCommitOutcomeWaitMs: parseIntSetting(
      'DATABASE_COMMIT_OUTCOME_WAIT_MS',
      env.DATABASE_COMMIT_OUTCOME_WAIT_MS,
      10_000,
      0,
      120_000,
    ),
    authCacheSeconds: parseIntSetting('ROVA_AUTH_CACHE_SECONDS', env.ROVA_AUTH_CACHE_SECONDS, 10, 0, 300),
    logFormat: parseLogFormat(env.LOG_FORMAT, opts.isTty ?? process.stdout.isTTY === true),
    metrics: parseMetrics(env.METRICS, env.METRICS_TOKEN),
    shutdownTimeoutMs: parseIntSetting('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
    shutdownDrainMs: parseIntSetting('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS, 0, 0, 600_000),
    publicUrl: env.PUBLIC_URL?.trim().replace(/\/+$/, '') || null,
    setupAccount: { login: env.ROVA_SETUP_LOGIN, email: env.ROVA_SETUP_EMAIL, password: env.ROVA_SETUP_PASSWORD },
    env: { ...env },
  };
}

/** Boolean setting from the environment (1/0, true/false, yes/no, on/off), for module-owned settings. */
export function envBool(config: Config, name: string, fallback: boolean): boolean {
  return parseBool(name, config.env[name], fallback);
}

/** Integer setting from the environment, for module-owned settings. */
export function envInt(
  config: Config,
  name: string,
  fallback: number,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  return parseIntSetting(name, config.env[name], fallback, min, max);
}
