/**
 * The account page opened with a booking mail's "manage my booking" link (`?rova_manage=<token>`): the account
 * widget's booking calls answered for that one booking, with the token, without signing in. Only what the manage
 * link allows is answered: the booking, its cancellation, a change of its dates, paying the rest and a message about
 * it.
 */
import { Api, ApiError } from './api.js';
import type { ChangeAnswer, ChangeBody, PayDueBody } from './api-types.js';
import type { Cancelled, DuePayment, MyBooking, MyBookingDetail, Thread } from './account.js';

const BASE = '/rova-rental/v2/guest/manage';

export class ManageApi extends Api {
  constructor(
    root: string,
    private readonly token: string,
  ) {
    super(root);
  }

  private get headers(): Record<string, string> {
    return { 'X-Rova-Manage-Token': this.token };
  }

  override async myBookings(): Promise<MyBooking[]> {
    return [await this.myBooking()];
  }

  override async myBooking(): Promise<MyBookingDetail> {
    return (await this.call<{ data: MyBookingDetail }>('GET', `${BASE}/booking`, undefined, this.headers)).data;
  }

  override async cancel(): Promise<Cancelled & { message: string }> {
    const r = await this.call<{
      data: { fee: number; refund: number; booking: { currency: string } };
      message: string;
    }>('POST', `${BASE}/cancel`, undefined, this.headers);
    return { fee: r.data.fee, refund: r.data.refund, currency: r.data.booking.currency, message: r.message };
  }

  override async changeQuote(_id: number, body: ChangeBody): Promise<ChangeAnswer> {
    return (await this.call<{ data: ChangeAnswer }>('POST', `${BASE}/change/quote`, body, this.headers)).data;
  }

  /** The account's change of dates; `key` is the attempt's Idempotency-Key (the server keys it to this booking). */
  override async changeBooking(_id: number, body: ChangeBody, key: string): Promise<ChangeAnswer> {
    const headers = { ...this.headers, 'Idempotency-Key': key };
    return (await this.call<{ data: ChangeAnswer }>('POST', `${BASE}/change`, body, headers)).data;
  }

  /** "Pay the rest" of the link's booking: the account's card payment (or offline instructions), by the token. */
  override async payDue(
    _id: number,
    method: PayDueBody['payment_method'] | undefined,
    key: string,
  ): Promise<DuePayment> {
    const body: PayDueBody = method ? { payment_method: method } : {};
    const headers = { ...this.headers, 'Idempotency-Key': key };
    return (await this.call<{ data: DuePayment }>('POST', `${BASE}/pay-due`, body, headers)).data;
  }

  /** A message about the booking; the store answers by e-mail (a guest has no inbox here). */
  override async startThread(input: { subject: string; message: string }): Promise<Thread> {
    const r = await this.call<{ data: { id: number; booking_id: number } }>(
      'POST',
      `${BASE}/messages`,
      { subject: input.subject, message: input.message },
      this.headers,
    );
    const now = new Date().toISOString();
    const message = {
      id: r.data.id,
      sender: 'customer' as const,
      author_name: '',
      body: input.message,
      created_at: now,
    };
    const thread = { id: r.data.id, subject: input.subject, preview: input.message, status: 'pending' as const };
    return {
      thread: { ...thread, booking_id: r.data.booking_id, unread_count: 0, last_message_at: now },
      message,
      replies: [],
    };
  }

  override threads(): Promise<never> {
    return Promise.reject(new ApiError(403, 'Not available with a manage link.'));
  }
}
