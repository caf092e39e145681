import { keyedHash, safeEqual } from '../../../../platform/auth/crypto.js';
import { invalidField } from '../../errors.js';

/** A card's place in a sort order: compared element by element (numbers numerically, strings by localeCompare). */
export type SortKey = (number | string)[];

export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (c !== 0) return c;
  }
  return 0;
}

/** What binds a cursor: the filters and sort (not page size or display currency), so it cannot be replayed elsewhere. */
export function queryFingerprint(q: Record<string, unknown>): string {
  const kept = Object.entries(q)
    .filter(([k, v]) => v !== undefined && !['cursor', 'page', 'per_page', 'currency'].includes(k))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(kept);
}

/**
 * Opaque keyset cursor: the sort key of the last card returned, tied to the query, signed (HMAC with the
 * server secret) so clients cannot forge positions. Walking cursors gives each match exactly once even when
 * cards are added or removed meanwhile (results continue strictly after the last key seen).
 */
export function encodeCursor(secret: string, fingerprint: string, key: SortKey): string {
  const body = Buffer.from(JSON.stringify({ v: 1, k: key })).toString('base64url');
  return `${body}.${keyedHash(secret, `${fingerprint}\0${body}`, 'search-cursor').slice(0, 32)}`;
}

export function decodeCursor(secret: string, fingerprint: string, cursor: string): SortKey {
  const bad = (why: string) =>
    invalidField('cursor', `Invalid cursor: ${why}. Use next_cursor from a search with the same filters and sort.`);
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined) throw bad('malformed');
  if (!safeEqual(mac, keyedHash(secret, `${fingerprint}\0${body}`, 'search-cursor').slice(0, 32)))
    throw bad('not issued for this query');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad('malformed');
  }
  const k = (parsed as { k?: unknown }).k;
  if (!Array.isArray(k) || !k.every((x) => typeof x === 'number' || typeof x === 'string')) throw bad('malformed');
  return k as SortKey;
}
