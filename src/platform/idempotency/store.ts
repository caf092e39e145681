import { createHash, randomUUID } from 'node:crypto';
import type { SecretBox } from '../auth/secret-box.js';
import { untilAnswered } from '../db/answered.js';
import type { Db } from '../db/types.js';
import { HttpErrors, type ErrorKind } from '../http/errors.js';
import { RovaErrors } from '../errors.js';
import {
  commitKey,
  dropExpiredKey,
  finishKey,
  insertRunningKey,
  purgeExpiredKeys,
  readKey,
  releaseKey,
  settleFailedKey,
  takeOverAbandonedKey,
  type KeyRef,
  type Lease,
} from './repo.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a request holds its key while it runs (the request timeout). A key still `running` after that belongs to
 * a request that died (its database failed, its process crashed) or gave up: the next request with it takes over.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentAnswer {
  status: number;
  body: unknown;
}

export interface StoredAnswer extends IdempotentAnswer {
  replayed: boolean;
}

/**
 * The key as the run holds it. A run that commits its effect in a transaction tells the key so inside that
 * transaction: then "committed but the key not marked" cannot happen, and a request taking over the key after a
 * crash never does the work twice.
 */
export interface IdempotencyClaim {
  /** False when the request sent no key: commit and release do nothing, so a run may skip making room for them. */
  readonly keyed: boolean;
  /**
   * Inside the transaction that commits the run's effect: the key commits with it, with `answer` as the answer to
   * replay should the rest of the run never finish. When the key was taken over meanwhile (this request outlived its
   * lease) it throws 409 `idempotency_key_in_flight`, so the transaction rolls back and the effect happens once.
   */
  commit(tx: Db, answer: IdempotentAnswer): Promise<void>;
  /** Inside the transaction that undoes the committed effect again: the key is free, a retry runs afresh. */
  release(tx: Db): Promise<void>;
}

export interface IdempotencyOptions {
  /** The lease (default IDEMPOTENCY_LEASE_MS). */
  leaseMs?: number;
  /**
   * Answers that carry a secret shown once (an API key, a signing secret) are kept sealed with this box: the key's
   * row holds no secret a database reader could use, and a replay still gives the client the secret it lost.
   */
  seal?: SecretBox;
  /** The namespace's error codes: `rental` (default) or WordPress's (`rest_invalid_param`, `rova_…`). */
  errors?: 'rental' | 'wp';
  /**
   * How long the final answer's mark is sent again while the database does not answer it (the node's
   * DATABASE_COMMIT_OUTCOME_WAIT_MS; default 10 s): a mark lost with its connection would leave the key `running`,
   * and once its lease ran out a retry would run the request again.
   */
  answerWaitMs?: number;
}

const NO_KEY: IdempotencyClaim = { keyed: false, commit: async () => undefined, release: async () => undefined };

/** The errors of each flavour: the rental namespaces' (their default codes INVALID_PARAMS, STATE_CONFLICT) or rova/v1's. */
const KINDS: Record<'rental' | 'wp', { invalid: ErrorKind; conflict: ErrorKind; mismatch: ErrorKind }> = {
  rental: {
    invalid: HttpErrors.badRequest,
    conflict: HttpErrors.conflict,
    mismatch: HttpErrors.idempotencyKeyMismatch,
  },
  wp: {
    invalid: HttpErrors.invalidParam,
    conflict: RovaErrors.idempotencyKeyInFlight,
    mismatch: RovaErrors.idempotencyKeyMismatch,
  },
};

const inFlight = (kinds: (typeof KINDS)['rental' | 'wp']) =>
  kinds.conflict('A request with this Idempotency-Key is still being processed.', {
    reason: 'idempotency_key_in_flight',
  });

/** The answer as the key's row keeps it: sealed (bound to its scope and key) when the answers carry a secret. */
function keptAs(answer: IdempotentAnswer, ref: KeyRef, box: SecretBox | undefined): IdempotentAnswer {
  if (!box) return answer;
  return {
    status: answer.status,
    body: { sealed: box.seal(JSON.stringify(answer.body), `${ref.scope}\u0000${ref.key}`) },
  };
}

function replayed(body: unknown, ref: KeyRef, box: SecretBox | undefined): unknown {
  if (!box) return body;
  const sealed = (body as { sealed?: unknown } | null)?.sealed;
  if (typeof sealed !== 'string') throw new Error('an idempotent answer kept sealed is not sealed');
  return JSON.parse(box.reveal(sealed, `${ref.scope}\u0000${ref.key}`)) as unknown;
}

function fingerprint(body: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, canon(x)]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(body ?? null)))
    .digest('hex');
}

/**
 * Idempotency-Key (IETF draft semantics): the first request with a key runs and its answer is stored for 24 h;
 * the same key with the same body gets the stored answer; with another body → 422; while the first still runs
 * → 409. Keys are scoped to the caller.
 *
 * A request that fails without committing anything releases its key, so the client may retry. When it cannot (the
 * database failed, the process died), its lease runs out after `leaseMs` and the next request with the key takes it
 * over. A run whose effect commits in a transaction marks the key in that transaction (`claim.commit`): a key whose
 * effect committed is never run again — its later requests get the answer committed with it.
 */
export async function idempotent(
  db: Db,
  scope: string,
  key: string | undefined,
  body: unknown,
  run: (claim: IdempotencyClaim) => Promise<IdempotentAnswer>,
  opts: IdempotencyOptions = {},
): Promise<StoredAnswer> {
  if (key === undefined) return { ...(await run(NO_KEY)), replayed: false };
  const kinds = KINDS[opts.errors ?? 'rental'];
  const box = opts.seal;
  if (!KEY.test(key))
    throw kinds.invalid(
      'Idempotency-Key must be 1-255 visible ASCII characters.',
      opts.errors === 'wp'
        ? { params: { 'Idempotency-Key': 'must be 1-255 visible ASCII characters' } }
        : { field: 'Idempotency-Key' },
    );
  const ref: KeyRef = { scope, key };
  const lease: Lease = {
    holder: randomUUID(),
    fingerprint: fingerprint(body),
    leaseMs: opts.leaseMs ?? IDEMPOTENCY_LEASE_MS,
    expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
  };
  await dropExpiredKey(db, ref);
  if (!(await insertRunningKey(db, ref, lease)) && !(await takeOverAbandonedKey(db, ref, lease))) {
    const prior = await readKey(db, ref);
    if (!prior)
      throw kinds.conflict('A request with this Idempotency-Key just changed state; retry.', {
        reason: 'idempotency_key_in_flight',
      });
    if (prior.fingerprint !== lease.fingerprint)
      throw kinds.mismatch('This Idempotency-Key was used with a different request body.', {
        field: 'Idempotency-Key',
      });
    // committed: the effect stands; once its request is past its lease, the answer committed with it is the answer
    if (prior.status === 'done' || (prior.status === 'committed' && prior.lease_expired))
      return { status: prior.response_status ?? 200, body: replayed(prior.response_body, ref, box), replayed: true };
    throw inFlight(kinds);
  }
  const claim: IdempotencyClaim = {
    keyed: true,
    commit: async (tx, answer) => {
      if (!(await commitKey(tx, ref, lease.holder, keptAs(answer, ref, box)))) throw inFlight(kinds);
    },
    release: (tx) => releaseKey(tx, ref, lease.holder),
  };
  let answer: IdempotentAnswer;
  try {
    answer = await run(claim);
  } catch (err) {
    // if the database is gone this fails too: the lease frees the key later (or the committed answer answers)
    await settleFailedKey(db, ref, lease.holder).catch(() => undefined);
    throw err;
  }
  // The run succeeded: its answer is the truth even if it cannot be stored now. A key committed with the effect then
  // replays the answer committed with it; a run that committed nothing through the claim has no such guarantee. The
  // mark matches only the key as this run left it, so sending it again after a lost connection is safe.
  const done = keptAs(answer, ref, box);
  await untilAnswered(() => finishKey(db, ref, lease.holder, done), opts.answerWaitMs ?? 10_000).catch(() => undefined);
  return { ...answer, replayed: false };
}

export async function purgeIdempotency(db: Db): Promise<void> {
  await purgeExpiredKeys(db);
}
