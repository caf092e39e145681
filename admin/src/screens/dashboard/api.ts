import { useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapList, unwrapRental } from '../../api/client';

export const useDashboardStats = () =>
  useQuery({
    queryKey: ['dashboard', 'stats'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/dashboard/stats')),
  });

export const useRecentBookings = (perPage = 5) =>
  useQuery({
    queryKey: ['dashboard', 'recent-bookings', perPage],
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/dashboard/recent-bookings', { params: { query: { per_page: perPage } } }),
      ),
  });

export const useUpcomingTransfers = (perPage = 5) =>
  useQuery({
    queryKey: ['dashboard', 'recent-transfers', perPage],
    queryFn: () =>
      unwrapRental(
        api.GET('/wp-json/rova-rental/v1/dashboard/recent-transfers', { params: { query: { per_page: perPage } } }),
      ),
  });

// The getting-started checklist: each fact read from the endpoint that owns it. Stale at once, so coming back to the
// dashboard after doing a step (another screen's write) shows it done.
const SETUP = { staleTime: 0 } as const;

export const useSetupCurrencies = () =>
  useQuery({
    ...SETUP,
    queryKey: ['dashboard', 'setup', 'currencies'],
    queryFn: () => unwrap(api.GET('/wp-json/rova-fx/v1/currencies')),
  });

export const useSetupLocations = () =>
  useQuery({
    ...SETUP,
    queryKey: ['dashboard', 'setup', 'locations'],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/locations', { params: { query: { page: 1, per_page: 1 } } })),
  });

export const useSetupVehicles = () =>
  useQuery({
    ...SETUP,
    queryKey: ['dashboard', 'setup', 'vehicles'],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v1/vehicles', { params: { query: { page: 1, per_page: 1 } } })),
  });

export const useSetupPayments = () =>
  useQuery({
    ...SETUP,
    queryKey: ['dashboard', 'setup', 'payments'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v2/payments/config')),
  });

export const useSetupApiKeys = () =>
  useQuery({
    ...SETUP,
    queryKey: ['dashboard', 'setup', 'api-keys'],
    queryFn: () => unwrapList(api.GET('/wp-json/rova/v1/api-keys', { params: { query: { page: 1, per_page: 100 } } })),
  });

/** What waits for an operator's decision (vendors' new vehicles and vendor applications). */
export const useReviewWaiting = () =>
  useQuery({
    queryKey: ['dashboard', 'review-queue'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor-management/review-queue')),
  });
