import { isTimeZone } from '../../../config.js';
import { localToUtc } from '../../rental/index.js';
import type { Notes } from './report.js';

/** Facts about the WordPress site the mappers need: its time zone and the rental plugin's version (pure). */

export interface SiteZone {
  /** An IANA zone Rova can use as STORE_TIMEZONE (timezone_string, or Etc/GMT±N for a whole-hour gmt_offset). */
  zone: string | null;
  /** A fractional gmt_offset (e.g. 5.5) has no IANA name: a fixed offset in minutes (no DST, so plain arithmetic is exact). */
  fixedOffsetMinutes: number | null;
  /** What the report shows: "Europe/Istanbul" or "UTC+5:30". */
  label: string;
}

export const UTC_ZONE: SiteZone = { zone: 'UTC', fixedOffsetMinutes: null, label: 'UTC' };

/**
 * WordPress's own order (wp_timezone_string): `timezone_string` when it names a zone, else `gmt_offset` (hours, may be
 * fractional), else UTC.
 */
export function siteZone(timezoneString: string | null, gmtOffset: string | null, notes: Notes): SiteZone {
  const named = (timezoneString ?? '').trim();
  if (named && isTimeZone(named)) return { zone: named, fixedOffsetMinutes: null, label: named };
  if (named)
    notes.warn(
      { id: 'timezone_string', key: 'timezone_string' },
      'unreadable',
      `option timezone_string "${named}" is not a time zone; gmt_offset is used, as WordPress does`,
    );
  const raw = (gmtOffset ?? '').trim();
  const hours = raw === '' ? 0 : Number(raw);
  if (!Number.isFinite(hours) || Math.abs(hours) > 14) {
    notes.warn(
      { id: 'gmt_offset', key: 'gmt_offset' },
      'unreadable',
      `option gmt_offset "${raw}" is not an offset in hours; site-local times read as UTC`,
    );
    return UTC_ZONE;
  }
  if (hours === 0) return UTC_ZONE;
  const minutes = Math.round(hours * 60);
  const sign = minutes < 0 ? '-' : '+';
  const label = `UTC${sign}${Math.floor(Math.abs(minutes) / 60)}${Math.abs(minutes) % 60 ? `:${String(Math.abs(minutes) % 60).padStart(2, '0')}` : ''}`;
  // Etc/GMT zones carry the POSIX sign: Etc/GMT-3 is three hours ahead of UTC
  if (minutes % 60 === 0)
    return { zone: `Etc/GMT${minutes > 0 ? '-' : '+'}${Math.abs(minutes) / 60}`, fixedOffsetMinutes: null, label };
  return { zone: null, fixedOffsetMinutes: minutes, label };
}

/** "YYYY-MM-DD" and "HH:MM[:SS]" on the site's clock → ISO 8601 UTC; null when it is not a real date and time. */
export function siteLocalIso(date: string, time: string, z: SiteZone): string | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(date.trim());
  const t = /^(\d\d):(\d\d)(?::(\d\d))?$/.exec(time.trim());
  if (!m || !t) return null;
  const [y, mo, d, h, mi, s] = [
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(t[1]),
    Number(t[2]),
    Number(t[3] ?? 0),
  ];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (y < 1000 || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    return null;
  const ms =
    z.zone !== null
      ? localToUtc(`${m[1]}-${m[2]}-${m[3]}`, `${t[1]}:${t[2]}`, z.zone).getTime() + s * 1000
      : wall - (z.fixedOffsetMinutes ?? 0) * 60_000;
  return new Date(ms).toISOString();
}

/** "YYYY-MM-DD HH:MM:SS" written with current_time('mysql') (site time) → ISO 8601 UTC; null for empty or zero dates. */
export function siteMysqlIso(v: string | undefined, z: SiteZone): string | null {
  const s = (v ?? '').trim();
  if (!s || s.startsWith('0000-00-00')) return null;
  const [date = '', time = '00:00:00'] = s.split(/[ T]/);
  return siteLocalIso(date, time, z);
}

export type PluginGeneration = '4' | '6';

export interface PluginVersion {
  /** "4.33.0", or null when the site stores none (a version before the option existed: read as 4.x). */
  version: string | null;
  generation: PluginGeneration;
}

/** The rental plugin's stored version: `mhmrentiva_plugin_version` (6.x), else `mhm_rentiva_plugin_version` (4.x). */
export function pluginVersion(v6: string | null, v4: string | null, has6xPosts: boolean): PluginVersion {
  const version = (v6 ?? '').trim() || (v4 ?? '').trim() || null;
  const major = version ? Number(version.split('.')[0]) : NaN;
  return { version, generation: major >= 6 || (Number.isNaN(major) && has6xPosts) ? '6' : '4' };
}

/** a < b for dotted versions ("4.33.0" < "4.36"). */
export function versionBefore(a: string, b: string): boolean {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}
