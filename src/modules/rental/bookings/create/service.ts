import type { Platform } from '../../../../platform/context.js';
import type { Db } from '../../../../platform/db/types.js';
import type { AuthContext } from '../../../../platform/auth/types.js';
import { roleHasCap } from '../../../../platform/auth/roles.js';
import { vehicleNotFound, invalidField, paymentMethodNotEnabled, RentalErrors, unknownLocation } from '../../errors.js';
import type { BookingRow } from '../repo.js';
import { bookingsAtOnceOf } from '../at-once.js';
import { bookInTransaction, changeStatus, prepareBooking, rentalColumns, type CreateBookingInput } from '../service.js';
import { bookingCreatedEvent } from '../../events.js';
import { bookingView } from '../view.js';
import { catalogueOf, type CatalogueSnapshot } from '../../catalogue.js';
import type { CustomerAccount } from '../../customers/service.js';
import { Decimal } from '../../money.js';
import type { Quote } from '../../pricing/engine.js';
import { mailDeliveryOf } from '../../../../platform/mail/delivery.js';
import { releaseMail, withdrawMail } from '../../../../platform/mail/outbox.js';
import { untilAnswered } from '../../../../platform/db/answered.js';
import { bookingMailToStore } from '../mails.js';
import { enabledProvider, type PaymentStart } from '../../payments/port.js';
import { mayHaveActed } from '../../payments/stripe.js';
import { countStartTried } from '../../payments/work-repo.js';
import { journeySettings } from '../settings.js';
import type { BookingCheckInput } from '../../availability/check/schema.js';
import { knownCustomersOf } from './customers.js';
import { writePath, type PathFacts } from './path.js';
import { setPaymentAnswered } from './repo.js';
import type { DriverInput } from '../driver/schema.js';
import { checkDriver, driverContext, driverMailRows, type DriverRecord } from '../driver/service.js';
import { driverSettings } from '../driver/settings.js';
import type { KnownCustomer, OrderLine, OrderWrites, OrderWritten, RentalColumns } from './statement.js';

export interface CreateInput extends BookingCheckInput, DriverInput {
  payment_method: 'offline' | 'pay_at_pickup' | 'bank_transfer' | 'stripe';
  payment_plan: 'deposit' | 'full';
  customer?: { name: string; email: string; phone?: string };
  /** A guest's booking: the name and address their e-mail code verified (guests/verification.ts). */
  guest?: { name: string; email: string; phone?: string };
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
  // each extra its own line, its quantity kept (and named, so every view of the lines shows it)
  for (const a of br.addons ?? []) {
    const quantity = a.quantity ?? 1;
    const description = quantity > 1 ? `${a.name} × ${quantity}` : a.name;
    lines.push({ kind: 'addon', code: a.code, description, amount: a.total, quantity });
  }
  const oneWay = br.rules?.find((r) => r.kind === 'one_way');
  if (oneWay && br.one_way_fee)
    lines.push({ kind: 'fee', code: 'one_way', description: oneWay.name, amount: br.one_way_fee, quantity: 1 });
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
  if (input.guest) return { customer: input.guest, user_id: null };
  const user = auth.user!;
  if (user.role === 'customer') {
    if (input.customer) throw invalidField('customer', 'customer is only for an API key acting for a customer.');
    return { customer_account: { id: user.id, email: user.email, displayName: user.displayName }, user_id: user.id };
  }
  if (auth.method === 'api_key' && roleHasCap(user.role, 'manage_store')) {
    if (!input.customer)
      throw invalidField('customer', 'An API key acting for a customer must send customer {name, email}.');
    return { customer: input.customer, user_id: null };
  }
  throw RentalErrors.permissionDenied(
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

/** How a booking's payment starts: known before the booking is written (offline), or by its provider after. */
type Start = { known: PaymentStart } | { afterCommit: true };

/**
 * The writes of a customer's booking `b` besides itself (the booking as inserted, or as drafted before the
 * one-statement path writes it): the order and its lines, the payment due now, booking.created and the
 * booking_created mail. A mail whose payment starts after the commit is held until then (released, or withdrawn with
 * the booking when it cannot start); one whose process dies before that goes once the hold runs out, as the
 * Idempotency-Key then answers the booking (the request's lease).
 */
function writesOf(
  p: Platform,
  cat: CatalogueSnapshot,
  b: BookingRow,
  c: {
    userId: number | null;
    plan: 'deposit' | 'full';
    provider: 'offline' | 'stripe';
    start: Start;
    driver: DriverRecord | null;
  },
): { writes: OrderWrites; due: number } {
  const due = amountDue({ total: Number(b.total), deposit: Number(b.deposit) }, c.plan);
  const holdSeconds = 'known' in c.start ? 0 : Math.ceil(journeySettings(p).idempotencyLeaseMs / 1000);
  const rows = [
    ...driverMailRows(c.driver),
    ...createdMailRows(due, b.currency, 'known' in c.start ? c.start.known : {}),
  ];
  return {
    due,
    writes: {
      order: { user_id: c.userId, payment_plan: c.plan, currency: b.currency, total: Number(b.total), amount_due: due },
      lines: orderLines(b, c.plan, due),
      payment: { provider: c.provider, amount: due },
      events: [bookingCreatedEvent(b)],
      mail: bookingMailToStore(p, cat, 'booking_created', b, rows, holdSeconds),
      driver: c.driver,
    },
  };
}

/** A customer's booking before it exists, as the one-statement path writes it (id and customer id by the statement). */
function drafted(columns: RentalColumns, customer: KnownCustomer): BookingRow {
  const now = new Date().toISOString();
  return {
    ...columns,
    id: 0,
    customer_id: 0,
    customer_name: customer.name,
    customer_email: customer.email,
    customer_phone: customer.phone,
    transfer_route_id: null,
    transfer_origin: null,
    transfer_destination: null,
    passengers: null,
    price_per_day: String(columns.price_per_day),
    net_price: String(columns.net_price),
    addons_total: String(columns.addons_total),
    tax: String(columns.tax),
    total: String(columns.total),
    deposit: String(columns.deposit),
    remaining: String(columns.remaining),
    payment_status: 'unpaid',
    created_at: now,
    updated_at: now,
  };
}

/**
 * POST /booking/create (design §8): re-checks and prices on the server, then in ONE transaction the booking
 * (pending_payment, holding its slot until the payment deadline), its order and lines, the payment, the
 * booking.created event, the booking_created mail and the caller's `record` — with other customers' bookings in one
 * statement, or in a transaction of its own (`writePath`). The payment is started with the provider after the
 * commit; when it cannot start, the booking is cancelled (its mail and record withdrawn in that transaction).
 */
export async function createCustomerBooking(
  p: Platform,
  auth: AuthContext,
  input: CreateInput,
  record?: BookingRecord,
): Promise<CreatedBooking> {
  // pay at pick-up and bank transfer are offline payments with their own deadline rules (bookings/deadline.ts)
  const provider = enabledProvider(p, input.payment_method === 'stripe' ? 'stripe' : 'offline');
  if (!provider) throw paymentMethodNotEnabled(input.payment_method);
  const cat = await catalogueOf(p).get();
  for (const f of ['pickup_location_id', 'return_location_id'] as const) {
    const id = input[f];
    if (id !== undefined && !cat.locations.has(id)) throw unknownLocation(f, id);
  }
  const who = bookingCustomer(auth, input);
  // driver, flight and terms (issue 36.4): refused before anything is written, stored in the booking's transaction
  const facts36 = driverContext(p, cat, input);
  const driver = facts36 ? checkDriver(await driverSettings(p), input, facts36) : null;
  const bookingInput: CreateBookingInput = {
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
  };
  const prepared = await prepareBooking(p, bookingInput);
  const startOf = (b: BookingRow): Start => {
    const known = provider.startKnown?.(p, {
      reference: b.reference,
      amount: amountDue({ total: Number(b.total), deposit: Number(b.deposit) }, input.payment_plan),
      currency: b.currency,
    });
    return known ? { known } : { afterCommit: true };
  };
  const terms = (b: BookingRow) => ({
    userId: who.user_id,
    plan: input.payment_plan,
    provider: provider.name as 'offline' | 'stripe',
    start: startOf(b),
    driver,
  });
  const account = who.customer_account?.id;
  const known = knownCustomersOf(p);
  const facts: PathFacts = {
    batching: journeySettings(p).batching,
    keyed: record !== undefined,
    signedIn: account !== undefined,
    customerKnown: false,
  };
  const columns = rentalColumns(p, bookingInput, prepared);
  const customer =
    account !== undefined && columns && writePath({ ...facts, customerKnown: true }) === 'statement'
      ? await known.of(account)
      : undefined;
  let path = writePath({ ...facts, customerKnown: customer !== undefined && columns !== undefined });
  let made: { booking: BookingRow; written: OrderWritten; start: Start; due: number } | undefined;
  if (path === 'statement') {
    const draft = drafted(columns!, customer!);
    const t = terms(draft);
    const { writes, due } = writesOf(p, cat, draft, t);
    const r = await bookingsAtOnceOf(p).book({ accountId: account!, customer: customer!, columns: columns!, writes });
    if ('booking' in r) made = { ...r, start: t.start, due };
    else {
      if (r.fallback === 'customer_changed') known.forget(account!);
      path = writePath(facts, r.fallback);
      if (path === 'not_found') throw vehicleNotFound(input.vehicle_id);
    }
  }
  if (!made) {
    let start: Start = { afterCommit: true };
    let due = 0;
    const r = await bookInTransaction(p, bookingInput, prepared, {
      writes(b) {
        const t = terms(b);
        start = t.start;
        const w = writesOf(p, cat, b, t);
        due = w.due;
        return w.writes;
      },
      record: record ? async (tx, b) => record.created(tx, created(b, due, provider.name)) : undefined,
    });
    made = { booking: r.booking, written: r.written!, start, due };
  }
  const { booking, written, due } = made;
  if (account !== undefined) known.saw(account, booking);
  const delivery = mailDeliveryOf(p);
  if ('known' in made.start) {
    delivery.nudge();
    return created(booking, due, provider.name, made.start.known);
  }
  let payment: PaymentStart;
  try {
    payment = await provider.start(p, {
      id: written.payment_id,
      bookingId: Number(booking.id),
      reference: booking.reference,
      amount: due,
      currency: booking.currency,
    });
  } catch (err) {
    // the provider refused or is unreachable: nothing was charged, so the slot goes back at once, and its mail, held
    // until now, with it (a start that may have made an intent stays pending, counted as tried: the cancel below
    // cancels that intent at the provider)
    if (mayHaveActed(err)) await countStartTried(p.db, written.payment_id);
    else await setPaymentAnswered(p.db, written.payment_id, { status: 'failed' }, p.config.databaseCommitOutcomeWaitMs);
    await changeStatus(p, Number(booking.id), 'cancelled', {
      within: async (tx) => {
        if (written.mail_id !== null) await withdrawMail(tx, written.mail_id);
        if (record) await record.withdrawn(tx);
      },
    }).catch((e: unknown) => p.log.error({ err: e }, 'cancelling a booking whose payment could not start failed'));
    throw err;
  }
  if (payment.external_id)
    await setPaymentAnswered(
      p.db,
      written.payment_id,
      { external_id: payment.external_id },
      p.config.databaseCommitOutcomeWaitMs,
    );
  if (written.mail_id !== null) {
    const id = written.mail_id;
    // idempotent, so sent again on a lost connection; failing that the mail is held, not lost: it goes when its hold runs out
    await untilAnswered(() => releaseMail(p.db, id), p.config.databaseCommitOutcomeWaitMs).catch((err: unknown) =>
      p.log.warn({ err }, 'releasing a booking mail failed'),
    );
  }
  delivery.nudge();
  return created(booking, due, provider.name, payment);
}
