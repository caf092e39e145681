import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

export type CustomerQuery = NonNullable<paths['/wp-json/rova-rental/v1/customers']['get']['parameters']['query']>;
export type SortBy = NonNullable<CustomerQuery['sort_by']>;

export const useCustomers = (q: CustomerQuery) =>
  useQuery({
    queryKey: ['customers', 'list', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/customers', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

export const useCustomer = (id: number | null) =>
  useQuery({
    queryKey: ['customers', 'one', id],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/customers/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });

export function useBulkDelete() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) =>
      unwrapRental(api.DELETE('/wp-json/rova-rental/v1/customers/bulk', { body: { ids } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['customers'] }),
  });
}
