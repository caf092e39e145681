import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../../../../platform/context.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { keyedRun } from '../../../../platform/idempotency/route.js';
import type { DuePayment } from './pay-due.js';

export interface KeyedPayDue {
  /** Names the route in the key's scope (the account's and the manage link's keys never meet). */
  action: string;
  /** Whose keys these are without an account (a manage link: `booking:<id>`); default the signed-in caller. */
  caller?: string;
  /** The payment of the amount due (payCustomerDue through the route's own check of the booking). */
  pay(): Promise<DuePayment>;
}

/**
 * "Pay the rest" answered once per Idempotency-Key, for the account's and the manage link's route alike: the same
 * key and body answer the first answer (`Idempotent-Replayed: true`) without asking the provider again, another
 * body → 422. The answer is kept sealed: it holds the intent's client secret. Answers the envelope to send (200).
 */
export async function keyedPayDue(
  p: Platform,
  req: FastifyRequest,
  reply: FastifyReply,
  w: KeyedPayDue,
): Promise<unknown> {
  const r = await keyedRun(p, req, reply, {
    action: w.action,
    ...(w.caller === undefined ? {} : { caller: w.caller }),
    secret: true,
    // no claim.commit: asked again, the payment path answers the same payment and intent, so a request taking
    // over an abandoned key cannot ask twice
    run: async () => {
      const due = await w.pay();
      const message = due.provider === 'stripe' ? 'Confirm the payment with the client secret.' : 'Pay as instructed.';
      return { status: 200, body: rentalOk(due, message) };
    },
  });
  return r.body;
}
