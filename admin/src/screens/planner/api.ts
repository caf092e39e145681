import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

export type PlannerQuery = paths['/wp-json/rova-rental/v1/admin/planner']['get']['parameters']['query'];
export type PlannerData = NonNullable<
  paths['/wp-json/rova-rental/v1/admin/planner']['get']['responses']['200']['content']['application/json']['data']
>;
export type PlannerBooking = PlannerData['bookings'][number];
export type PlannerVehicle = PlannerData['vehicles'][number];
export type PlannerBlock = PlannerData['blocks'][number];

/** The whole visible window in ONE request: vehicles, their bookings overlapping it, and the filter choices. */
export const usePlanner = (q: PlannerQuery) =>
  useQuery({
    queryKey: ['planner', 'window', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/admin/planner', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
