import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useStore } from '../../api/session';
import { applyServerErrors, FormField } from '../../components/FormField';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { useIbanChange, useProfile } from './api';
import { Section } from './parts';

function IbanChange({ pending }: { pending: string | null }) {
  const toast = useToast();
  const change = useIbanChange();
  const form = useForm<{ iban: string }>({ defaultValues: { iban: '' } });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await change.mutateAsync(v.iban.replace(/\s+/g, ''));
      form.reset({ iban: '' });
      toast('IBAN change requested');
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['iban']));
    }
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Request an IBAN change">
      {pending && (
        <p
          role="status"
          className="mb-3 rounded bg-amber-100 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Waiting for the platform to approve{' '}
          <span className="font-mono" data-testid="pending-iban">
            {pending}
          </span>
          . A new request replaces it.
        </p>
      )}
      <FormField
        label="New IBAN"
        error={form.formState.errors.iban?.message}
        hint="Takes effect once the platform approves it; payouts go to the current account until then."
      >
        <input
          className="input w-full font-mono"
          autoComplete="off"
          spellCheck={false}
          {...form.register('iban', { required: 'Enter the new IBAN' })}
        />
      </FormField>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        Request IBAN change
      </button>
    </form>
  );
}

/** /vendor/profile: the vendor's own record (IBAN masked) and the IBAN change request. */
export default function VendorProfile() {
  const store = useStore();
  const q = useProfile();
  if (q.error)
    return (
      <div>
        <PageHeader title="Vendor profile" />
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      </div>
    );
  if (!q.data)
    return (
      <div>
        <PageHeader title="Vendor profile" />
        <Loading />
      </div>
    );
  const p = q.data;
  const rows: [string, string][] = [
    ['Name', p.display_name],
    ['E-mail', p.email],
    ['Phone', p.phone ?? '—'],
    ['City', p.city ?? '—'],
    ['Service areas', p.service_areas.join(', ') || '—'],
    ['Status', p.status === 'active' ? 'Active' : 'Suspended'],
    ['Vendor since', formatDate(p.approved_at, store.timezone)],
    ['Commission', p.commission_rate === null ? 'Marketplace rate' : `${p.commission_rate} %`],
    ['Account holder', p.account_holder || '—'],
    ['IBAN', p.iban_masked ?? '—'],
    ['Tax office', p.tax_office || '—'],
    ['Tax number', p.tax_number || '—'],
  ];
  return (
    <div>
      <PageHeader title="Vendor profile" />
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Your details">
          <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm" data-testid="profile">
            {rows.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
                <dd className={k === 'IBAN' ? 'font-mono' : ''} data-field={k}>
                  {v}
                </dd>
              </div>
            ))}
          </dl>
          {p.bio && <p className="mt-3 text-sm">{p.bio}</p>}
        </Section>
        <Section title="Bank account">
          <p className="mb-3 text-sm">
            Payouts go to <span className="font-mono">{p.iban_masked ?? '—'}</span> ({p.account_holder || 'no holder'}).
          </p>
          <IbanChange pending={p.pending_iban_masked} />
        </Section>
      </div>
    </div>
  );
}
