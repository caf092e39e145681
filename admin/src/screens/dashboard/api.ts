import { useQuery } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';

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
