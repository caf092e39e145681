import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { bookingView } from '../../bookings/view.js';
import { adminResponses, IdParams } from '../../schemas.js';
import { settlePayment } from './service.js';

export const paymentAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post('/bookings/:id/mark-paid', {
    config: { auth: { cap: 'manage_options' } },
    schema: {
      tags: ['rental v2: booking journey'], summary: 'Admin: the offline payment was received → booking confirmed (refunded and cancelled when its slot was taken meanwhile)',
      params: IdParams,
      response: adminResponses(Type.Object({ outcome: Type.String(), booking: Type.Object({}, { additionalProperties: true }) }), 200, 404, 409),
    },
  }, async (req) => {
    const r = await settlePayment(p, req.params.id, {});
    return rentalOk({ outcome: r.outcome, booking: bookingView(r.booking) }, r.outcome === 'confirmed' ? 'Payment recorded; booking confirmed.' : r.outcome === 'already_settled' ? 'The payment was already recorded.' : 'The slot was taken: payment refunded and booking cancelled.');
  });
};
