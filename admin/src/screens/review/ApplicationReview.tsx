import { useStore } from '../../api/session';
import { DocumentLinks } from '../../components/DocumentLinks';
import { ErrorState, Loading } from '../../components/State';
import { formatDateTime } from '../../lib/format';
import { useApplication, useDecideApplication } from './api';
import { Decide, Row } from './Decide';

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

/** A vendor application: contact, bank (IBAN masked by the server) and tax details, its documents; approve or reject. */
export function ApplicationReview({ id, onDone }: { id: number; onDone(): void }) {
  const store = useStore();
  const q = useApplication(id);
  const decide = useDecideApplication();
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const a = q.data;
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <Row label="Applicant">{a.applicant_name}</Row>
        <Row label="E-mail">{a.applicant_email}</Row>
        <Row label="Phone">{a.phone}</Row>
        <Row label="City">{a.city}</Row>
        <Row label="Service areas">{a.service_areas.join(', ') || '—'}</Row>
        <Row label="Applied">{formatDateTime(a.applied_at, store.timezone)}</Row>
        <Row label="Account holder">{a.account_holder}</Row>
        <Row label="IBAN">{a.iban_masked ?? '—'}</Row>
        <Row label="Tax office">{a.tax_office || '—'}</Row>
        <Row label="Tax number">{a.tax_number || '—'}</Row>
        <Row label="Terms">
          {a.terms_version}, accepted {formatDateTime(a.terms_accepted_at, store.timezone)}
        </Row>
      </dl>
      {a.bio && (
        <section aria-labelledby="ra-bio">
          <h3 id="ra-bio" className="mb-1 font-semibold">
            About
          </h3>
          <p className="whitespace-pre-line">{a.bio}</p>
        </section>
      )}
      <section aria-labelledby="ra-docs">
        <h3 id="ra-docs" className="mb-1 font-semibold">
          Documents
        </h3>
        {a.documents.length === 0 ? (
          <p>No documents.</p>
        ) : (
          <ul className="list-disc pl-5">
            {a.documents.map((d) => (
              <li key={d.id}>
                <DocumentLinks doc={d} /> <span className="text-slate-600 dark:text-slate-400">{size(d.size)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {a.status === 'pending' ? (
        <Decide
          what={`the application of ${a.applicant_name}`}
          approveText={`${a.applicant_name} becomes a vendor and can list vehicles.`}
          onDecide={(reason) => decide.mutateAsync({ id, ...(reason === undefined ? {} : { reason }) })}
          onDone={onDone}
        />
      ) : (
        <p role="status">Already {a.status}.</p>
      )}
    </div>
  );
}
