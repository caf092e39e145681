import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;
export type ApplicationQuery = Q<'/wp-json/rova-rental/v1/vendor-management/applications'>;
export type VendorQuery = Q<'/wp-json/rova-rental/v1/vendor-management/vendors'>;
export type PayoutQuery = Q<'/wp-json/rova-rental/v2/payouts'>;

export const useApplications = (q: ApplicationQuery) =>
  useQuery({
    queryKey: ['vendors', 'applications', q],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/applications', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useVendors = (q: VendorQuery) =>
  useQuery({
    queryKey: ['vendors', 'list', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/vendors', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const usePayouts = (q: PayoutQuery) =>
  useQuery({
    queryKey: ['vendors', 'payouts', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v2/payouts', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

/** Every vendor write invalidates the whole screen (lists and counts move together). */
function useVendorMutation<A, R = unknown>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['vendors'] }) });
}

export const useApproveApplication = () =>
  useVendorMutation((id: number) =>
    unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/approve', { params: { path: { id } } })),
  );
export const useRejectApplication = () =>
  useVendorMutation((a: { id: number; reason: string }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/reject', {
        params: { path: { id: a.id } },
        body: { reason: a.reason },
      }),
    ),
  );
export const useSuspendVendor = () =>
  useVendorMutation((id: number) =>
    unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/suspend', { params: { path: { id } } })),
  );
export const useUnsuspendVendor = () =>
  useVendorMutation((id: number) =>
    unwrapRental(api.POST('/wp-json/rova-rental/v1/vendor-management/{id}/unsuspend', { params: { path: { id } } })),
  );
export const useApprovePayout = () =>
  useVendorMutation((id: number) =>
    unwrapRental(api.POST('/wp-json/rova-rental/v2/payouts/{id}/approve', { params: { path: { id } } })),
  );
export const useRejectPayout = () =>
  useVendorMutation((a: { id: number; reason: string }) =>
    unwrapRental(
      api.POST('/wp-json/rova-rental/v2/payouts/{id}/reject', {
        params: { path: { id: a.id } },
        body: { reason: a.reason },
      }),
    ),
  );

export const useVendor = (id: number | null) =>
  useQuery({
    queryKey: ['vendors', 'detail', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/{id}', { params: { path: { id: id! } } })),
  });
export const useVendorAudit = (id: number | null) =>
  useQuery({
    queryKey: ['vendors', 'audit', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/vendor-management/{id}/audit-log', {
          params: { path: { id: id! }, query: { per_page: 20 } },
        }),
      ),
  });

export type ReportQuery = Q<'/wp-json/rova-rental/v1/vendor-reports'>;
export type ReportDecision = 'review' | 'resolve' | 'reject';
export const useReports = (q: ReportQuery) =>
  useQuery({
    queryKey: ['vendors', 'reports', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-reports', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useReport = (id: number | null) =>
  useQuery({
    queryKey: ['vendors', 'report', id],
    enabled: id !== null,
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-reports/{id}', { params: { path: { id: id! } } })),
  });
const REPORT_PATHS = {
  review: '/wp-json/rova-rental/v1/vendor-reports/{id}/review',
  resolve: '/wp-json/rova-rental/v1/vendor-reports/{id}/resolve',
  reject: '/wp-json/rova-rental/v1/vendor-reports/{id}/reject',
} as const;
/** Review, resolve or reject; the answer carries the money side effect (penalty waived/applied/reversed). */
export const useDecideReport = () =>
  useVendorMutation((a: { id: number; decision: ReportDecision; note: string }) =>
    unwrapRental(
      api.POST(REPORT_PATHS[a.decision], {
        params: { path: { id: a.id } },
        body: a.note.trim() === '' ? {} : { admin_note: a.note.trim() },
      }),
    ),
  );
