import { rentalOk } from '../../../../platform/http/namespaces.js';
import type { BookingRow } from '../repo.js';
import { bookingView } from '../view.js';
import type { MyCancellation } from './schema.js';

/** The envelope of a customer's cancellation (the account's route and the manage link's share it). */
export const cancelledAnswer = (r: {
  booking: BookingRow;
  fee: number;
  refund: number;
  free_cancellation_until: string;
}) => {
  const cancelled: MyCancellation = {
    booking: bookingView(r.booking),
    fee: r.fee,
    refund: r.refund,
    free_cancellation_until: r.free_cancellation_until,
  };
  return rentalOk(
    cancelled,
    r.fee > 0 ? 'Booking cancelled; the cancellation fee was kept.' : 'Booking cancelled free of charge.',
  );
};
