import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { idempotent } from '../../../platform/idempotency/store.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { onEmailVerified } from '../../../platform/accounts/service.js';
import { CreateBody } from '../bookings/create/routes.js';
import { CreatedBookingView } from '../bookings/create/schema.js';
import { createCustomerBooking, type CreatedBooking } from '../bookings/create/service.js';
import { detailView } from '../bookings/my/detail.js';
import {
  DuePayment,
  MyBookingDetail,
  MyCancellation,
  MyChange,
  MyChangeBody,
  PayDueBody,
} from '../bookings/my/schema.js';
import { cancelledAnswer } from '../bookings/my/cancel-view.js';
import { CHANGE_RULES, changedAnswer, changeView } from '../bookings/my/change-view.js';
import type { MyChangeOutcome } from '../bookings/my/change.js';
import { IdempotencyKeyHeader } from '../../../platform/idempotency/route.js';
import { keyedPayDue } from '../bookings/my/pay-due-route.js';
import { journeySettings } from '../bookings/settings.js';
import {
  attachGuestBookings,
  bookingOfToken,
  manageCancel,
  manageChange,
  manageChangeQuote,
  manageDetail,
  manageMessage,
  managePayDue,
  manageRevoke,
} from './manage.js';
import { publicReadLimit } from '../http/rate-limits.js';
import {
  CodeCheck,
  CodeRequest,
  CodeSent,
  GuestMessage,
  GuestMessageSent,
  GuestPassHeaders,
  GuestPass,
  LinksRevoked,
  ManageHeaders,
} from './schema.js';
import {
  CODE_ATTEMPTS,
  CODE_MINUTES,
  PASS_MINUTES,
  confirmGuestVerification,
  guestOfPass,
  startGuestVerification,
} from './verification.js';

const T = ['rental v2: guest bookings'];

/** The one booking of the request's manage token; the audit row names it (also when the write is refused). */
async function manageBooking(req: FastifyRequest): ReturnType<typeof bookingOfToken> {
  const b = await bookingOfToken(req.server.platform, String(req.headers['x-rova-manage-token']));
  req.auditTarget = `booking:${b.id}`;
  return b;
}
const GuestCreateBody = Type.Omit(CreateBody, ['customer'], { additionalProperties: false });

/**
 * Booking without an account (rova-rental/v2): e-mail code → guest pass → booking; and the "manage my booking" link
 * of every booking mail (view, cancel, change, pay the rest, message, revoke), which opens that one booking only. Every write is audited
 * with the guest's verified address or the booking as its target.
 */
export const guestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  // signing up later with the same, verified address: the guest's bookings appear in the account
  onEmailVerified(p, (user) => attachGuestBookings(p, user));

  app.post(
    '/guest/verification',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'Guest booking, step 1: mail a 6-digit code to the address',
        description: `The code expires in ${CODE_MINUTES} minutes and allows ${CODE_ATTEMPTS} attempts; a new code replaces the older ones. At most 5 codes per address and 20 per client address an hour (429).`,
        body: CodeRequest,
        response: { 200: RentalEnvelope(CodeSent), ...rentalErrors(400, 429) },
      },
    },
    async (req) => {
      const r = await startGuestVerification(p, req, req.body);
      req.auditTarget = `guest_code:${r.verification_id}`;
      req.auditDetails = { actor: 'guest', email: req.body.email.trim().toLowerCase() };
      return rentalOk(r, 'A code was sent to the address.');
    },
  );

  app.post(
    '/guest/verification/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'Guest booking, step 2: the mailed code gives a guest pass',
        description: `The pass books for ${PASS_MINUTES} minutes under the verified name and address. Wrong code → 400 \`INVALID_PARAMS\` (\`details.reason: wrong_code\`, \`attempts_left\`); expired or used → 400 (\`code_expired\`); the last wrong attempt and every one after → 429 (\`too_many_attempts\`).`,
        body: CodeCheck,
        response: { 200: RentalEnvelope(GuestPass), ...rentalErrors(400, 429) },
      },
    },
    async (req) => {
      req.auditTarget = `guest_code:${req.body.verification_id}`;
      req.auditDetails = { actor: 'guest' };
      const r = await confirmGuestVerification(p, req.body.verification_id, req.body.code);
      req.auditDetails = { actor: 'guest', email: r.email.toLowerCase() };
      return rentalOk(r, 'E-mail address verified.');
    },
  );

  app.post(
    '/guest/booking/create',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'Guest booking, step 3: book with the guest pass (as POST /booking/create, without an account)',
        description:
          'The body of POST /booking/create without `customer`: the booking is for the pass’s verified name and address. ' +
          'Idempotency-Key honoured per pass. 401 when the pass is unknown or expired.',
        headers: GuestPassHeaders,
        body: GuestCreateBody,
        response: { 201: RentalEnvelope(CreatedBookingView), ...rentalErrors(400, 401, 404, 409, 422, 429, 503) },
      },
    },
    async (req, reply) => {
      const guest = await guestOfPass(p, req.headers['x-rova-guest-pass']);
      req.auditDetails = { actor: 'guest', email: guest.email.toLowerCase() };
      const key = req.headers['idempotency-key'];
      const answer = (data: CreatedBooking) => ({ status: 201, body: rentalOk(data, 'Booking created.') });
      const r = await idempotent(
        p.db,
        `booking-create:guest:${guest.id}`,
        key,
        req.body,
        async (claim) =>
          answer(
            await createCustomerBooking(
              p,
              req.auth,
              { ...req.body, guest: { name: guest.name, email: guest.email } },
              claim.keyed
                ? { created: (tx, data) => claim.commit(tx, answer(data)), withdrawn: (tx) => claim.release(tx) }
                : undefined,
            ),
          ),
        { leaseMs: journeySettings(p).idempotencyLeaseMs, answerWaitMs: p.config.databaseCommitOutcomeWaitMs },
      );
      const body = r.body as { data?: { booking?: { id?: number } } };
      if (body.data?.booking?.id) req.auditTarget = `booking:${body.data.booking.id}`;
      if (r.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.get(
    '/guest/manage/booking',
    {
      config: { auth: 'public' },
      onRequest: publicReadLimit,
      schema: {
        tags: T,
        summary:
          'The booking of a manage link (the same view as GET /my/bookings/{id}); 401 when the link is not valid, expired or revoked',
        headers: ManageHeaders,
        response: { 200: RentalEnvelope(MyBookingDetail), ...rentalErrors(400, 401, 429) },
      },
    },
    async (req) => rentalOk(detailView(p, await manageDetail(p, await manageBooking(req)))),
  );

  app.post(
    '/guest/manage/cancel',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'Cancel the booking of a manage link: the account’s rules (free until the deadline, then the fee)',
        headers: ManageHeaders,
        response: { 200: RentalEnvelope(MyCancellation), ...rentalErrors(400, 401, 409, 429) },
      },
    },
    async (req) => {
      req.auditDetails = { actor: 'guest', via: 'manage_link' };
      return cancelledAnswer(await manageCancel(p, await manageBooking(req)));
    },
  );

  app.post(
    '/guest/manage/change/quote',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary:
          'What moving the booking of a manage link to other dates or another vehicle would cost (the account’s rules; nothing is written)',
        description:
          CHANGE_RULES +
          'As POST /my/bookings/{id}/change/quote, for the link’s booking; 401 when the link is not valid, expired or revoked.',
        headers: ManageHeaders,
        body: MyChangeBody,
        response: { 200: RentalEnvelope(MyChange), ...rentalErrors(400, 401, 404, 409, 429) },
      },
    },
    async (req) => rentalOk(changeView(await manageChangeQuote(p, await manageBooking(req), req.body))),
  );

  app.post(
    '/guest/manage/change',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary:
          'Move the booking of a manage link to other dates or another vehicle of the same category (the account’s rules)',
        description:
          CHANGE_RULES +
          'As POST /my/bookings/{id}/change, for the link’s booking: mails `booking_changed`; Idempotency-Key honoured ' +
          'per booking. 401 when the link is not valid, expired or revoked.',
        headers: Type.Object({ ...ManageHeaders.properties, ...IdempotencyKeyHeader.properties }),
        body: MyChangeBody,
        response: { 200: RentalEnvelope(MyChange), ...rentalErrors(400, 401, 404, 409, 422, 429) },
      },
    },
    async (req, reply) => {
      req.auditDetails = { actor: 'guest', via: 'manage_link' };
      const b = await manageBooking(req);
      const answer = (o: MyChangeOutcome) => ({ status: 200, body: changedAnswer(o) });
      // no account: the key is the booking's (the link opens that one booking); it commits with the change
      const r = await idempotent(
        p.db,
        `booking-manage-change:booking:${b.id}`,
        req.headers['idempotency-key'],
        req.body,
        async (claim) => answer(await manageChange(p, b, req.body, (tx, o) => claim.commit(tx, answer(o)))),
        { errors: 'rental', answerWaitMs: p.config.databaseCommitOutcomeWaitMs },
      );
      if (r.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(200).send(r.body as never);
    },
  );

  app.post(
    '/guest/manage/pay-due',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary:
          'Pay what is due on the booking of a manage link: after a price rise, a deposit, or before pick-up (the account’s pay-due)',
        description:
          'As POST /my/bookings/{id}/pay-due, for the link’s booking, through the same payment path: for a booking whose ' +
          'payment_status is `partially_paid` or `deposit_paid`, or an unpaid reservation paid at pick-up or by bank ' +
          'transfer (its `balance.due` in GET /guest/manage/booking). ' +
          '`payment_method` ' +
          '(default: how the amount due is asked now) `stripe` answers the client_secret of a PaymentIntent for the ' +
          'amount due (the same intent on a repeat; the signed webhook settles it: payment_status back to `paid`), ' +
          '`offline` the instructions. Idempotency-Key honoured per booking (the answer is kept sealed). 409 ' +
          '`STATE_CONFLICT` with `details.reason: nothing_due` when nothing is due (paid, or the booking cancelled), ' +
          '`payment_superseded` when another request asked for it meanwhile; 400 when the method is not enabled; 401 ' +
          'when the link is not valid, expired or revoked; 503 when Stripe cannot start it (nothing charged; it stays ' +
          'due).',
        headers: Type.Object({ ...ManageHeaders.properties, ...IdempotencyKeyHeader.properties }),
        body: PayDueBody,
        response: { 200: RentalEnvelope(DuePayment), ...rentalErrors(400, 401, 409, 422, 429, 503) },
      },
    },
    async (req, reply) => {
      req.auditDetails = { actor: 'guest', via: 'manage_link' };
      const b = await manageBooking(req);
      // no account: the key is the booking's (the link opens that one booking)
      const body = await keyedPayDue(p, req, reply, {
        action: 'booking-manage-pay-due',
        caller: `booking:${b.id}`,
        pay: () => managePayDue(p, b, req.body?.payment_method),
      });
      return reply.code(200).send(body as never);
    },
  );

  app.post(
    '/guest/manage/messages',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'Write to the store about the booking of a manage link (a new message thread of its customer)',
        headers: ManageHeaders,
        body: GuestMessage,
        response: { 200: RentalEnvelope(GuestMessageSent), ...rentalErrors(400, 401, 409, 429) },
      },
    },
    async (req) => {
      req.auditDetails = { actor: 'guest', via: 'manage_link' };
      const r = await manageMessage(p, await manageBooking(req), req.body);
      return rentalOk(r, 'Message sent.');
    },
  );

  app.post(
    '/guest/manage/revoke',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary:
          'Revoke every manage link of this booking issued until now (this one too); later mails carry new links',
        headers: ManageHeaders,
        response: { 200: RentalEnvelope(LinksRevoked), ...rentalErrors(400, 401, 429) },
      },
    },
    async (req) => {
      req.auditDetails = { actor: 'guest', via: 'manage_link' };
      const r = await manageRevoke(p, await manageBooking(req));
      return rentalOk(r, 'Links revoked.');
    },
  );
};
