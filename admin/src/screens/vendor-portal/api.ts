import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

// The vendor's own routes only (/v1/vendor/*, /v2/ledger/*): never an operator route (design: Vendor portal).

type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;
export type SummaryQuery = Q<'/wp-json/rova-rental/v2/ledger/summary'>;
export type BookingQuery = Q<'/wp-json/rova-rental/v1/vendor/bookings'>;
export type PayoutQuery = Q<'/wp-json/rova-rental/v2/ledger/payouts'>;
export type ReportQuery = Q<'/wp-json/rova-rental/v1/vendor/reports'>;
export type ConsequenceQuery = Q<'/wp-json/rova-rental/v1/vendor/consequences'>;
export type VehicleBody = NonNullable<
  paths['/wp-json/rova-rental/v1/vendor/vehicles']['post']['requestBody']
>['content']['application/json'];
export type BlockBody = NonNullable<
  paths['/wp-json/rova-rental/v1/vendor/vehicles/{id}/blocks']['post']['requestBody']
>['content']['application/json'];
export type ReportBody = NonNullable<
  paths['/wp-json/rova-rental/v1/vendor/reports']['post']['requestBody']
>['content']['application/json'];

export const useSummary = (q: SummaryQuery = {}) =>
  useQuery({
    queryKey: ['vendor', 'summary', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v2/ledger/summary', { params: { query: q } })),
  });
export const useProfile = () =>
  useQuery({
    queryKey: ['vendor', 'profile'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/profile')),
  });
export const useVendorBookings = (q: BookingQuery) =>
  useQuery({
    queryKey: ['vendor', 'bookings', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/bookings', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useVendorVehicles = (q: { page?: number; per_page?: number }) =>
  useQuery({
    queryKey: ['vendor', 'vehicles', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/vehicles', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
/** An own vehicle's month (`YYYY-MM`): the bookings that take its days and its blocks. */
export const useVehicleMonth = (id: number, month: string) =>
  useQuery({
    queryKey: ['vendor', 'vehicle-month', id, month],
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/vendor/vehicles/{id}/calendar', {
          params: { path: { id }, query: { month } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
export const useVehicleBlocks = (id: number) =>
  useQuery({
    queryKey: ['vendor', 'vehicle-blocks', id],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/vehicles/{id}/blocks', { params: { path: { id } } })),
  });
export const useVendorPayouts = (q: PayoutQuery) =>
  useQuery({
    queryKey: ['vendor', 'payouts', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v2/ledger/payouts', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useVendorReports = (q: ReportQuery) =>
  useQuery({
    queryKey: ['vendor', 'reports', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/reports', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useVendorReport = (id: number | null) =>
  useQuery({
    queryKey: ['vendor', 'report', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/reports/{id}', { params: { path: { id: id! } } })),
  });
/** What an action would cost (score after it, withdrawal penalty): asked when its confirmation opens, never cached. */
export const useConsequences = (q: ConsequenceQuery) =>
  useQuery({
    queryKey: ['vendor', 'consequences', q],
    staleTime: 0,
    gcTime: 0,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/consequences', { params: { query: q } })),
  });

/** Every portal write invalidates the portal (balances, lists and the score move together). */
function usePortalMutation<A, R = unknown>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['vendor'] }) });
}

/** Lists a new vehicle; `key` is the form's Idempotency-Key (api/idempotency.ts). */
export const useCreateVehicle = () =>
  usePortalMutation((a: { body: VehicleBody; key: string }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/vendor/vehicles', {
        params: { header: { 'idempotency-key': a.key } },
        body: a.body,
      }),
    ),
  );
export const useEditVehicle = () =>
  usePortalMutation((a: { id: number; body: Partial<VehicleBody> }) =>
    unwrapRental(
      api.PUT('/wp-json/rova-rental/v1/vendor/vehicles/{id}', { params: { path: { id: a.id } }, body: a.body }),
    ),
  );
export const useMoveVehicle = () =>
  usePortalMutation((a: { id: number; move: 'pause' | 'resume' | 'withdraw' | 'relist'; reason?: string }) => {
    const params = { params: { path: { id: a.id } } };
    switch (a.move) {
      case 'pause':
        return unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor/vehicles/{id}/pause', params));
      case 'resume':
        return unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor/vehicles/{id}/resume', params));
      case 'relist':
        return unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor/vehicles/{id}/relist', params));
      default:
        return unwrapRental(
          api.POST('/wp-json/rova-rental/v1/vendor/vehicles/{id}/withdraw', {
            ...params,
            body: a.reason ? { reason: a.reason } : {},
          }),
        );
    }
  });
export const useAddBlock = () =>
  usePortalMutation((a: { id: number; body: BlockBody }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/vendor/vehicles/{id}/blocks', { params: { path: { id: a.id } }, body: a.body }),
    ),
  );
export const useRemoveBlock = () =>
  usePortalMutation((a: { id: number; block: number }) =>
    unwrapRental(
      api.DELETE('/wp-json/rova-rental/v1/vendor/vehicles/{id}/blocks/{block}', {
        params: { path: { id: a.id, block: a.block } },
      }),
    ),
  );
export const useCancelBooking = () =>
  usePortalMutation((a: { id: number; reason: string }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/vendor/bookings/{id}/cancel', {
        params: { path: { id: a.id } },
        body: a.reason ? { reason: a.reason } : {},
      }),
    ),
  );
/** One Idempotency-Key per confirmation: a retried request (network) is answered once, a new click is a new request. */
export const useRequestPayout = () =>
  usePortalMutation((a: { amount: number; key: string }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v2/ledger/payouts', {
        params: { header: { 'idempotency-key': a.key } },
        body: { amount: a.amount },
      }),
    ),
  );
export const useFileReport = () =>
  usePortalMutation((b: ReportBody) => unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor/reports', { body: b })));
export const useIbanChange = () =>
  usePortalMutation((iban: string) =>
    unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor/iban-change', { body: { iban } })),
  );
