/**
 * The SQLSTATE of a database error from either driver (node-postgres or PGlite), bare or wrapped by Drizzle (the
 * driver's error is then a `cause`): the first five-character code along the chain, within a few links.
 */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
