import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { vehicle } from '../rental/helpers.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { sendStripeWebhook, startStripe, stripeEvent } from '../rental/journey/stripe-server.js';

// Issue 36.5: a guest's "pay the rest" through the manage link racing the cancellation through the same link, on two
// nodes of one deployment. Both decide under the booking's lock: either the payment of the amount due is asked first
// and the cancel withdraws it (its intent cancelled at Stripe), or the cancel lands first and nothing is due (409).
// Never a cancelled booking still asking for money, never money kept beyond the fee.
const V2 = '/wp-json/rova-rental/v2';
const REPEAT = 20;
const SK = 'sk_test_rovaGuestPayRace123';
const WHSEC = 'whsec_rovaGuestPayRaceSecret';
const EMAIL = 'race-guest@example.test';
let n: TwoNodes;
let fake: Awaited<ReturnType<typeof startStripe>>;
let admin: Record<string, string>;
let pass: string;
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
  const code = await post('/guest/verification', { email: EMAIL, name: 'Rae Race' });
  expect(code.statusCode, code.body).toBe(200);
  const mail = (await outbox()).find((m) => m.template === 'guest_code')!;
  const ok = await post('/guest/verification/confirm', {
    verification_id: code.json().data.verification_id,
    code: /Your booking code: (\d{6})/.exec(mail.subject)![1]!,
  });
  expect(ok.statusCode, ok.body).toBe(200);
  pass = ok.json().data.guest_pass as string;
}, 240_000);
afterAll(async () => {
  await n?.close();
  await fake?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, node = n.a) =>
  node.inject({ method: 'POST', url: V2 + url, payload: payload as object, headers });
const outbox = async () => {
  const r = await n.a.inject({ method: 'GET', url: `/wp-json/rova/v1/outbox?to=${EMAIL}`, headers: admin });
  return r.json() as { template: string; subject: string; text: string }[];
};
const payments = (id: number) =>
  rows<{ status: string; amount: string; refunded_amount: string; external_id: string | null }>(
    n.a.platform.db,
    sql`SELECT status, amount::text, refunded_amount::text, external_id FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
/** Succeeded payments of the booking that are neither refunded nor owed a refund. */
const keptMoney = (id: number) =>
  rows<{ id: number }>(
    n.a.platform.db,
    sql`SELECT p.id FROM rental_payments p WHERE p.booking_id = ${id} AND p.status = 'succeeded'
  AND p.refunded_amount < p.amount AND NOT EXISTS (SELECT 1 FROM rental_refunds r WHERE r.payment_id = p.id)`,
  );
let year = 2050;

/** The guest's 2-day booking (100.00 a day) far ahead, paid by card, then lengthened a day: 100.00 due. */
async function owing(): Promise<{ id: number; link: Record<string, string> }> {
  year += 1;
  const created = await post(
    '/guest/booking/create',
    {
      vehicle_id: await vehicle(n.a),
      pickup_date: `${year}-05-01`,
      return_date: `${year}-05-03`,
      payment_method: 'stripe',
      payment_plan: 'full',
    },
    { 'x-rova-guest-pass': pass },
  );
  expect(created.statusCode, created.body).toBe(201);
  const b = created.json().data.booking as { id: number; reference: string };
  const payload = stripeEvent('payment_intent.succeeded', fake.succeed((await payments(b.id))[0]!.external_id!));
  const hook = await sendStripeWebhook(n.b, payload, WHSEC);
  expect(hook.json().data.outcome, hook.body).toBe('confirmed');
  const longer = await n.a.inject({
    method: 'PUT',
    url: `/wp-json/rova-rental/v1/bookings/${b.id}`,
    headers: admin,
    payload: { return_date: `${year}-05-04` },
  });
  expect(longer.json().data.payment_status, longer.body).toBe('partially_paid');
  const mail = (await outbox()).find(
    (m) => m.template === 'booking_created' && m.text.includes(`rova_manage=${b.reference}.`),
  )!;
  const token = decodeURIComponent(/rova_manage=([^\s"&<)]+)/.exec(mail.text)![1]!);
  return { id: b.id, link: { 'x-rova-manage-token': token } };
}

describe('a guest’s pay-due racing the cancellation through the same manage link, over two nodes', () => {
  it(`${REPEAT} rounds: cancelled, nothing asked any more, the money refunded (free cancel), whichever lands first`, async () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const b = await owing();
      const [paid, cancelled] = await Promise.all([
        post('/guest/manage/pay-due', { payment_method: 'stripe' }, { ...b.link, 'idempotency-key': `r-${i}` }),
        post('/guest/manage/cancel', {}, b.link, n.b),
      ]);
      const key = `pay-due ${paid.statusCode} / cancel ${cancelled.statusCode}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json().data, key).toMatchObject({ booking: { status: 'cancelled' }, fee: 0 });
      if (paid.statusCode === 409) expect(paid.json().details, key).toMatchObject({ reason: 'nothing_due' });
      else expect(paid.statusCode, paid.body).toBe(200);
      const pays = await payments(b.id);
      expect(
        pays.filter((x) => x.status === 'pending'),
        key,
      ).toEqual([]);
      expect(await keptMoney(b.id), key).toEqual([]);
      // an intent of the amount due the guest may still hold cannot take money: cancelled at Stripe
      const due = [...fake.intents.values()].filter((pi) => pi.metadata.booking_id === String(b.id)).slice(1);
      for (const pi of due) expect(pi.status, key).toBe('canceled');
      // and the link now says nothing is due
      const after = await post('/guest/manage/pay-due', {}, b.link, n.b);
      expect(after.statusCode, key).toBe(409);
    }
    console.log('guest pay-due vs cancel outcomes', Object.fromEntries(outcomes));
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  }, 300_000);
});
