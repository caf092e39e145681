import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';

export interface Paging {
  page: number;
  per_page: number;
}

export const useReviewCount = () =>
  useQuery({
    queryKey: ['review', 'count'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/review-queue')),
  });

export const useWaitingVehicles = (q: Paging) =>
  useQuery({
    queryKey: ['review', 'vehicles', q],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/vehicles', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

export const useListing = (id: number | null) =>
  useQuery({
    queryKey: ['review', 'vehicle', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/vendor-management/vehicles/{id}', { params: { path: { id: id! } } }),
      ),
  });

export const useWaitingApplications = (q: Paging) =>
  useQuery({
    queryKey: ['review', 'applications', q],
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/vendor-management/applications', {
          params: { query: { ...q, status: 'pending' } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const useApplication = (id: number | null) =>
  useQuery({
    queryKey: ['review', 'application', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/vendor-management/applications/{id}', { params: { path: { id: id! } } }),
      ),
  });

/** A decision moves the queue, its count (here and on the dashboard) and the vendors screen's lists together. */
function useDecision<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all(['review', 'vendors', 'dashboard'].map((k) => qc.invalidateQueries({ queryKey: [k] }))),
  });
}

export const useDecideVehicle = () =>
  useDecision((a: { id: number; reason?: string }) =>
    a.reason === undefined
      ? unwrapRental(
          api.POST('/wp-json/rova-rental/v1/vendor-management/vehicles/{id}/approve', {
            params: { path: { id: a.id } },
          }),
        )
      : unwrapRental(
          api.POST('/wp-json/rova-rental/v1/vendor-management/vehicles/{id}/reject', {
            params: { path: { id: a.id } },
            body: { reason: a.reason },
          }),
        ),
  );

export const useDecideApplication = () =>
  useDecision((a: { id: number; reason?: string }) =>
    a.reason === undefined
      ? unwrapRental(
          api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/approve', { params: { path: { id: a.id } } }),
        )
      : unwrapRental(
          api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/reject', {
            params: { path: { id: a.id } },
            body: { reason: a.reason },
          }),
        ),
  );
