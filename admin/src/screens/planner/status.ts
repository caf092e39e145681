// How a booking looks on the planner: colour AND words (the legend, the bar's own text and its accessible name).

import { statusLabel } from '../../lib/bookings';

export type Look = 'confirmed' | 'in_progress' | 'hold' | 'lapsed' | 'completed' | 'closed';

export function lookOf(b: { status: string; holds_slot: boolean }): Look {
  if (b.status === 'confirmed') return 'confirmed';
  if (b.status === 'in_progress') return 'in_progress';
  if (b.status === 'pending_payment' || b.status === 'pending') return b.holds_slot ? 'hold' : 'lapsed';
  if (b.status === 'completed') return 'completed';
  return 'closed';
}

export const LOOK_CLASS: Record<Look, string> = {
  confirmed: 'bg-teal-700 text-white border-teal-900 dark:bg-teal-600',
  in_progress: 'bg-blue-700 text-white border-blue-900 dark:bg-blue-600',
  hold: 'bg-amber-100 text-amber-950 border-amber-700 border-dashed dark:bg-amber-900 dark:text-amber-50',
  lapsed: 'bg-white text-amber-900 border-amber-500 border-dotted dark:bg-slate-900 dark:text-amber-200',
  completed: 'bg-slate-600 text-white border-slate-800 dark:bg-slate-500',
  closed: 'bg-red-50 text-red-900 border-red-400 line-through dark:bg-red-950 dark:text-red-100',
};

export const LEGEND: { look: Look; label: string }[] = [
  { look: 'confirmed', label: 'Confirmed' },
  { look: 'in_progress', label: 'In progress' },
  { look: 'hold', label: 'Hold: pending payment or pending, until its deadline' },
  { look: 'lapsed', label: 'Lapsed hold (deadline passed)' },
  { look: 'completed', label: 'Completed' },
  { look: 'closed', label: 'Cancelled, refunded or no-show' },
];

/** The status in words for an accessible name: "confirmed", "pending payment". */
export function statusWords(status: string): string {
  return statusLabel(status).toLowerCase();
}
