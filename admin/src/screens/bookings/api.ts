import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import type { Booking } from '../../lib/bookings';

type ListQuery = NonNullable<paths['/wp-json/rova-rental/v1/bookings']['get']['parameters']['query']>;
export type CreateBody =
  paths['/wp-json/rova-rental/v1/bookings']['post']['requestBody']['content']['application/json'];

export const useBookings = (q: ListQuery) =>
  useQuery({
    queryKey: ['bookings', 'list', q],
    queryFn: async () => {
      const d = await unwrapRental(api.GET('/wp-json/rova-rental/v1/bookings', { params: { query: q } }));
      const items: Booking[] = d.items;
      return { ...d, items };
    },
    placeholderData: keepPreviousData,
  });

/** The detail: the booking's own fields plus the vehicle and locations by name, order lines, payments and refunds. */
export type BookingDetail = NonNullable<
  paths['/wp-json/rova-rental/v1/bookings/{id}']['get']['responses']['200']['content']['application/json']['data']
>;

export type RecordPaymentBody =
  paths['/wp-json/rova-rental/v2/bookings/{id}/payments']['post']['requestBody']['content']['application/json'];

/**
 * Records a payment the desk took; `key` is the form's Idempotency-Key (a double submit records once). `id` in the
 * variables: a booking only just created (the new-booking form's "already paid").
 */
export function useRecordPayment(bookingId?: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key, id }: { body: RecordPaymentBody; key: string; id?: number }) =>
      unwrapRental(
        api.POST('/wp-json/rova-rental/v2/bookings/{id}/payments', {
          params: { path: { id: id ?? bookingId! }, header: { 'idempotency-key': key } },
          body,
        }),
      ),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['bookings'] }),
        qc.invalidateQueries({ queryKey: ['planner'] }),
        qc.invalidateQueries({ queryKey: ['dashboard'] }),
      ]),
  });
}

export const useBooking = (id: number) =>
  useQuery({
    queryKey: ['bookings', 'one', id],
    queryFn: async (): Promise<BookingDetail> =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/bookings/{id}', { params: { path: { id } } })),
  });

export function useMoveStatus(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: string) =>
      unwrapRental(
        api.POST('/wp-json/rova-rental/v1/bookings/{id}/status', { params: { path: { id } }, body: { status } }),
      ),
    onSuccess: () =>
      qc
        .invalidateQueries({ queryKey: ['bookings'] })
        .then(() =>
          Promise.all([
            qc.invalidateQueries({ queryKey: ['dashboard'] }),
            qc.invalidateQueries({ queryKey: ['planner'] }),
          ]),
        ),
  });
}

/** Creates a booking; `key` is the form's Idempotency-Key (a retry of a submit whose answer was lost gets that booking). */
export function useCreateBooking() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, key }: { body: CreateBody; key: string }): Promise<Booking> =>
      unwrapRental(
        api.POST('/wp-json/rova-rental/v1/bookings', { params: { header: { 'idempotency-key': key } }, body }),
      ),
    // the planner shows bookings too
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['bookings'] }), qc.invalidateQueries({ queryKey: ['planner'] })]),
  });
}

/** The availability engine's answer for a vehicle and dates (POST /availability): free or why not, and the price. */
export type Quote = NonNullable<
  paths['/wp-json/rova-rental/v1/availability']['post']['responses']['200']['content']['application/json']['data']
>;

export const useQuote = (body: { vehicle_id: number; pickup_date: string; return_date: string } | null) =>
  useQuery({
    queryKey: ['bookings', 'quote', body],
    enabled: body !== null,
    retry: false,
    queryFn: async (): Promise<Quote> =>
      unwrapRental(api.POST('/wp-json/rova-rental/v1/availability', { body: body! })),
  });

export type MoveBody =
  paths['/wp-json/rova-rental/v1/bookings/{id}/quote']['post']['requestBody']['content']['application/json'];
export type MoveQuote = NonNullable<
  paths['/wp-json/rova-rental/v1/bookings/{id}/quote']['post']['responses']['200']['content']['application/json']['data']
>;

/** What new dates or another vehicle would do to a booking's price and money (the server's own rules, nothing saved). */
export const useMoveQuote = (id: number, body: MoveBody | null) =>
  useQuery({
    queryKey: ['bookings', 'move-quote', id, body],
    enabled: body !== null,
    retry: false,
    staleTime: 0,
    queryFn: async (): Promise<MoveQuote> =>
      unwrapRental(api.POST('/wp-json/rova-rental/v1/bookings/{id}/quote', { params: { path: { id } }, body: body! })),
  });

/** Moves a booking (PUT: re-checked, re-priced and its money settled by the server). */
export function useMoveBooking(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MoveBody) =>
      unwrapRental(api.PUT('/wp-json/rova-rental/v1/bookings/{id}', { params: { path: { id } }, body })),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['bookings'] }),
        qc.invalidateQueries({ queryKey: ['planner'] }),
        qc.invalidateQueries({ queryKey: ['dashboard'] }),
      ]),
  });
}
