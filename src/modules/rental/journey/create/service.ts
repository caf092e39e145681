import type { Platform } from '../../../../platform/context.js';
import type { Db } from '../../../../platform/db/types.js';
import type { AuthContext } from '../../../../platform/auth/types.js';
import { roleHasCap } from '../../../../platform/auth/roles.js';
import { HttpError } from '../../../../platform/http/errors.js';
import type { BookingRow } from '../../bookings/repo.js';
import { changeStatus, createBooking } from '../../bookings/service.js';
import { bookingView } from '../../bookings/view.js';
import { catalogueOf } from '../../catalogue.js';
import type { CustomerAccount } from '../../customers/service.js';
import { Decimal } from '../../money.js';
import type { Quote } from '../../pricing/engine.js';
import { bookingMailWithBooking, mailBooking } from '../mails.js';
import { enabledProvider, type PaymentStart } from '../payments/port.js';
import { mayHaveActed } from '../payments/stripe.js';
import { countStartTried } from '../payments/work-repo.js';
import { journeySettings } from '../settings.js';
import type { BookingCheckInput } from '../check/schema.js';
import { insertOrderWithPayment, orderWrites, setPaymentAnswered, type OrderLine } from './repo.js';

export interface CreateInput extends BookingCheckInput {
  payment_method: 'offline' | 'pay_at_pickup' | 'bank_transfer' | 'stripe';
  payment_plan: 'deposit' | 'full';
  customer?: { name: string; email: string; phone?: string };
}

/** Amount due now: the deposit (or the total when the vehicle asks no deposit), or the full total. */
export function amountDue(q: Pick<Quote, 'total' | 'deposit'>, plan: 'deposit' | 'full'): number {
  return plan === 'full' || q.deposit <= 0 ? q.total : q.deposit;
}

function orderLines(b: BookingRow, plan: 'deposit' | 'full', due: number): OrderLine[] {
  const br = (b.breakdown ?? {}) as Partial<Quote['breakdown']>;
  const lines: OrderLine[] = [
    {
      kind: 'rental',
      code: null,
      description: `Rental, ${b.days} day(s)`,
      amount: Number(br.rental_net ?? b.net_price),
    },
  ];
  for (const a of br.addons ?? []) lines.push({ kind: 'addon', code: a.code, description: a.name, amount: a.total });
  lines.push({ kind: 'tax', code: null, description: 'Tax', amount: Number(b.tax) });
  lines.push({
    kind: plan,
    code: null,
    description: plan === 'deposit' ? 'Deposit due now' : 'Full amount due now',
    amount: due,
  });
  return lines;
}

/** The booking_created mail's lines after the booking's own: what is due now and how to pay it. */
function createdMailRows(due: number, currency: string, payment: PaymentStart): [string, string][] {
  return [
    ['Amount due now', `${new Decimal(due).toFixed(2)} ${currency}`],
    ...(payment.instructions ? [['How to pay', payment.instructions] as [string, string]] : []),
  ];
}

/** Who the booking is for: the signed-in customer, or (an API key of store staff) the customer named in the body. */
function bookingCustomer(
  auth: AuthContext,
  input: CreateInput,
): { customer_account?: CustomerAccount; customer?: CreateInput['customer']; user_id: number | null } {
  const user = auth.user!;
  if (user.role === 'customer') {
    if (input.customer)
      throw new HttpError(400, 'INVALID_PARAMS', 'customer is only for an API key acting for a customer.', {
        field: 'customer',
      });
    return { customer_account: { id: user.id, email: user.email, displayName: user.displayName }, user_id: user.id };
  }
  if (auth.method === 'api_key' && roleHasCap(user.role, 'manage_store')) {
    if (!input.customer)
      throw new HttpError(400, 'INVALID_PARAMS', 'An API key acting for a customer must send customer {name, email}.', {
        field: 'customer',
      });
    return { customer: input.customer, user_id: null };
  }
  throw new HttpError(
    403,
    'PERMISSION_DENIED',
    'Bookings are made by a signed-in customer, or by a store API key acting for a customer.',
  );
}

/** What POST /booking/create answers: the booking, the amount due now, and how to pay it. */
export interface CreatedBooking {
  booking: ReturnType<typeof bookingView>;
  amount_due: number;
  currency: string;
  payment: { provider: string; instructions?: string; client_secret?: string; checkout_url?: string };
}

function created(booking: BookingRow, due: number, provider: string, payment: PaymentStart = {}): CreatedBooking {
  return {
    booking: bookingView(booking),
    amount_due: due,
    currency: booking.currency,
    payment: {
      provider,
      ...(payment.instructions ? { instructions: payment.instructions } : {}),
      ...(payment.client_secret ? { client_secret: payment.client_secret } : {}),
      ...(payment.checkout_url ? { checkout_url: payment.checkout_url } : {}),
    },
  };
}

/**
 * A record the caller keeps in step with the booking (the request's Idempotency-Key): written in the transaction
 * that creates the booking, removed in the one that cancels it again when its payment cannot start.
 */
export interface BookingRecord {
  /** In the creating transaction; `answer` is the answer as it stands at commit (the payment not started yet). */
  created(tx: Db, answer: CreatedBooking): Promise<void>;
  /** In the cancelling transaction, when the payment could not start. */
  withdrawn(tx: Db): Promise<void>;
}

/**
 * POST /booking/create (design §8): re-checks and prices on the server, then in ONE transaction the booking
 * (pending_payment, holding its slot until the payment deadline), its order and lines, the payment, the
 * booking.created event and the caller's `record`. The payment is started with the provider after the commit; when
 * it cannot start, the booking is cancelled (and the record withdrawn in that transaction).
 */
export async function createCustomerBooking(
  p: Platform,
  auth: AuthContext,
  input: CreateInput,
  record?: BookingRecord,
): Promise<CreatedBooking> {
  // pay at pick-up and bank transfer are offline payments with their own deadline rules (bookings/deadline.ts)
  const provider = enabledProvider(p, input.payment_method === 'stripe' ? 'stripe' : 'offline');
  if (!provider)
    throw new HttpError(400, 'INVALID_PARAMS', `Payment method "${input.payment_method}" is not enabled.`, {
      field: 'payment_method',
    });
  const cat = await catalogueOf(p).get();
  for (const f of ['pickup_location_id', 'return_location_id'] as const) {
    const id = input[f];
    if (id !== undefined && !cat.locations.has(id))
      throw new HttpError(400, 'INVALID_PARAMS', `Location ${id} does not exist.`, { field: f });
  }
  const who = bookingCustomer(auth, input);
  let due = 0;
  let paymentId = 0;
  /** Set when the booking's transaction also wrote its mail: the payment's start, known before. */
  let startedWithMail: PaymentStart | undefined;
  const booking = await createBooking(
    p,
    {
      vehicle_id: input.vehicle_id,
      pickup_date: input.pickup_date,
      return_date: input.return_date,
      pickup_time: input.pickup_time,
      return_time: input.return_time,
      location_id: input.pickup_location_id,
      return_location_id: input.return_location_id,
      addons: input.addons,
      customer_account: who.customer_account,
      customer: who.customer,
      payment_method: input.payment_method,
      source: 'storefront',
      hold_minutes: journeySettings(p).holdMinutes,
    },
    async (tx, b, events) => {
      due = amountDue({ total: Number(b.total), deposit: Number(b.deposit) }, input.payment_plan);
      // booking.created (events) and, as on the one-statement path, the booking mail are written by this same
      // statement, in the booking's transaction: a connection lost after the commit cannot lose the mail
      const start = provider.startKnown?.(p, { reference: b.reference, amount: due, currency: b.currency });
      const mail = start && bookingMailWithBooking(p, 'booking_created', b, createdMailRows(due, b.currency, start));
      paymentId = (
        await insertOrderWithPayment(
          tx,
          {
            booking_id: Number(b.id),
            user_id: who.user_id,
            payment_plan: input.payment_plan,
            currency: b.currency,
            total: Number(b.total),
            amount_due: due,
          },
          orderLines(b, input.payment_plan, due),
          { provider: provider.name, amount: due },
          events,
          mail && { ...mail, booking: b },
        )
      ).id;
      if (record) await record.created(tx, created(b, due, provider.name));
      startedWithMail = mail ? start : undefined;
    },
    record
      ? undefined
      : (draft, events) => {
          // no record to keep in step (no Idempotency-Key): the order, lines, payment and event ride in the booking's statement
          due = amountDue({ total: Number(draft.total), deposit: Number(draft.deposit) }, input.payment_plan);
          const w = orderWrites(
            {
              user_id: who.user_id,
              payment_plan: input.payment_plan,
              currency: draft.currency,
              total: Number(draft.total),
              amount_due: due,
            },
            orderLines(draft, input.payment_plan, due),
            { provider: provider.name, amount: due },
            events,
            (payment) => {
              paymentId = payment.id;
            },
          );
          // a payment start known beforehand (offline) cannot fail, so the booking mail is written with the booking too
          const start = provider.startKnown?.(p, { reference: draft.reference, amount: due, currency: draft.currency });
          const mail =
            start && bookingMailWithBooking(p, 'booking_created', draft, createdMailRows(due, draft.currency, start));
          if (!start || !mail) return w;
          return {
            ctes: `${w.ctes}, ${mail.cte}`,
            data: { ...w.data, mail: mail.data },
            columns: w.columns,
            answered: (v) => {
              w.answered(v);
              startedWithMail = start;
            },
          };
        },
  );
  if (startedWithMail) return created(booking, due, provider.name, startedWithMail);
  let payment: PaymentStart;
  try {
    payment = await provider.start(p, {
      id: paymentId,
      bookingId: Number(booking.id),
      reference: booking.reference,
      amount: due,
      currency: booking.currency,
    });
  } catch (err) {
    // the provider refused or is unreachable: nothing was charged, so the slot goes back at once (a start that may
    // have made an intent stays pending, counted as tried: the cancel below cancels that intent at the provider)
    if (mayHaveActed(err)) await countStartTried(p.db, paymentId);
    else await setPaymentAnswered(p.db, paymentId, { status: 'failed' }, p.config.databaseCommitOutcomeWaitMs);
    await changeStatus(p, Number(booking.id), 'cancelled', {
      ...(record ? { within: (tx) => record.withdrawn(tx) } : {}),
    }).catch((e: unknown) => p.log.error({ err: e }, 'cancelling a booking whose payment could not start failed'));
    throw err;
  }
  if (payment.external_id)
    await setPaymentAnswered(
      p.db,
      paymentId,
      { external_id: payment.external_id },
      p.config.databaseCommitOutcomeWaitMs,
    );
  await mailBooking(p, 'booking_created', booking, createdMailRows(due, booking.currency, payment));
  return created(booking, due, provider.name, payment);
}
