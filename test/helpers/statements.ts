import pg from 'pg';

/** Every statement text this process sends to PostgreSQL (any pool, any node) while `fn` runs, whitespace folded. */
export async function statementsDuring(fn: () => Promise<void>): Promise<string[]> {
  return (await statementsByConnectionDuring(fn)).map((s) => s.text);
}

export interface SentStatement {
  /** Which connection sent it (numbered in order of first use): a transaction's statements share one. */
  connection: number;
  text: string;
}

/** As statementsDuring, with the connection each statement went over. */
export async function statementsByConnectionDuring(fn: () => Promise<void>): Promise<SentStatement[]> {
  const orig = pg.Client.prototype.query;
  const seen: SentStatement[] = [];
  const ids = new Map<pg.Client, number>();
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    if (!ids.has(this)) ids.set(this, ids.size + 1);
    seen.push({
      connection: ids.get(this)!,
      text: (typeof q === 'string' ? q : (q as { text: string }).text).replace(/\s+/g, ' ').trim(),
    });
    return (orig as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof orig;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = orig;
  }
  return seen;
}
