import { createHash } from 'node:crypto';
import type { Db } from '../../../platform/db/types.js';
import { DomainError } from '../../../platform/domain-error.js';
import { isAccountCode, type LedgerKind } from './accounts.js';
import { entriesOfTx, insertEntry, insertTx, lockAccounts, txByKey, type EntryRow, type LedgerTxRow } from './repo.js';

export interface LedgerLine {
  /** Account code, e.g. `vendor:12:available`. */
  account: string;
  /** Signed integer minor units (debit/credit by sign); the lines of one transaction sum to 0. */
  amount: number;
}

/** The transaction kinds that settle one income credit (`settles`, links.ts): a clearing and a commission refund. */
export const SETTLING_KINDS: ReadonlySet<string> = new Set(['commission_clearing', 'commission_refund']);

export interface PostLedgerInput {
  /** Unique per money movement: a retry with the same key and the same request answers the original. */
  key: string;
  kind: LedgerKind;
  vendorId: number | null;
  reference: string | null;
  currency: string;
  lines: LedgerLine[];
  memo?: Record<string, unknown>;
  /**
   * The commission transaction a clearing or a commission refund acts on (required for those two kinds, see
   * links.ts). Not part of the request hash: rows written before the link existed replay as they are.
   */
  settles?: number;
  /** Back-dated instant (demo data, tests); default now. */
  at?: string;
}

export interface PostedLedgerTx {
  transaction: LedgerTxRow;
  entries: EntryRow[];
  /** True when the key existed with the same request: nothing was written. */
  replayed: boolean;
}

/** Sums the lines per account (one entry per account) and drops accounts that net to zero. */
function normalise(lines: LedgerLine[]): LedgerLine[] {
  const by = new Map<string, number>();
  for (const l of lines) {
    if (!isAccountCode(l.account)) throw new Error(`unknown ledger account ${l.account}`);
    if (!Number.isSafeInteger(l.amount)) throw new Error(`ledger amounts are integer minor units (got ${l.amount})`);
    by.set(l.account, (by.get(l.account) ?? 0) + l.amount);
  }
  return [...by]
    .filter(([, a]) => a !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([account, amount]) => ({ account, amount }));
}

function requestHash(i: PostLedgerInput, lines: LedgerLine[]): string {
  const canonical = JSON.stringify({
    kind: i.kind,
    vendor: i.vendorId,
    reference: i.reference,
    currency: i.currency,
    lines,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The ONE function every money movement goes through (design §6). Call it inside the transaction of the business
 * change it belongs to. It writes one balanced transaction: accounts created on first use and locked in id
 * order, entries appended, cached balances moved in the same statement sequence. Idempotent by `key`: the same
 * key with the same request answers the original without writing; the same key with another request → 409.
 * The database re-checks the balance at commit (deferred constraint trigger) and refuses any UPDATE/DELETE.
 */
export async function postLedgerTransaction(tx: Db, input: PostLedgerInput): Promise<PostedLedgerTx> {
  const lines = normalise(input.lines);
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  if (lines.length < 2 || sum !== 0)
    throw new Error(`ledger transaction ${input.key} does not balance (sum ${sum}, ${lines.length} lines)`);
  const hash = requestHash(input, lines);
  const existing = await txByKey(tx, input.key);
  if (existing) return replay(tx, existing, hash);
  // only clearings and commission refunds settle a credit; one that names none is what `rova verify` reports
  if (input.settles !== undefined && !SETTLING_KINDS.has(input.kind))
    throw new Error(`ledger transaction ${input.key}: a ${input.kind} settles no credit`);
  const accounts = await lockAccounts(
    tx,
    lines.map((l) => l.account),
    input.currency,
  );
  const created = await insertTx(tx, {
    idempotency_key: input.key,
    request_hash: hash,
    kind: input.kind,
    vendor_id: input.vendorId,
    reference: input.reference,
    memo: input.memo ?? {},
    currency: input.currency,
    settles_tx_id: input.settles ?? null,
    created_at: input.at,
  });
  // a concurrent writer committed the same key between our check and insert
  if (!created) return replay(tx, (await txByKey(tx, input.key))!, hash);
  for (const l of lines)
    await insertEntry(tx, Number(created.id), Number(accounts.get(l.account)!.id), l.amount, input.at ?? null);
  return { transaction: created, entries: await entriesOfTx(tx, Number(created.id)), replayed: false };
}

/** A movement posted under a key that already names a different movement: nothing was written. */
export class LedgerKeyReused extends DomainError {
  constructor(readonly key: string) {
    super(`Ledger idempotency key ${key} was already used for a different movement.`);
  }
}

async function replay(tx: Db, existing: LedgerTxRow, hash: string): Promise<PostedLedgerTx> {
  if (existing.request_hash !== hash) {
    throw new LedgerKeyReused(existing.idempotency_key);
  }
  return { transaction: existing, entries: await entriesOfTx(tx, Number(existing.id)), replayed: true };
}
