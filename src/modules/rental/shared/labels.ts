/** Booking statuses (design §3) with their display labels and the dashboard's dot colours. */
export const BOOKING_STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  pending_payment: 'Pending Payment',
  pending: 'Pending',
  confirmed: 'Confirmed',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  no_show: 'No Show',
};

const DOTS: Record<string, string> = {
  pending: '#dba617',
  pending_payment: '#dba617',
  confirmed: '#2271b1',
  in_progress: '#00a32a',
  completed: '#8c8f94',
  cancelled: '#d63638',
  refunded: '#d63638',
  no_show: '#d63638',
  draft: '#c3c4c7',
};

export function statusLabel(status: string): string {
  return BOOKING_STATUS_LABELS[status] ?? status.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

export function statusDot(status: string): string {
  return DOTS[status] ?? '#646970';
}

/** Statuses whose total counts as revenue (design §5). */
export const REVENUE_STATUSES = ['confirmed', 'completed'] as const;
/** Statuses whose total counts towards a customer's total_spent (design §3). */
export const SPENT_STATUSES = ['confirmed', 'in_progress', 'completed'] as const;
/** Statuses in which a booking occupies its vehicle (for occupancy). */
export const OCCUPYING_STATUSES = ['confirmed', 'in_progress', 'completed'] as const;
