import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { vehicle } from '../rental/helpers.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { sendStripeWebhook, startStripe, stripeEvent } from '../rental/journey/stripe-server.js';

// What a booking still owes, paid twice at once on two nodes of one deployment — the rest of a deposit booking, and a
// reservation held for pick-up: the customer pays it by card from their booking (pay-due, then their card succeeds
// at Stripe and the webhook comes) while the desk takes it in cash at pick-up. Every path decides under the booking's lock, so whichever lands first, the store keeps exactly the
// total: the card's rest asked after the desk took it is refused (409 nothing_due), one asked before is cancelled at
// Stripe, and one the customer paid before that cancel reached Stripe is refunded.
const V2 = '/wp-json/rova-rental/v2';
const REPEAT = 20;
const SK = 'sk_test_rovaDepositRestRace123';
const WHSEC = 'whsec_rovaDepositRestRaceSecret';
let n: TwoNodes;
let fake: Awaited<ReturnType<typeof startStripe>>;
let admin: Record<string, string>;
let customer: Record<string, string>;
beforeAll(async () => {
  fake = await startStripe({ secretKey: SK });
  n = await twoNodes({
    RENTAL_WRITE_RATE_LIMIT: '1000000',
    RENTAL_PUBLIC_RATE_LIMIT: '1000000',
    BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
    STRIPE_SECRET_KEY: SK,
    STRIPE_WEBHOOK_SECRET: WHSEC,
    STRIPE_API_BASE: fake.url,
  });
  admin = { 'x-rova-api-key': (await n.a.userWithKey('administrator')).key };
  customer = { 'x-rova-api-key': (await n.a.userWithKey('customer')).key };
}, 240_000);
afterAll(async () => {
  await n?.close();
  await fake?.close();
});

/** Stripe tells `node` that the customer's card paid `intent`. */
const webhook = (node: TwoNodes['a'], intent: string) =>
  sendStripeWebhook(node, stripeEvent('payment_intent.succeeded', fake.succeed(intent)), WHSEC);
const intentsOf = (id: number) => [...fake.intents.values()].filter((pi) => pi.metadata.booking_id === String(id));
/** What the store keeps of the booking's payments: what succeeded less every refund owed or made. */
const kept = async (id: number) =>
  (
    await rows<{ kept: string }>(
      n.a.platform.db,
      sql`SELECT (COALESCE((SELECT sum(amount) FROM rental_payments WHERE booking_id = ${id} AND status IN ('succeeded', 'refunded')), 0)
        - COALESCE((SELECT sum(amount) FROM rental_refunds WHERE booking_id = ${id}), 0))::text AS kept`,
    )
  )[0]!.kept;
let year = 2060;

/**
 * A 4-day booking far ahead (100.00 a day, 20 % deposit): `deposit`, its deposit paid by card (80.00 paid, 320.00 to
 * pay); `reservation`, held for pick-up and not paid (400.00 to pay).
 */
async function owing(kind: 'deposit' | 'reservation'): Promise<number> {
  year += 1;
  const created = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: {
      vehicle_id: await vehicle(n.a, { deposit_percent: '20' }),
      pickup_date: `${year}-06-01`,
      return_date: `${year}-06-05`,
      payment_method: kind === 'deposit' ? 'stripe' : 'pay_at_pickup',
      payment_plan: kind === 'deposit' ? 'deposit' : 'full',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.booking.id as number;
  if (kind === 'reservation') return id;
  const hook = await webhook(n.b, intentsOf(id)[0]!.id);
  expect(hook.json().data.outcome, hook.body).toBe('confirmed');
  return id;
}

describe('what a booking owes, paid by card and at the desk at once, over two nodes', () => {
  for (const [kind, owed] of [
    ['deposit', 320],
    ['reservation', 400],
  ] as const)
    it(`${kind}: ${REPEAT} rounds, paid, exactly the total kept, nothing pending, verify clean — whichever lands first`, async () => {
      const outcomes = new Map<string, number>();
      for (let i = 0; i < REPEAT; i++) {
        const id = await owing(kind);
        const byCard = async (): Promise<string> => {
          const asked = await n.a.inject({
            method: 'POST',
            url: `${V2}/my/bookings/${id}/pay-due`,
            headers: { ...customer, 'idempotency-key': `rest-${id}` },
            payload: { payment_method: 'stripe' },
          });
          if (asked.statusCode === 409) {
            expect(asked.json().details, asked.body).toMatchObject({ reason: 'nothing_due' });
            return 'card refused';
          }
          expect(asked.statusCode, asked.body).toBe(200);
          expect(asked.json().data).toMatchObject({ amount: owed, provider: 'stripe' });
          const pi = intentsOf(id).find((x) => x.client_secret === asked.json().data.client_secret)!;
          // the customer's card, unless the desk's payment cancelled the intent at Stripe first
          if (pi.status === 'canceled') return 'card cancelled';
          const hook = await webhook(n.a, pi.id);
          expect(hook.statusCode, hook.body).toBe(200);
          return `card ${hook.json().data.outcome as string}`;
        };
        const atDesk = async (): Promise<string> => {
          // staggered from round to round, so that the card also gets there first
          await new Promise((r) => setTimeout(r, (i % 4) * 15));
          const r = await n.b.inject({
            method: 'POST',
            url: `${V2}/bookings/${id}/payments`,
            headers: { ...admin, 'idempotency-key': `desk-${id}` },
            payload: { kind: 'full', method: 'cash' },
          });
          if (r.statusCode === 409) {
            expect(r.json().details, r.body).toMatchObject({ reason: 'nothing_due' });
            return 'desk refused';
          }
          expect(r.statusCode, r.body).toBe(201);
          expect(r.json().data).toMatchObject({ amount: `${owed}.00`, paid: '400.00', due: '0.00' });
          return 'desk took it';
        };
        const [card, desk] = await Promise.all([byCard(), atDesk()]);
        const key = `${card} / ${desk}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        const b = await n.b.inject({ method: 'GET', url: `${V2}/my/bookings/${id}`, headers: customer });
        expect(b.json().data, key).toMatchObject({ status: 'confirmed', payment_status: 'paid', balance: { due: 0 } });
        expect(await kept(id), key).toBe('400.00');
        const pending = await rows<{ id: number }>(
          n.a.platform.db,
          sql`SELECT id FROM rental_payments WHERE booking_id = ${id} AND status = 'pending'`,
        );
        expect(pending, key).toEqual([]);
        // an intent of the rest that was not paid cannot take money any more
        for (const pi of intentsOf(id).slice(kind === 'deposit' ? 1 : 0))
          expect(['canceled', 'succeeded'], key).toContain(pi.status);
      }
      console.log(`${kind}: card vs desk outcomes`, Object.fromEntries(outcomes));
      expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
      expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
    }, 300_000);
});
