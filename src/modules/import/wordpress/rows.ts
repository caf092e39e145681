import { isDatabaseUnavailable } from '../../../platform/db/outage.js';
import { sqlStateOf } from '../../../platform/db/sqlstate.js';
import type { Db } from '../../../platform/db/types.js';
import type { StepContext } from './context.js';
import type { NoteCode, Notes } from './report.js';

/**
 * One record at a time, each on its own: a record Rova cannot take (a value out of range, a text PostgreSQL refuses)
 * is skipped with its WordPress id and the reason, and the others go on. Without this, one bad value stopped the
 * whole import, at the same place on every re-run, and the error carried the whole row.
 */

/** The longest text the import takes in one field (a product description is far shorter; a 10 MB SKU is not data). */
export const MAX_TEXT = 1_000_000;

/** Why a record was refused, said without any of its values. */
export class RefusedValue extends Error {
  constructor(
    readonly code: NoteCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Cleans the strings of a mapped row in place, where that is safe: NUL characters (PostgreSQL text cannot hold them)
 * are removed and noted; a text over MAX_TEXT refuses the record (nothing of it is cut silently).
 */
export function cleanRow(row: object, id: number | string, notes: Notes): void {
  const walk = (v: unknown, path: string, set: (x: string) => void): void => {
    if (typeof v === 'string') {
      if (v.length > MAX_TEXT)
        throw new RefusedValue(
          'too_long',
          `${path} is ${v.length} characters long (the import takes at most ${MAX_TEXT})`,
        );
      if (v.includes('\u0000')) {
        set(v.replaceAll('\u0000', ''));
        notes.value(id, path, 'cleaned', 'NUL characters removed');
      }
      return;
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, (s) => (v[i] = s)));
    else if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
      for (const [k, x] of Object.entries(v))
        walk(x, path ? `${path}.${k}` : k, (s) => ((v as Record<string, unknown>)[k] = s));
    }
  };
  walk(row, '', () => undefined);
}

/** What PostgreSQL said, without the statement or its parameters: SQLSTATE and the server's own sentence. */
function refusal(err: unknown): string {
  let e: unknown = err;
  let said = '';
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++, e = (e as { cause?: unknown }).cause) {
    const m = (e as { message?: unknown }).message;
    // PostgreSQL ends some sentences with the value it refused (`invalid input syntax for type integer: "…"`)
    if (typeof m === 'string' && !m.startsWith('Failed query:'))
      said = m.replace(/: ".*$/s, ': (the value is not shown)');
  }
  const state = sqlStateOf(err);
  return `Rova's database refused it${state ? ` (SQLSTATE ${state})` : ''}${said ? `: ${said.split('\n')[0]!.slice(0, 200)}` : ''}`;
}

export type RowOutcome = 'created' | 'updated' | null;

/** Notes why record `id` is skipped; importRows then counts nothing for it. */
export function skip(c: Pick<StepContext, 'notes'>, id: number | string, code: NoteCode, reason: string): RowOutcome {
  c.notes.skip(id, code, reason);
  return null;
}

/**
 * Writes each record through `write` (inside a savepoint: a refused statement undoes only that record), counting it
 * as created or updated, or skipping it when `write` returns null (it noted why) or when the record cannot be stored.
 * A lost connection still stops the run: that is not about one record.
 */
export async function importRows<R extends object>(
  c: StepContext,
  list: readonly R[],
  idOf: (r: R) => number | string,
  write: (r: R, tx: Db) => Promise<RowOutcome>,
): Promise<void> {
  for (const [i, r] of list.entries()) {
    const id = idOf(r);
    let outcome: RowOutcome;
    try {
      cleanRow(r, id, c.notes);
      outcome = await c.tx.transaction((sp) => write(r, sp));
    } catch (err) {
      if (err instanceof RefusedValue) {
        c.notes.skip(id, err.code, err.message);
        continue;
      }
      if (isDatabaseUnavailable(err) || sqlStateOf(err) === undefined) throw err;
      c.notes.skip(id, 'refused', refusal(err));
      continue;
    }
    if (outcome !== null) c.rep[outcome]++;
    c.tick(i + 1, list.length);
  }
}
