import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../platform/db/types.js';
import type { CurrencyRow } from './types.js';

export type NoticeKind = 'anomaly' | 'fragments';

/**
 * Reads platform options straight from the table (writes go through platform.options so every node's cache
 * is dropped); the currency view must never see a value cached before a concurrent write.
 */
export async function readOptions(db: Db, names: string[]): Promise<Map<string, unknown>> {
  const r = await rows<{ name: string; value: unknown }>(
    db,
    sql`SELECT name, value FROM rova_options WHERE name IN (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )})`,
  );
  return new Map(r.map((x) => [x.name, x.value]));
}

export async function loadCurrencies(db: Db): Promise<CurrencyRow[]> {
  const r = await rows<{ data: CurrencyRow }>(db, sql`SELECT data FROM rova_fx_currencies ORDER BY position, code`);
  return r.map((x) => x.data);
}

/** Replaces the whole list (rows not given are removed). Run inside a transaction. */
export async function replaceCurrencies(tx: Db, list: CurrencyRow[]): Promise<void> {
  await tx.execute(sql`DELETE FROM rova_fx_currencies`);
  for (const [i, row] of list.entries()) {
    await tx.execute(
      sql`INSERT INTO rova_fx_currencies (code, position, data) VALUES (${row.code}, ${i}, ${JSON.stringify(row)}::jsonb)`,
    );
  }
}

/** Updates the rows' data in place (rate sync), keeping their positions. */
export async function updateCurrencies(tx: Db, list: CurrencyRow[]): Promise<void> {
  for (const row of list) {
    await tx.execute(
      sql`UPDATE rova_fx_currencies SET data = ${JSON.stringify(row)}::jsonb, updated_at = now() WHERE code = ${row.code}`,
    );
  }
}

export async function snoozesOf(db: Db, userId: number): Promise<Map<NoticeKind, string>> {
  const r = await rows<{ kind: NoticeKind; signature: string }>(
    db,
    sql`SELECT kind, signature FROM rova_fx_snoozes WHERE user_id = ${userId}`,
  );
  return new Map(r.map((x) => [x.kind, x.signature]));
}

export async function saveSnooze(db: Db, userId: number, kind: NoticeKind, signature: string): Promise<void> {
  await db.execute(sql`INSERT INTO rova_fx_snoozes (user_id, kind, signature) VALUES (${userId}, ${kind}, ${signature})
    ON CONFLICT (user_id, kind) DO UPDATE SET signature = EXCLUDED.signature, created_at = now()`);
}

export async function dropSnoozes(db: Db, kind: NoticeKind): Promise<void> {
  await db.execute(sql`DELETE FROM rova_fx_snoozes WHERE kind = ${kind}`);
}
