import { sql, type SQL } from 'drizzle-orm';
import { minorDigits } from '../../ledger/money.js';

/** Currencies whose minor unit is not the cent (ISO 4217 via Intl: JPY 0, KWD 3, …), grouped by digits. */
const NOT_CENTS: ReadonlyMap<number, string[]> = (() => {
  const m = new Map<number, string[]>();
  for (const c of Intl.supportedValuesOf('currency')) {
    const d = minorDigits(c);
    if (d !== 2) m.set(d, [...(m.get(d) ?? []), c]);
  }
  return m;
})();

/**
 * Ledger amounts are integer minor units; files show them as decimal numbers in the currency's own unit,
 * divided exactly in `numeric` (a 'number' column renders the numeric as text, so nothing is rounded).
 */
export function majorUnits(minor: SQL, currency: SQL): SQL {
  const cases = [...NOT_CENTS].map(
    ([d, codes]) =>
      sql`WHEN ${currency} IN (${sql.join(
        codes.map((c) => sql`${c}`),
        sql`, `,
      )}) THEN ${d}`,
  );
  return sql`((${minor})::numeric / power(10::numeric, CASE ${sql.join(cases, sql` `)} ELSE 2 END))`;
}
