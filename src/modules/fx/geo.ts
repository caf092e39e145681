import { existsSync } from 'node:fs';
import maxmind, { type Reader, type Response } from 'maxmind';
import type { Platform } from '../../platform/context.js';
import { geoDbFile } from './env.js';

/** A country record of either DB-IP/ip-location-db (`country_code`) or MaxMind GeoIP2/GeoLite2 (`country.iso_code`). */
interface CountryRecord {
  country_code?: string;
  country?: { iso_code?: string };
}

export { geoDbPath } from './env.js';

/** Local, offline country lookup (loaded once, lazily). Never calls anyone with a visitor's address. */
export class GeoLookup {
  private reader: Promise<Reader<Response> | null> | null = null;

  constructor(private readonly platform: Platform) {}

  private open(): Promise<Reader<Response> | null> {
    this.reader ??= (async () => {
      const file = geoDbFile(this.platform.config);
      if (!file || !existsSync(file)) {
        this.platform.log.warn({ file }, 'country database not found; geolocation uses CDN headers only');
        return null;
      }
      try {
        return await maxmind.open<Response>(file, { watchForUpdates: false, cache: { max: 10_000 } });
      } catch (err) {
        this.platform.log.warn(
          { err, file },
          'country database could not be opened; geolocation uses CDN headers only',
        );
        return null;
      }
    })();
    return this.reader;
  }

  /** ISO 3166-1 alpha-2 country of an address, or null. */
  async country(ip: string): Promise<string | null> {
    if (!maxmind.validate(ip)) return null;
    const reader = await this.open();
    if (!reader) return null;
    let rec: CountryRecord | null = null;
    try {
      rec = reader.get(ip) as CountryRecord | null;
    } catch {
      return null;
    }
    const cc = rec?.country_code ?? rec?.country?.iso_code;
    return typeof cc === 'string' && /^[A-Za-z]{2}$/.test(cc) ? cc.toUpperCase() : null;
  }
}
