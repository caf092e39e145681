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

/** Where a value comes from: the WordPress record's id and the meta key (or option, column). */
export interface ValueAt {
  id: number | string;
  key: string;
}

/** A meta value that PHP serialized (arrays), parsed; a value that does not parse is reported (id, key, reason) and left out. */
export function phpMeta(v: string | undefined, at: ValueAt, notes: Notes): PhpValue | undefined {
  if (v === undefined) return undefined;
  const r = maybeUnserialize(v);
  if (r.ok) return r.value;
  notes.value(at.id, at.key, `does not parse as PHP serialized data (${r.error}); left out`);
  return undefined;
}

/**
 * A list meta value as either writer stored it: PHP serialized (update_post_meta with an array) or JSON text (the
 * plugin's admin screens save some lists with wp_json_encode). Unreadable → reported and read as nothing.
 */
export function listMeta(v: string | undefined, at: ValueAt, notes: Notes): PhpValue[] {
  if (v === undefined || v.trim() === '') return [];
  const s = v.trim();
  let parsed: unknown;
  if (s.startsWith('[') || s.startsWith('{')) {
    try {
      parsed = JSON.parse(s) as unknown;
    } catch {
      notes.value(at.id, at.key, 'looks like JSON but does not parse; left out');
      return [];
    }
  } else {
    const r = maybeUnserialize(s);
    if (!r.ok) {
      notes.value(at.id, at.key, `neither JSON nor PHP serialized data (${r.error}); left out`);
      return [];
    }
    parsed = r.value;
    // a JSON text stored inside a serialized string (update_post_meta of wp_json_encode output through maybe_serialize)
    if (typeof parsed === 'string' && /^\s*[[{]/.test(parsed)) return listMeta(parsed, at, notes);
  }
  if (Array.isArray(parsed)) return parsed as PhpValue[];
  if (parsed !== null && typeof parsed === 'object') return Object.values(parsed as Record<string, PhpValue>);
  notes.value(
    at.id,
    at.key,
    `holds ${typeof parsed === 'string' ? 'a single text' : String(parsed)}, not a list; left out`,
  );
  return [];
}

/** A PHP array of strings (a list or the values of a record). */
export function stringList(v: PhpValue | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.trim() ? [v] : [];
  if (typeof v !== 'object') return [String(v)];
  return Object.values(v)
    .filter((x) => typeof x === 'string' || typeof x === 'number')
    .map((x) => String(x));
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) → ISO 8601; null for WordPress's zero date. */
export function gmtIso(s: string): string | null {
  if (!s || s.startsWith('0000-00-00')) return null;
  const d = new Date(s.replace(' ', 'T') + 'Z');
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export const isRecord = (v: PhpValue | undefined): v is Record<string, PhpValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
