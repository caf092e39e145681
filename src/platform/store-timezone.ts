import { sql } from 'drizzle-orm';
import { isTimeZone, type Config } from '../config.js';
import { one, type Db } from './db/types.js';

/**
 * STORE_TIMEZONE when set; otherwise the store's stored zone (option store_timezone, which `rova import wordpress`
 * takes from the WordPress site), else UTC.
 */
export async function withStoredTimezone(config: Config, db: Db): Promise<Config> {
  if (config.storeTimezoneFromEnv) return config;
  const r = await one<{ value: unknown }>(db, sql`SELECT value FROM rova_options WHERE name = 'store_timezone'`);
  return typeof r?.value === 'string' && isTimeZone(r.value) && r.value !== config.storeTimezone
    ? { ...config, storeTimezone: r.value }
    : config;
}
