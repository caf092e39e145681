import { useStore } from '../../api/session';
import { DocumentLinks } from '../../components/DocumentLinks';
import { ErrorState, Loading } from '../../components/State';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useVendor, useVendorAudit } from './api';

/** One vendor: profile with the masked IBAN, documents, statistics, reliability score history, vehicles, recent payouts and the audit log. */
export function VendorDetail({ id }: { id: number }) {
  const store = useStore();
  const v = useVendor(id);
  const audit = useVendorAudit(id);
  if (v.error) return <ErrorState error={v.error} onRetry={() => void v.refetch()} />;
  if (!v.data) return <Loading />;
  const d = v.data;
  const s = d.statistics;
  const money = (n: number) => formatMoney(n, s.currency);
  const row = (label: string, value: string) => (
    <div className="contents" key={label}>
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd data-field={label}>{value}</dd>
    </div>
  );
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {row('E-mail', d.email)}
        {row('Phone', d.phone)}
        {row('City', d.city)}
        {row('Status', d.status)}
        {row('IBAN', d.iban_masked ?? '—')}
        {d.pending_iban_masked ? row('Pending IBAN', d.pending_iban_masked) : null}
        {row('Account holder', d.account_holder)}
        {row('Tax office / number', `${d.tax_office} / ${d.tax_number}`)}
        {row('Approved', formatDateTime(d.approved_at, store.timezone))}
      </dl>
      <section aria-labelledby="vd-stats">
        <h3 id="vd-stats" className="mb-1 font-semibold">
          Statistics
        </h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="vendor-stats">
          {row('Reliability score', String(s.reliability_score))}
          {row('Vehicles', String(s.vehicle_count))}
          {row('Completed bookings', String(s.completed_bookings))}
          {row('Total earned', money(s.total_earned))}
          {row('Paid out', money(s.total_paid_out))}
          {row('Available', money(s.available))}
          {row('On hold', money(s.on_hold))}
          {row('Penalties', money(s.penalties))}
          {s.owed > 0 && row('Owes the platform', money(s.owed))}
        </dl>
      </section>
      <section aria-labelledby="vd-score">
        <h3 id="vd-score" className="mb-1 font-semibold">
          Score history
        </h3>
        {d.score_history.length === 0 ? (
          <p>No score changes.</p>
        ) : (
          <table className="w-full text-left" aria-labelledby="vd-score" data-testid="vendor-score-history">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-800">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Event
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Before
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  After
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Change
                </th>
                <th scope="col" className="py-1 font-medium">
                  When
                </th>
              </tr>
            </thead>
            <tbody>
              {d.score_history.map((h, i) => (
                <tr key={i} className="border-b border-slate-100 dark:border-slate-800">
                  <td className="py-1 pr-2">
                    {h.event_type + (h.vehicle_id !== null ? ` (vehicle #${h.vehicle_id})` : '')}
                  </td>
                  <td className="py-1 pr-2 text-right tabular-nums">{h.score_before}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{h.score_after}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{h.delta > 0 ? `+${h.delta}` : String(h.delta)}</td>
                  <td className="py-1">{formatDateTime(h.created_at, store.timezone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="vd-docs">
        <h3 id="vd-docs" className="mb-1 font-semibold">
          Documents
        </h3>
        {d.documents.length === 0 ? (
          <p>No documents.</p>
        ) : (
          <ul className="list-disc pl-5">
            {d.documents.map((doc) => (
              <li key={doc.id}>
                <DocumentLinks doc={doc} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="vd-audit">
        <h3 id="vd-audit" className="mb-1 font-semibold">
          Audit log
        </h3>
        {audit.error ? (
          <ErrorState error={audit.error} onRetry={() => void audit.refetch()} />
        ) : !audit.data ? (
          <Loading />
        ) : audit.data.items.length === 0 ? (
          <p>No entries.</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="vendor-audit">
            {audit.data.items.map((e) => (
              <li key={e.id} className="py-1">
                <span className="font-medium">{e.event_type}</span> · {formatDateTime(e.created_at, store.timezone)}
                {e.amount !== null ? ` · ${formatMoney(e.amount, e.currency)}` : ''}
                {e.note ? ` · ${e.note}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
