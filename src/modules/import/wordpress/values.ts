import { maybeUnserialize, type PhpValue } from './php-unserialize.js';
import type { Notes } from './report.js';

/** Small readers for WordPress meta text, shared by the mappers (pure). */

/** A decimal string ("19.99"), null when empty; a value that is not a non-negative number is reported and dropped. */
export function decimalOrNull(v: string | undefined, what: string, notes: Notes): string | null {
  const s = (v ?? '').trim().replace(',', '.');
  if (s === '') return null;
  if (!/^\d+(\.\d+)?$/.test(s)) {
    notes.warn(`${what}: "${v}" is not a price, left empty`);
    return null;
  }
  return s;
}

export function intOrNull(v: string | undefined): number | null {
  const s = (v ?? '').trim();
  return /^-?\d{1,15}$/.test(s) ? Number(s) : null;
}

/** A meta value that PHP serialized (arrays), parsed; a value that does not parse is reported and read as `fallback`. */
export function phpMeta(v: string | undefined, what: string, notes: Notes): PhpValue | undefined {
  if (v === undefined) return undefined;
  const r = maybeUnserialize(v);
  if (r.ok) return r.value;
  notes.warn(`${what}: meta value does not parse as PHP serialized data (${r.error}); ignored`);
  return undefined;
}

/** A PHP array of strings (a list or the values of a record). */
export function stringList(v: PhpValue | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.trim() ? [v] : [];
  if (typeof v !== 'object') return [String(v)];
  return Object.values(v).filter((x) => typeof x === 'string' || typeof x === 'number').map((x) => String(x));
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) → ISO 8601; null for WordPress's zero date. */
export function gmtIso(s: string): string | null {
  if (!s || s.startsWith('0000-00-00')) return null;
  const d = new Date(s.replace(' ', 'T') + 'Z');
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export const isRecord = (v: PhpValue | undefined): v is Record<string, PhpValue> => typeof v === 'object' && v !== null && !Array.isArray(v);
