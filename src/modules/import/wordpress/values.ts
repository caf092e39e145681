import { maybeUnserialize, type PhpValue } from './php-unserialize.js';
import type { Notes, Subject } from './report.js';

/** Small readers for WordPress meta text, shared by the mappers (pure). */

/**
 * A decimal string ("19.99"), null when empty; a value that is not a non-negative number is reported (`at`: the
 * record, named as the warning line names the amount, and its key) and dropped.
 */
export function decimalOrNull(v: string | undefined, at: Subject, notes: Notes): string | null {
  const s = (v ?? '').trim().replace(',', '.');
  if (s === '') return null;
  if (!/^\d+(\.\d+)?$/.test(s)) {
    notes.warn(at, 'unreadable', `"${shown(v ?? '')}" is not a price, left empty`);
    return null;
  }
  return s;
}

/** Where a value comes from: the WordPress record's id and the meta key (or option, column). */
export interface ValueAt {
  id: number | string;
  key: string;
}

/** A value as a note may quote it: short, one line (a 10 MB value is not quoted whole). */
export const shown = (v: string, max = 40): string => {
  const one = [...v.slice(0, max)].map((ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch)).join('');
  return v.length > max ? `${one}…` : one;
};

/**
 * A whole number stored as text ("4", "2019", "5.000"), null when empty. Anything else is reported with the record's
 * id and key (`at`) and read as empty: never a silent empty value.
 */
export function intOrNull(v: string | undefined, at: ValueAt, notes: Notes): number | null {
  const s = (v ?? '').trim();
  if (s === '') return null;
  if (/^-?\d{1,15}(\.0*)?$/.test(s)) return Math.trunc(Number(s));
  notes.value(at.id, at.key, 'unreadable', `"${shown(s)}" is not a whole number; left empty`);
  return null;
}

/** A meta value that PHP serialized (arrays), parsed; a value that does not parse is reported (id, key, reason) and left out. */
export function phpMeta(v: string | undefined, at: ValueAt, notes: Notes): PhpValue | undefined {
  if (v === undefined) return undefined;
  const r = maybeUnserialize(v);
  if (r.ok) return r.value;
  notes.value(at.id, at.key, 'unreadable', `does not parse as PHP serialized data (${r.error}); left out`);
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
      notes.value(at.id, at.key, 'unreadable', 'looks like JSON but does not parse; left out');
      return [];
    }
  } else {
    const r = maybeUnserialize(s);
    if (!r.ok) {
      notes.value(at.id, at.key, 'unreadable', `neither JSON nor PHP serialized data (${r.error}); left out`);
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
    'unreadable',
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
