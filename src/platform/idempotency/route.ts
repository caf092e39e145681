import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SecretBox } from '../auth/secret-box.js';
import type { Platform } from '../context.js';
import type { Db } from '../db/types.js';
import { idempotent, type IdempotencyClaim, type IdempotentAnswer } from './store.js';

/** The request header of a route that honours Idempotency-Key (TypeBox, for the route's `headers` schema). */
export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retry safe (optional, per caller, kept 24 h): the same key and body answer the first answer ' +
        '(`Idempotent-Replayed: true`), another body (or path) → 422, while the first request runs → 409. The effect ' +
        'commits with the key, so one key never writes twice.',
    }),
  ),
});

const boxes = new WeakMap<Platform, SecretBox>();

/** The box answers carrying a once-shown secret are kept in (derived from ROVA_SECRET for this purpose only). */
function answerBox(p: Platform): SecretBox {
  let box = boxes.get(p);
  if (!box) boxes.set(p, (box = new SecretBox(p.config.secret, 'idempotent-answer')));
  return box;
}

export interface KeyedRun {
  /** Names the action in the key's scope: one key may be used once per action and caller. */
  action: string;
  /** The answer carries a secret shown once (kept sealed, see IdempotencyOptions.seal). */
  secret?: boolean;
  /**
   * Whose keys these are when the request has no account (a guest's manage link: `booking:<id>`); default the API
   * key or the signed-in user. Without it every public caller would share one key space.
   */
  caller?: string;
  /**
   * The request: the write's transaction commits the key with it (`claim.commit`), then the run may go on after the
   * commit (send a delivery) — its answer replaces the committed one as the key's answer.
   */
  run(claim: IdempotencyClaim): Promise<IdempotentAnswer>;
}

export interface KeyedWrite {
  /** Names the action in the key's scope: one key may be used once per action and caller. */
  action: string;
  /** The answer carries a secret shown once (kept sealed, see IdempotencyOptions.seal). */
  secret?: boolean;
  /** The write, in one transaction: the key commits in it with its answer. */
  write(tx: Db): Promise<IdempotentAnswer>;
  /** After the commit, on the first run only (a cache to drop, the audit target). */
  after?(answer: IdempotentAnswer): Promise<void> | void;
}

/**
 * What the key's body check covers: the body, and the path's parameters when the route has any — one key sent to
 * `/webhooks/1/rotate-secret` and then to `/webhooks/2/rotate-secret` is another request (422), not a replay of the
 * first endpoint's answer.
 */
function requestOf(req: FastifyRequest): unknown {
  const params = req.params as Record<string, unknown> | undefined;
  return params && Object.keys(params).length > 0 ? { params, body: req.body ?? null } : req.body;
}

/**
 * A write answered once per Idempotency-Key, the run holding the key itself (`claim.commit` in the transaction that
 * commits the effect; errors in the namespace's codes). Without a key the run runs as before.
 */
export async function keyedRun(
  p: Platform,
  req: FastifyRequest,
  reply: FastifyReply,
  w: KeyedRun,
): Promise<IdempotentAnswer> {
  const auth = req.auth;
  const caller = w.caller ?? (auth.apiKeyId !== null ? `key:${auth.apiKeyId}` : `user:${auth.user?.id ?? 0}`);
  const header = req.headers['idempotency-key'];
  const r = await idempotent(
    p.db,
    `${w.action}:${caller}`,
    typeof header === 'string' ? header : undefined,
    requestOf(req),
    w.run,
    {
      errors: p.namespaces.forUrl(req.url)?.shape === 'rental' ? 'rental' : 'wp',
      answerWaitMs: p.config.databaseCommitOutcomeWaitMs,
      ...(w.secret ? { seal: answerBox(p) } : {}),
    },
  );
  if (r.replayed) reply.header('Idempotent-Replayed', 'true');
  return { status: r.status, body: r.body };
}

/**
 * A create route's write, answered once per Idempotency-Key (errors in the namespace's codes). Without a key the
 * write runs as before. With one, the write and the key commit in one transaction: a request sent again — by a
 * client that never saw the first answer, after a 502 or a timeout — gets the first answer instead of a second
 * row; a lost COMMIT answer is resolved by the transaction helper (src/platform/db/connect.ts).
 */
export function keyedWrite(
  p: Platform,
  req: FastifyRequest,
  reply: FastifyReply,
  w: KeyedWrite,
): Promise<IdempotentAnswer> {
  return keyedRun(p, req, reply, {
    action: w.action,
    secret: w.secret,
    run: async (claim) => {
      const answer = await p.db.transaction(async (tx) => {
        const a = await w.write(tx);
        await claim.commit(tx, a);
        return a;
      });
      await w.after?.(answer);
      return answer;
    },
  });
}
