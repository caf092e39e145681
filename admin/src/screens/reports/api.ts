import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { DateRange } from '../../lib/dates';

const opts = (r: DateRange) => ({ params: { query: { start_date: r.start, end_date: r.end } } });
const base = (name: string, r: DateRange) => ({
  queryKey: ['reports', name, r.start, r.end],
  placeholderData: keepPreviousData,
});

export const useOverview = (r: DateRange, enabled: boolean) =>
  useQuery({
    ...base('overview', r),
    enabled,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/reports/overview', opts(r))),
  });
export const useRevenue = (r: DateRange, enabled: boolean) =>
  useQuery({
    ...base('revenue', r),
    enabled,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/reports/revenue', opts(r))),
  });
export const useBookingsReport = (r: DateRange, enabled: boolean) =>
  useQuery({
    ...base('bookings', r),
    enabled,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/reports/bookings', opts(r))),
  });
export const useVehiclesReport = (r: DateRange, enabled: boolean) =>
  useQuery({
    ...base('vehicles', r),
    enabled,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/reports/vehicles', opts(r))),
  });
export const useCustomersReport = (r: DateRange, enabled: boolean) =>
  useQuery({
    ...base('customers', r),
    enabled,
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/reports/customers', opts(r))),
  });
