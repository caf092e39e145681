import type { Platform } from '../../../../platform/context.js';
import { paymentMethodNotEnabled, paymentProviderFailed, stateConflictFor } from '../../errors.js';
import { bookingById } from '../repo.js';
import { lockBooking } from '../lock.js';
import { LapsedHolds } from '../expiry.js';
import { insertPendingPayment, paymentsOf, type PaymentRow } from '../create/repo.js';
import { startDuePayments } from '../../payments/due.js';
import { enabledProvider, offlineProvider, providerFor, type PaymentStart } from '../../payments/port.js';
import { cancelStaleIntents } from '../../payments/stale.js';
import { supersedePayments, unstartedPastKeyLife } from '../../payments/work-repo.js';
import type { ProviderName } from '../settings.js';
import { myBooking } from './service.js';
import { balanceOf } from '../balance.js';

const ENDED = ['cancelled', 'refunded', 'no_show', 'completed'];
const nothingDue = () => stateConflictFor('nothing_due', 'Nothing is due on this booking.');

/** The 409 for a payment of the amount due withdrawn before it started: nothing due now, or asked another way. */
async function withdrawn(p: Platform, id: number, pays: readonly PaymentRow[]) {
  const b = await bookingById(p.db, id);
  if (!b || ENDED.includes(b.status) || !balanceOf(b, pays).due.gt(0)) return nothingDue();
  return stateConflictFor('payment_superseded', 'The amount due was asked again meanwhile: ask to pay it again.');
}

export interface DuePayment {
  booking_id: number;
  payment_id: number;
  provider: ProviderName;
  amount: number;
  currency: string;
  client_secret?: string;
  instructions?: string;
}

/** "Pay the rest" of one of the signed-in customer's bookings (another's is a 404): payCustomerDue. */
export async function payMyDue(p: Platform, userId: number, id: number, method?: ProviderName): Promise<DuePayment> {
  await myBooking(p, userId, id);
  return payCustomerDue(p, id, method);
}

/**
 * "Pay the rest": the customer pays the amount due on booking `id` (payment_status `partially_paid` after a price
 * change, or the rest of a `deposit_paid` booking; the booking already checked to be theirs — the account's or a guest's manage link, one money path for
 * both) with `method` (default: the provider already asked). Under the booking's lock the pending payment of the
 * amount due is kept when it asks through that provider, else superseded (its intent cancelled at the provider) by
 * a new one of the same amount; after commit a Stripe payment is started (or its intent found again) and its client
 * secret answered, an offline one answers its instructions. 409 `nothing_due` when nothing is due (also once the
 * booking is cancelled); 400 when the method is not enabled; 503 when the provider cannot start it (it stays due
 * and is retried). Asked again, it answers the same payment (the same intent): a repeat never asks twice.
 */
export async function payCustomerDue(p: Platform, id: number, method?: ProviderName): Promise<DuePayment> {
  const expired = new LapsedHolds(p);
  const stale: number[] = [];
  const decided = await p.transaction(async (tx) => {
    const b = await lockBooking(tx, id, expired);
    const pays = await paymentsOf(tx, id, true);
    const { due, asking } = balanceOf(b, pays);
    if (!due.gt(0) || ENDED.includes(b.status)) throw nothingDue();
    const provider =
      method ??
      asking?.provider ??
      pays.filter((x) => x.status === 'succeeded' || x.status === 'refunded').at(-1)?.provider;
    if (!provider || !enabledProvider(p, provider)) throw paymentMethodNotEnabled(provider ?? '');
    // a start not made within the provider key's lifetime is asked afresh: a new payment, a new key
    const keep = asking && asking.provider === provider && !(await unstartedPastKeyLife(tx, asking.id));
    if (keep) return { b, payId: asking.id, provider, amount: due };
    stale.push(...(await supersedePayments(tx, pays)));
    const payId = await insertPendingPayment(tx, {
      bookingId: id,
      provider,
      amount: due.toFixed(2),
      currency: b.currency,
    });
    return { b, payId, provider, amount: due };
  });
  expired.delivered();
  await cancelStaleIntents(p, stale);
  const answer: DuePayment = {
    booking_id: id,
    payment_id: decided.payId,
    provider: decided.provider,
    amount: decided.amount.toNumber(),
    currency: decided.b.currency,
  };
  const req = {
    id: decided.payId,
    bookingId: id,
    reference: decided.b.reference,
    amount: answer.amount,
    currency: answer.currency,
  };
  let start: PaymentStart | undefined;
  if (decided.provider === 'offline') start = offlineProvider.startKnown!(p, req);
  else {
    start = (await startDuePayments(p, [decided.payId])).get(decided.payId);
    const pays = start ? [] : await paymentsOf(p.db, id);
    const pay = pays.find((x) => x.id === decided.payId);
    // withdrawn between the commit and its start (a cancel, a change or another pay-due took the lock meanwhile):
    // never started, nothing to pay through it — the booking as it is now says why, not a provider failure
    if (pay && pay.status !== 'pending' && !pay.external_id) throw await withdrawn(p, id, pays);
    if (pay?.external_id) start = await providerFor(pay.provider)!.resume!(p, { ...req, external_id: pay.external_id });
    if (!start?.client_secret) throw paymentProviderFailed('start the payment');
  }
  return {
    ...answer,
    ...(start.client_secret ? { client_secret: start.client_secret } : {}),
    ...(start.instructions ? { instructions: start.instructions } : {}),
  };
}
