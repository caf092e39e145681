import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { PaymentRow } from '../bookings/create/repo.js';

/** What a payment still asks of its provider (migration 0680): start its intent, or cancel a stale one. */
export type ProviderAction = 'start' | 'cancel';

/** A claimed piece of provider work: the payment, its booking's reference, and the attempt it is. */
export interface ProviderWork {
  id: number;
  booking_id: number;
  provider: string;
  external_id: string | null;
  amount: string;
  currency: string;
  reference: string;
  attempts: number;
}

/** Stripe keeps an idempotency key 24 hours: a start is retried with its key only well within that. */
export const START_RETRY_HOURS = 23;

const STATUS_OF: Record<ProviderAction, string> = { start: 'pending', cancel: 'cancelled' };

/**
 * Claims payments whose provider work is due (or the given ids, due or not): each claim moves its next attempt into
 * the future and counts the attempt first, so two nodes, or a job and a request, never call the provider for the
 * same payment at once — and a payment superseded while its start is under way knows the start was tried.
 */
export async function claimProviderWork(
  db: Db,
  action: ProviderAction,
  ids: readonly number[] | null,
  backoffSeconds: (attempts: number) => number,
): Promise<ProviderWork[]> {
  if (ids && ids.length === 0) return [];
  const status = STATUS_OF[action];
  const candidates = await rows<{ id: number; attempts: number }>(
    db,
    ids
      ? sql`SELECT id::int AS id, provider_attempts AS attempts FROM rental_payments
          WHERE provider_action = ${action} AND status = ${status} AND id IN (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )}) ORDER BY id`
      : sql`SELECT id::int AS id, provider_attempts AS attempts FROM rental_payments
          WHERE provider_action = ${action} AND status = ${status} AND provider_next_at <= now()
            AND (${action} = 'cancel' OR created_at > now() - ${START_RETRY_HOURS}::int * interval '1 hour')
          ORDER BY provider_next_at, id LIMIT 100`,
  );
  const out: ProviderWork[] = [];
  for (const c of candidates) {
    const claimed = await one<ProviderWork>(
      db,
      sql`UPDATE rental_payments x SET provider_attempts = x.provider_attempts + 1,
        provider_next_at = now() + ${backoffSeconds(c.attempts + 1)}::int * interval '1 second'
      FROM rental_bookings b
      WHERE x.id = ${c.id} AND x.provider_action = ${action} AND x.status = ${status} AND x.provider_attempts = ${c.attempts} AND b.id = x.booking_id
      RETURNING x.id::int AS id, x.booking_id::int AS booking_id, x.provider, x.external_id, x.amount::text AS amount, x.currency,
        b.reference, x.provider_attempts AS attempts`,
    );
    if (claimed) out.push(claimed);
  }
  return out;
}

/** The provider started the payment: its intent's id; a start is done (a cancel asked meanwhile stays asked). */
export async function markStarted(db: Db, id: number, externalId: string | undefined): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET external_id = COALESCE(${externalId ?? null}, external_id),
    provider_action = CASE WHEN provider_action = 'start' THEN NULL ELSE provider_action END, provider_error = NULL, updated_at = now()
    WHERE id = ${id}`);
}

/** The cancel is done (or there was nothing left to cancel). */
export async function markCancelDone(db: Db, id: number): Promise<void> {
  await db.execute(
    sql`UPDATE rental_payments SET provider_action = NULL, provider_error = NULL, updated_at = now() WHERE id = ${id} AND provider_action = 'cancel'`,
  );
}

export async function markProviderFailed(db: Db, id: number, error: string): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET provider_error = ${error.slice(0, 500)} WHERE id = ${id}`);
}

/** Starts not made within the key's lifetime stop being retried; the customer's "pay the rest" asks afresh. */
export async function abandonOldStarts(db: Db): Promise<number> {
  const r = await rows<{ id: number }>(
    db,
    sql`UPDATE rental_payments SET provider_action = NULL,
      provider_error = 'not started within ' || ${START_RETRY_HOURS}::int || ' hours; asked again from the booking'
    WHERE provider_action = 'start' AND status = 'pending' AND created_at <= now() - ${START_RETRY_HOURS}::int * interval '1 hour'
    RETURNING id::int AS id`,
  );
  return r.length;
}

/**
 * Nothing is asked through these payments any more (in the deciding transaction, under the booking lock): status
 * `cancelled`; one that reached its provider — an intent exists, or a start was tried and may have made one — is
 * to be cancelled there (after commit, and by the journey job until it is). Returns the ids to cancel.
 */
export async function supersedePayments(tx: Db, pays: readonly PaymentRow[]): Promise<number[]> {
  const ids = pays.filter((x) => x.status === 'pending').map((x) => x.id);
  if (ids.length === 0) return [];
  const r = await rows<{ id: number; provider_action: string | null }>(
    tx,
    sql`UPDATE rental_payments SET status = 'cancelled',
      provider_action = CASE WHEN provider <> 'offline' AND (external_id IS NOT NULL OR provider_attempts > 0) THEN 'cancel' END,
      provider_attempts = 0, provider_next_at = now(), provider_error = NULL, updated_at = now()
    WHERE id IN (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )}) AND status = 'pending' RETURNING id::int AS id, provider_action`,
  );
  return r.filter((x) => x.provider_action === 'cancel').map((x) => x.id);
}

/** A provider payment never started whose idempotency key Stripe may have forgotten: it cannot be retried safely. */
export async function unstartedPastKeyLife(db: Db, id: number): Promise<boolean> {
  const r = await one<{ old: boolean }>(
    db,
    sql`SELECT (provider <> 'offline' AND external_id IS NULL AND created_at <= now() - ${START_RETRY_HOURS}::int * interval '1 hour') AS old
    FROM rental_payments WHERE id = ${id}`,
  );
  return r?.old ?? false;
}

/** A start made outside the provider work (a new booking's first payment) was tried: its intent may exist. */
export async function countStartTried(db: Db, id: number): Promise<void> {
  await db.execute(sql`UPDATE rental_payments SET provider_attempts = provider_attempts + 1 WHERE id = ${id}`);
}
