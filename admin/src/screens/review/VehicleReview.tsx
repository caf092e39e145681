import { useStore } from '../../api/session';
import { ErrorState, Loading } from '../../components/State';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useDecideVehicle, useListing } from './api';
import { Decide, Row } from './Decide';

/** A vendor's new vehicle as it would be listed: the vehicle, its prices, who listed it; approve or reject. */
export function VehicleReview({ id, onDone }: { id: number; onDone(): void }) {
  const store = useStore();
  const q = useListing(id);
  const decide = useDecideVehicle();
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const v = q.data;
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <Row label="Vendor">
          {v.vendor_name} ({v.vendor_email})
        </Row>
        <Row label="Submitted">{formatDateTime(v.submitted_at, store.timezone)}</Row>
        <Row label="Status">{v.lifecycle === 'pending_review' ? 'Waiting for review' : v.lifecycle}</Row>
        <Row label="Per day">{formatMoney(v.price_per_day, v.currency)}</Row>
        <Row label="Deposit">
          {v.deposit_percent === null ? 'Store default' : `${v.deposit_percent} % of the total`}
        </Row>
        <Row label="Category">{v.category}</Row>
        <Row label="Make and model">{[v.brand, v.model].filter(Boolean).join(' ') || '—'}</Row>
        <Row label="Year">{v.year ?? '—'}</Row>
        <Row label="Seats">{v.seats ?? '—'}</Row>
        <Row label="Transmission">{v.transmission}</Row>
        <Row label="Fuel">{v.fuel_type}</Row>
        <Row label="Location">{v.location_name ?? '—'}</Row>
        {v.review_reason && <Row label="Last rejection">{v.review_reason}</Row>}
      </dl>
      <section aria-labelledby="rv-photos">
        <h3 id="rv-photos" className="mb-1 font-semibold">
          Photos
        </h3>
        {v.photos.length === 0 ? (
          <p>No photos.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" aria-label={`Photos of ${v.name}`}>
            {v.photos.map((ph, i) => (
              <li key={ph.id} className="flex w-40 flex-col gap-1">
                <a href={ph.variants.detail.jpg} target="_blank" rel="noreferrer">
                  <img
                    src={ph.variants.card.jpg}
                    width={ph.variants.card.width}
                    height={ph.variants.card.height}
                    alt={ph.alt || `Photo ${i + 1} of ${v.name} (no alternative text)`}
                    className="h-auto w-40 rounded border"
                  />
                </a>
                <span className="text-xs">
                  {i === 0 ? 'Cover · ' : ''}
                  {ph.alt || 'No alternative text'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="rv-desc">
        <h3 id="rv-desc" className="mb-1 font-semibold">
          Description
        </h3>
        <p className="whitespace-pre-line">{v.description || 'No description.'}</p>
      </section>
      {v.lifecycle === 'pending_review' ? (
        <Decide
          what={v.name}
          approveText="The vehicle is listed at once: customers can find and book it."
          onDecide={(reason) => decide.mutateAsync({ id, ...(reason === undefined ? {} : { reason }) })}
          onDone={onDone}
        />
      ) : (
        <p role="status">Already decided.</p>
      )}
    </div>
  );
}
