import { useQuery } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import { useStore } from '../../api/session';
import { formatDateTime } from '../../lib/format';

/** The booking's driver, flight and accepted terms (issue 36.4); nothing when none were given. */
export function DriverCard({ bookingId }: { bookingId: number }) {
  const store = useStore();
  const q = useQuery({
    queryKey: ['bookings', 'driver', bookingId],
    queryFn: () =>
      unwrapRental(api.GET('/wp-json/rova-rental/v2/bookings/{id}/driver', { params: { path: { id: bookingId } } })),
  });
  const d = q.data;
  if (!d) return null;
  return (
    <section className="card" aria-labelledby="b-driver" data-testid="detail-driver">
      <h2 id="b-driver" className="mb-2 font-semibold">
        Driver and terms
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt>Driver</dt>
        <dd data-testid="driver-name">{d.name ?? '—'}</dd>
        <dt>Date of birth</dt>
        <dd data-testid="driver-birth">{d.date_of_birth ?? '—'}</dd>
        <dt>Licence number</dt>
        <dd data-testid="driver-licence">{d.licence_number ?? '—'}</dd>
        <dt>Flight</dt>
        <dd data-testid="driver-flight">{d.flight_number ?? '—'}</dd>
        <dt>Terms accepted</dt>
        <dd data-testid="driver-terms">
          {d.terms_version && d.terms_accepted_at
            ? `Version ${d.terms_version}, ${formatDateTime(d.terms_accepted_at, store.timezone)}`
            : '—'}
        </dd>
      </dl>
    </section>
  );
}
