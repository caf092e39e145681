/** Store-time-zone conversions for WooCommerce's date fields (local wall time without offset + `_gmt`). */

function offsetMs(utcMs: number, tz: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(utcMs)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour) % 24,
    Number(p.minute),
    Number(p.second),
  );
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** `2026-01-02T03:04:05` as wall time in `tz` (no offset, like WooCommerce's non-GMT fields). */
export function localIso(d: Date, tz: string): string {
  const shifted = new Date(d.getTime() + offsetMs(d.getTime(), tz));
  return shifted.toISOString().slice(0, 19);
}

export function gmtIso(d: Date): string {
  return d.toISOString().slice(0, 19);
}

const RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Earliest year accepted: older timestamps come back from PostgreSQL with local-mean-time offsets
 * (e.g. `-04:56:02`) in some zones, and a sale window before the epoch means nothing anyway.
 */
const MIN_YEAR = 1970;

/**
 * Parses an input date: an explicit offset (or `asGmt`) is honoured, otherwise the wall time is in `tz`.
 * A date without a time is the start of the day, or its last second when `endOfDay` (WooCommerce's sale end).
 * Returns undefined when the text is not a valid date.
 */
export function parseDateInput(
  text: string,
  tz: string,
  opts: { asGmt?: boolean; endOfDay?: boolean } = {},
): Date | undefined {
  const m = RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, off] = m;
  const dateOnly = h === undefined;
  const hh = dateOnly ? (opts.endOfDay ? 23 : 0) : Number(h);
  const mm = dateOnly ? (opts.endOfDay ? 59 : 0) : Number(mi);
  const ss = dateOnly ? (opts.endOfDay ? 59 : 0) : Number(s ?? 0);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear keeps the year as written.
  const check = new Date(Date.UTC(2000, 0, 1, hh, mm, ss));
  check.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const wall = check.getTime();
  if (
    Number(y) < MIN_YEAR ||
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    hh > 23 ||
    mm > 59 ||
    ss > 59
  )
    return undefined;
  if (off || opts.asGmt) {
    if (!off || off === 'Z') return new Date(wall);
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    return new Date(wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
  }
  let utc = wall - offsetMs(wall, tz);
  utc = wall - offsetMs(utc, tz);
  return new Date(utc);
}
