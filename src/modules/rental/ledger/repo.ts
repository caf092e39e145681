import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { vendorOfAccount, type LedgerKind } from './accounts.js';

export interface LedgerTxRow {
  id: string | number;
  idempotency_key: string;
  request_hash: string;
  kind: LedgerKind;
  vendor_id: string | number | null;
  reference: string | null;
  memo: Record<string, unknown>;
  currency: string;
  /** The commission transaction this clearing or refund acts on (links.ts); null for every other kind. */
  settles_tx_id: string | number | null;
  created_at: string;
}

export interface AccountRow {
  id: string | number;
  code: string;
  vendor_id: string | number | null;
  currency: string;
  balance: string | number;
}

export async function txByKey(db: Db, key: string): Promise<LedgerTxRow | undefined> {
  return one<LedgerTxRow>(db, sql`SELECT * FROM ledger_transactions WHERE idempotency_key = ${key}`);
}

export async function txById(db: Db, id: number): Promise<LedgerTxRow | undefined> {
  return one<LedgerTxRow>(db, sql`SELECT * FROM ledger_transactions WHERE id = ${id}`);
}

/** Inserts the transaction unless its key exists (then undefined: a concurrent or earlier writer won). */
export async function insertTx(
  db: Db,
  t: Omit<LedgerTxRow, 'id' | 'created_at'> & { created_at?: string },
): Promise<LedgerTxRow | undefined> {
  return one<LedgerTxRow>(
    db,
    sql`INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, vendor_id, reference, memo, currency, settles_tx_id, created_at)
    VALUES (${t.idempotency_key}, ${t.request_hash}, ${t.kind}, ${t.vendor_id}, ${t.reference}, ${JSON.stringify(t.memo)}::jsonb, ${t.currency},
            ${t.settles_tx_id}, coalesce(${t.created_at ?? null}::timestamptz, now()))
    ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
  );
}

/** Creates missing accounts, then locks all of them in id order (concurrent writers never deadlock). */
export async function lockAccounts(db: Db, codes: string[], currency: string): Promise<Map<string, AccountRow>> {
  const sorted = [...new Set(codes)].sort();
  for (const code of sorted) {
    await db.execute(sql`INSERT INTO ledger_accounts (code, vendor_id, currency) VALUES (${code}, ${vendorOfAccount(code)}, ${currency})
      ON CONFLICT (code) DO NOTHING`);
  }
  const list = sql.join(
    sorted.map((c) => sql`${c}`),
    sql`, `,
  );
  const locked = await rows<AccountRow>(
    db,
    sql`SELECT * FROM ledger_accounts WHERE code IN (${list}) ORDER BY id FOR UPDATE`,
  );
  return new Map(locked.map((a) => [a.code, a]));
}

export async function insertEntry(
  db: Db,
  txId: number,
  accountId: number,
  amount: number,
  at: string | null,
): Promise<void> {
  await db.execute(sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at)
    VALUES (${txId}, ${accountId}, ${amount}, coalesce(${at}::timestamptz, now()))`);
  await db.execute(sql`UPDATE ledger_accounts SET balance = balance + ${amount} WHERE id = ${accountId}`);
}

export interface EntryRow {
  id: string | number;
  transaction_id: string | number;
  account_id: string | number;
  code: string;
  amount: string | number;
  created_at: string;
}

export async function entriesOfTx(db: Db, txId: number): Promise<EntryRow[]> {
  return rows<EntryRow>(
    db,
    sql`SELECT e.id, e.transaction_id, e.account_id, a.code, e.amount, e.created_at
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.transaction_id = ${txId} ORDER BY e.id`,
  );
}

/** Cached balances of account codes (0 for accounts never used). */
export async function balancesOf(db: Db, codes: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>(codes.map((c) => [c, 0]));
  if (codes.length === 0) return out;
  const list = sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );
  for (const r of await rows<{ code: string; balance: string }>(
    db,
    sql`SELECT code, balance FROM ledger_accounts WHERE code IN (${list})`,
  )) {
    out.set(r.code, Number(r.balance));
  }
  return out;
}

export interface VerifyRow {
  id: string | number;
  code: string;
  cached: string;
  computed: string;
}

/** Accounts whose cached balance differs from the sum of their entries. */
export async function balanceMismatches(db: Db): Promise<VerifyRow[]> {
  return rows<VerifyRow>(
    db,
    sql`SELECT a.id, a.code, a.balance::text AS cached, coalesce(s.total, 0)::text AS computed
    FROM ledger_accounts a LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
    WHERE a.balance <> coalesce(s.total, 0) ORDER BY a.id`,
  );
}

/** Transactions whose entries do not sum to 0 or that have fewer than two entries. */
export async function unbalancedTransactions(db: Db): Promise<{ id: string; entries: string; total: string }[]> {
  return rows(
    db,
    sql`SELECT t.id::text AS id, count(e.id)::text AS entries, coalesce(sum(e.amount), 0)::text AS total
    FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
    GROUP BY t.id HAVING count(e.id) < 2 OR coalesce(sum(e.amount), 0) <> 0 ORDER BY t.id`,
  );
}

export async function ledgerCounts(db: Db): Promise<{ accounts: number; transactions: number; entries: number }> {
  const r = await one<{ a: string; t: string; e: string }>(
    db,
    sql`SELECT (SELECT count(*) FROM ledger_accounts)::text AS a,
    (SELECT count(*) FROM ledger_transactions)::text AS t, (SELECT count(*) FROM ledger_entries)::text AS e`,
  );
  return { accounts: Number(r?.a ?? 0), transactions: Number(r?.t ?? 0), entries: Number(r?.e ?? 0) };
}
