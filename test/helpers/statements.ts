import pg from 'pg';

/** Every statement text this process sends to PostgreSQL (any pool, any node) while `fn` runs, whitespace folded. */
export async function statementsDuring(fn: () => Promise<void>): Promise<string[]> {
  const orig = pg.Client.prototype.query;
  const seen: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    seen.push((typeof q === 'string' ? q : (q as { text: string }).text).replace(/\s+/g, ' ').trim());
    return (orig as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof orig;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = orig;
  }
  return seen;
}
