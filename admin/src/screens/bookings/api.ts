import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import type { Booking } from '../../lib/bookings';

type ListQuery = NonNullable<paths['/wp-json/rova-rental/v1/bookings']['get']['parameters']['query']>;
export type CreateBody = paths['/wp-json/rova-rental/v1/bookings']['post']['requestBody']['content']['application/json'];

export const useBookings = (q: ListQuery) =>
  useQuery({
    queryKey: ['bookings', 'list', q],
    queryFn: async () => {
      const d = await unwrapRental(api.GET('/wp-json/rova-rental/v1/bookings', { params: { query: q } }));
      return { ...d, items: (d.items ?? []) as unknown as Booking[] };
    },
    placeholderData: keepPreviousData,
  });

export const useBooking = (id: number) =>
  useQuery({
    queryKey: ['bookings', 'one', id],
    queryFn: async () => (await unwrapRental(api.GET('/wp-json/rova-rental/v1/bookings/{id}', { params: { path: { id } } }))) as unknown as Booking,
  });

export const useVehicleOptions = () =>
  useQuery({
    queryKey: ['bookings', 'vehicle-options'],
    queryFn: async () => {
      const d = await unwrapRental(api.GET('/wp-json/rova-rental/v1/vehicles', { params: { query: { per_page: 100 } } }));
      return ((d.items ?? []) as unknown as { id: number; name: string; status?: string }[]).map((v) => ({ id: v.id, name: v.name }));
    },
    staleTime: 5 * 60_000,
  });

export function useMoveStatus(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: string) => unwrapRental(api.POST('/wp-json/rova-rental/v1/bookings/{id}/status', { params: { path: { id } }, body: { status } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['bookings'] }).then(() => qc.invalidateQueries({ queryKey: ['dashboard'] })),
  });
}

export function useCreateBooking() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateBody) => (await unwrapRental(api.POST('/wp-json/rova-rental/v1/bookings', { body }))) as unknown as Booking,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['bookings'] }),
  });
}
