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
      return { ...d, items: (d.items ?? []) as unknown as Booking[] };
    },
    placeholderData: keepPreviousData,
  });

type DetailData = NonNullable<
  paths['/wp-json/rova-rental/v1/bookings/{id}']['get']['responses']['200']['content']['application/json']['data']
>;
/** The detail: the booking's own fields plus the vehicle and locations by name, order lines, payments and refunds. */
export type BookingDetail = Booking &
  Pick<
    DetailData,
    'vehicle' | 'pickup_location' | 'return_location' | 'lines' | 'payments' | 'refunds' | 'amount_paid' | 'amount_due'
  >;

export type RecordPaymentBody =
  paths['/wp-json/rova-rental/v2/bookings/{id}/payments']['post']['requestBody']['content']['application/json'];

/** Records a payment the desk took; `key` is the form's Idempotency-Key (a double submit records once). */
export function useRecordPayment(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: RecordPaymentBody; key: string }) =>
      unwrapRental(
        api.POST('/wp-json/rova-rental/v2/bookings/{id}/payments', {
          params: { path: { id }, header: { 'idempotency-key': key } },
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
    queryFn: async () =>
      (await unwrapRental(
        api.GET('/wp-json/rova-rental/v1/bookings/{id}', { params: { path: { id } } }),
      )) as unknown as BookingDetail,
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

export function useCreateBooking() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateBody) =>
      (await unwrapRental(api.POST('/wp-json/rova-rental/v1/bookings', { body }))) as unknown as Booking,
    // the planner shows bookings too
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['bookings'] }), qc.invalidateQueries({ queryKey: ['planner'] })]),
  });
}

/** The availability engine's answer for a vehicle and dates (POST /availability): free or why not, and the price. */
export interface Quote {
  available: boolean;
  reason?: string;
  days: number;
  net_price: number;
  tax: number;
  total: number;
  deposit: number;
  currency: string;
}

export const useQuote = (body: { vehicle_id: number; pickup_date: string; return_date: string } | null) =>
  useQuery({
    queryKey: ['bookings', 'quote', body],
    enabled: body !== null,
    retry: false,
    queryFn: async () =>
      (await unwrapRental(api.POST('/wp-json/rova-rental/v1/availability', { body: body! }))) as unknown as Quote,
  });
