import { Link, useParams, useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { movesFrom, statusLabel } from '../../lib/bookings';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useBooking, useMoveStatus, type BookingDetail as Detail } from './api';
import { DriverCard } from './DriverCard';
import { RecordPayment } from './RecordPayment';
import { backLabel, backOf } from './back';

const METHOD_LABELS: Record<string, string> = {
  pay_at_pickup: 'pay at pick-up',
  bank_transfer: 'bank transfer',
  card_terminal: 'card terminal',
};

/** Statuses the desk takes a payment in (a lapsed one is taken back through the API, when its slot is free). */
const TAKES_PAYMENT = ['pending_payment', 'pending', 'confirmed', 'in_progress', 'completed'];
const takesPayment = (b: Detail) => b.amount_due > 0 && TAKES_PAYMENT.includes(b.status);

const REFUND_REASONS: Record<string, string> = {
  customer_cancelled: 'Cancelled by the customer',
  late_payment_slot_taken: 'Paid late; the slot was taken',
};

export function BookingDetail() {
  const id = Number(useParams().id);
  // opened from the planner: back to it as it was (its window, filters and scroll are in that address)
  const back = backOf(useSearchParams()[0]);
  const store = useStore();
  const toast = useToast();
  const q = useBooking(id);
  const move = useMoveStatus(id);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const b = q.data;
  const money = (n: number) => formatMoney(n, b.currency);
  const rows: [string, string][] = [
    ...(b.days !== null && b.price_per_day !== null
      ? ([[`${b.days} day(s) × ${money(b.price_per_day)}`, '']] as [string, string][])
      : []),
    // a journey booking's own order lines (rental, each add-on, tax) before the totals
    ...b.lines.map((l): [string, string] => [l.description, money(l.amount)]),
    ['Net price', money(b.net_price)],
    ['Add-ons', money(b.addons_total)],
    ['Tax', money(b.tax)],
    ['Total', money(b.total)],
    ['Deposit', money(b.deposit)],
    ['Remaining', money(b.remaining)],
  ];
  return (
    <div>
      <p className="mb-2 text-sm">
        <Link to={back ?? '/bookings'} className="underline">
          ← {backLabel(back)}
        </Link>
      </p>
      <PageHeader title={`Booking ${b.reference}`} />
      <div className="grid gap-4 lg:grid-cols-2">
        <section className="card" aria-labelledby="b-details">
          <h2 id="b-details" className="mb-2 font-semibold">
            Details
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt>Status</dt>
            <dd data-testid="detail-status">{statusLabel(b.status)}</dd>
            <dt>Customer</dt>
            <dd>
              {b.customer_name} &lt;{b.customer_email}&gt;
            </dd>
            <dt>Vehicle</dt>
            <dd data-testid="detail-vehicle">{b.vehicle.name}</dd>
            <dt>Pick-up location</dt>
            <dd data-testid="detail-pickup-location">{b.pickup_location?.name ?? '—'}</dd>
            <dt>Return location</dt>
            <dd data-testid="detail-return-location">{b.return_location?.name ?? '—'}</dd>
            <dt>Kind</dt>
            <dd>
              {b.kind === 'transfer'
                ? `Transfer ${b.transfer_origin ?? ''} → ${b.transfer_destination ?? ''}`
                : 'Rental'}
            </dd>
            <dt>Pick-up</dt>
            <dd>{formatDateTime(b.pickup_at, store.timezone)}</dd>
            <dt>Return</dt>
            <dd>{formatDateTime(b.return_at, store.timezone)}</dd>
            <dt>Payment</dt>
            <dd data-testid="detail-payment">
              {b.payment_status} {b.payment_method ? `(${METHOD_LABELS[b.payment_method] ?? b.payment_method})` : ''}
            </dd>
            <dt>Payment deadline</dt>
            <dd data-testid="detail-deadline">
              {b.payment_deadline
                ? formatDateTime(b.payment_deadline, store.timezone)
                : ['pending_payment', 'pending'].includes(b.status) && b.payment_status === 'unpaid'
                  ? 'None: held until pick-up'
                  : '—'}
            </dd>
            <dt>Paid</dt>
            <dd data-testid="detail-paid">{money(b.amount_paid)}</dd>
            <dt>Due</dt>
            <dd data-testid="detail-due">{money(b.amount_due)}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(b.created_at, store.timezone)}</dd>
            {b.notes && (
              <>
                <dt>Notes</dt>
                <dd>{b.notes}</dd>
              </>
            )}
          </dl>
        </section>
        <DriverCard bookingId={b.id} />
        <section className="card" aria-labelledby="b-price">
          <h2 id="b-price" className="mb-2 font-semibold">
            Price breakdown
          </h2>
          <table className="w-full text-sm" data-testid="price-breakdown">
            <tbody>
              {rows.map(([k, v]) => (
                <tr key={k} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 text-left font-normal">
                    {k}
                  </th>
                  <td className="py-1 text-right tabular-nums">{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <section className="card" aria-labelledby="b-payments">
          <h2 id="b-payments" className="mb-2 font-semibold">
            Payments
          </h2>
          {b.payments.length === 0 ? (
            <p className="text-sm">No payments recorded.</p>
          ) : (
            <table className="w-full text-sm" data-testid="payments" aria-labelledby="b-payments">
              <thead className="text-left text-slate-600 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Date
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Method
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Reference
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Status
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Amount
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Refunded
                  </th>
                </tr>
              </thead>
              <tbody>
                {b.payments.map((p) => (
                  <tr key={p.id} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="py-1">{formatDateTime(p.created_at, store.timezone)}</td>
                    <td className="py-1">{p.method ? (METHOD_LABELS[p.method] ?? p.method) : p.provider}</td>
                    <td className="py-1">{p.reference ?? ''}</td>
                    <td className="py-1">{p.status}</td>
                    <td className="py-1 text-right tabular-nums">{formatMoney(p.amount, p.currency)}</td>
                    <td className="py-1 text-right tabular-nums">{formatMoney(p.refunded_amount, p.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {takesPayment(b) && (
            <div className="mt-4 border-t border-slate-100 pt-3 dark:border-slate-800">
              <RecordPayment key={`${b.amount_due}-${b.status}`} booking={b} />
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="b-refunds">
          <h2 id="b-refunds" className="mb-2 font-semibold">
            Refunds
          </h2>
          {b.refunds.length === 0 ? (
            <p className="text-sm">No refunds.</p>
          ) : (
            <table className="w-full text-sm" data-testid="refunds" aria-labelledby="b-refunds">
              <thead className="text-left text-slate-600 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Date
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Reason
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Status
                  </th>
                  <th scope="col" className="py-1 text-right font-normal">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {b.refunds.map((r) => (
                  <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="py-1">{formatDateTime(r.created_at, store.timezone)}</td>
                    <td className="py-1">{REFUND_REASONS[r.reason] ?? r.reason}</td>
                    <td className="py-1">{r.status === 'done' ? 'Refunded' : 'Pending'}</td>
                    <td className="py-1 text-right tabular-nums">{formatMoney(r.amount, r.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <section className="card mt-4" aria-labelledby="b-moves">
        <h2 id="b-moves" className="mb-2 font-semibold">
          Change status
        </h2>
        {movesFrom(b.status).length === 0 ? (
          <p>No further moves from {statusLabel(b.status)}.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {movesFrom(b.status).map((to) => (
              <ConfirmDialog
                key={to}
                trigger={
                  <button type="button" className="btn">
                    Mark {statusLabel(to)}
                  </button>
                }
                title={`Mark ${b.reference} ${statusLabel(to)}?`}
                description={`The booking moves from ${statusLabel(b.status)} to ${statusLabel(to)}.`}
                confirmLabel={`Mark ${statusLabel(to)}`}
                danger={to === 'cancelled' || to === 'refunded' || to === 'no_show'}
                onConfirm={async () => {
                  await move.mutateAsync(to);
                  toast(`${b.reference} is now ${statusLabel(to)}`);
                }}
              />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
