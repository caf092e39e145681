import { randomBytes } from 'node:crypto';
import type { Transients } from '../../../platform/kv/transients.js';
import { RentalErrors } from '../errors.js';

/** Transient key of the history (one JSON array, newest first). */
export const HISTORY_KEY = 'rova_export_history';
export const HISTORY_MAX = 50;
export const HISTORY_TTL_SECONDS = 7 * 24 * 3600;

export interface HistoryEntry {
  /** Random (`exp_` + 16 url-safe characters): two runs in the same second never share an id. */
  id: string;
  /** When the run started (ISO-8601 UTC). */
  date: string;
  type: string;
  format: string;
  filename: string;
  records: number;
  bytes: number;
  /** SHA-256 (hex) of exactly the bytes sent (BOM included); of the partial file when the run failed. */
  sha256: string;
  status: 'completed' | 'failed';
  /** Why a run failed (null when it completed). */
  error: string | null;
  /** Who ran it (null = the `rova export` CLI). */
  user_id: number | null;
  filters: Record<string, unknown>;
  /** When the entry is dropped (date + 1 week). */
  expires_at: string;
}

export const newEntryId = (): string => 'exp_' + randomBytes(12).toString('base64url');

const alive = (list: HistoryEntry[] | undefined, now: Date): HistoryEntry[] =>
  (Array.isArray(list) ? list : []).filter((e) => Date.parse(e.expires_at) > now.getTime());

/** The transient lives as long as its longest-lived entry (not refreshed by a delete). */
const ttlFor =
  (now: Date) =>
  (list: HistoryEntry[]): number =>
    Math.max(1, Math.ceil((Math.max(...list.map((e) => Date.parse(e.expires_at))) - now.getTime()) / 1000));

export function expiryOf(date: Date): string {
  return new Date(date.getTime() + HISTORY_TTL_SECONDS * 1000).toISOString();
}

/** Adds an entry (the list stays sorted by start date, newest first); beyond 50 the oldest go. Atomic: concurrent runs all land. */
export async function addHistory(store: Transients, entry: HistoryEntry, now: Date): Promise<void> {
  const newestFirst = (a: HistoryEntry, b: HistoryEntry) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0);
  await store.update<HistoryEntry[]>(
    HISTORY_KEY,
    (cur) => [entry, ...alive(cur, now)].sort(newestFirst).slice(0, HISTORY_MAX),
    ttlFor(now),
  );
}

/** Live entries, newest first. */
export async function listHistory(store: Transients, now: Date): Promise<HistoryEntry[]> {
  return alive(await store.get<HistoryEntry[]>(HISTORY_KEY), now);
}

/** Removes one entry by id; unknown, expired or not `visible` to the caller → 404. */
export async function deleteHistory(
  store: Transients,
  id: string,
  now: Date,
  visible: (e: HistoryEntry) => boolean = () => true,
): Promise<void> {
  await store.update<HistoryEntry[]>(
    HISTORY_KEY,
    (cur) => {
      const list = alive(cur, now);
      const rest = list.filter((e) => e.id !== id || !visible(e));
      if (rest.length === list.length) throw RentalErrors.notFound('Export entry not found.');
      return rest.length ? rest : undefined;
    },
    ttlFor(now),
  );
}
