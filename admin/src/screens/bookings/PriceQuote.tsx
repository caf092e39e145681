import type { ReactNode } from 'react';
import { formatMoney } from '../../lib/format';
import { useQuote } from './api';

const REASONS: Record<string, string> = {
  booked: 'the vehicle is booked (or inside the buffer of a booking) for these dates',
  maintenance: 'the vehicle is in maintenance',
  inactive: 'the vehicle is inactive',
  blocked_date: 'a day of the period is blocked for this vehicle',
  min_notice: 'the pick-up is sooner than the minimum notice',
  duration: 'the length is outside the allowed rental days',
  outside_opening_hours: 'the location is closed at the pick-up or return time',
};

const YMD = /^\d{4}-\d{2}-\d{2}$/;

/** The price the server computes for the chosen vehicle and dates, before saving (nothing is held). */
export function PriceQuote({
  vehicleId,
  pickupDate,
  returnDate,
}: {
  vehicleId: string;
  pickupDate: string;
  returnDate: string;
}) {
  const ready = !!vehicleId && YMD.test(pickupDate) && YMD.test(returnDate) && returnDate > pickupDate;
  const q = useQuote(
    ready ? { vehicle_id: Number(vehicleId), pickup_date: pickupDate, return_date: returnDate } : null,
  );
  let body: ReactNode;
  if (!ready) body = <p>Choose a vehicle and the dates to see the price.</p>;
  else if (q.error) body = <p>No price: {q.error instanceof Error ? q.error.message : String(q.error)}</p>;
  else if (!q.data) body = <p>Pricing…</p>;
  else {
    const d = q.data;
    const money = (n: number) => formatMoney(n, d.currency);
    body = (
      <>
        <p>
          <span className="font-semibold" data-testid="quote-total">
            {money(d.total)}
          </span>{' '}
          for {d.days} day{d.days === 1 ? '' : 's'} (net {money(d.net_price)}, tax {money(d.tax)}; deposit{' '}
          {money(d.deposit)})
        </p>
        <p data-testid="quote-availability">
          {d.available ? 'Available for these dates.' : `Not available: ${REASONS[d.reason ?? ''] ?? d.reason}.`}
        </p>
      </>
    );
  }
  return (
    <section
      aria-labelledby="quote-h"
      aria-live="polite"
      className="mb-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-800"
    >
      <h2 id="quote-h" className="mb-1 font-semibold">
        Price
      </h2>
      {body}
    </section>
  );
}
