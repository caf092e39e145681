import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, ApiError, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import { useStore } from '../../api/session';
import { applyServerErrors, FormField } from '../../components/FormField';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';

type ApplyBody =
  paths['/wp-json/rova-rental/v1/vendor/application']['post']['requestBody']['content']['multipart/form-data'];

const useTerms = () =>
  useQuery({
    queryKey: ['become-vendor', 'terms'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/application/terms')),
  });
/** The caller's latest application; none yet is a 404, shown as "not applied". */
const useApplication = () =>
  useQuery({
    queryKey: ['become-vendor', 'application'],
    queryFn: async () => {
      try {
        return await unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/application'));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
  });

const STATUS: Record<string, string> = {
  pending: 'Submitted — waiting for the platform to review it',
  approved: 'Approved — you are a vendor',
  rejected: 'Not approved',
};

interface Values {
  phone: string;
  city: string;
  iban: string;
  account_holder: string;
  tax_office: string;
  tax_number: string;
  bio: string;
  service_areas: string;
  terms_accepted: boolean;
  document_id: FileList;
  document_license: FileList;
  document_address: FileList;
}
const FIELDS = [
  'phone',
  'city',
  'iban',
  'account_holder',
  'tax_office',
  'tax_number',
  'bio',
  'service_areas',
  'terms_accepted',
  'document_id',
  'document_license',
  'document_address',
] as const;
const ACCEPT = 'application/pdf,image/jpeg,image/png,image/webp';
const MAX = 10 * 1024 * 1024;
const fileRule = (required: boolean) => ({
  validate: (f: FileList | undefined) => {
    const file = f?.[0];
    if (!file) return required ? 'An identity document is required' : true;
    return file.size <= MAX || 'At most 10 MB';
  },
});

function ApplyForm({ termsVersion }: { termsVersion: string }) {
  const toast = useToast();
  const qc = useQueryClient();
  const form = useForm<Values>({ defaultValues: { terms_accepted: false } });
  const [formError, setFormError] = useState<string | null>(null);
  const apply = useMutation({
    mutationFn: (v: Values) => {
      const fd = new FormData();
      for (const k of [
        'phone',
        'city',
        'iban',
        'account_holder',
        'tax_office',
        'tax_number',
        'bio',
        'service_areas',
      ] as const)
        if (v[k].trim()) fd.append(k, v[k].trim());
      fd.append('terms_accepted', 'true');
      fd.append('terms_version', termsVersion);
      for (const k of ['document_id', 'document_license', 'document_address'] as const) {
        const f = v[k]?.[0];
        if (f) fd.append(k, f, f.name);
      }
      // multipart: the client sends the FormData as it is (the browser sets the boundary), with the nonce header. The
      // two casts stay: openapi-fetch types a body by its JSON schema (the files as strings), never as FormData.
      return unwrapRental(
        api.POST('/wp-json/rova-rental/v1/vendor/application', {
          body: fd as unknown as ApplyBody,
          bodySerializer: (b) => b as unknown as FormData,
        }),
      );
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['become-vendor'] }),
  });
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await apply.mutateAsync(v);
      toast('Application submitted');
    } catch (err) {
      setFormError(applyServerErrors(err, form.setError, FIELDS));
    }
  });
  return (
    <form onSubmit={(ev) => void onSubmit(ev)} noValidate aria-label="Vendor application" className="max-w-2xl">
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField label="Phone" error={e.phone?.message}>
          <input
            className="input w-full"
            type="tel"
            autoComplete="tel"
            {...form.register('phone', { required: 'A phone number is required' })}
          />
        </FormField>
        <FormField label="City" error={e.city?.message}>
          <input
            className="input w-full"
            autoComplete="address-level2"
            {...form.register('city', { required: 'A city is required' })}
          />
        </FormField>
        <FormField label="Account holder" error={e.account_holder?.message}>
          <input
            className="input w-full"
            {...form.register('account_holder', { required: 'The account holder is required' })}
          />
        </FormField>
        <FormField label="IBAN" error={e.iban?.message} hint="Stored encrypted; shown masked afterwards">
          <input
            className="input w-full font-mono"
            autoComplete="off"
            spellCheck={false}
            {...form.register('iban', { required: 'An IBAN is required' })}
          />
        </FormField>
        <FormField label="Tax office" error={e.tax_office?.message}>
          <input className="input w-full" {...form.register('tax_office')} />
        </FormField>
        <FormField label="Tax number" error={e.tax_number?.message}>
          <input className="input w-full" {...form.register('tax_number')} />
        </FormField>
      </div>
      <FormField label="Service areas" error={e.service_areas?.message} hint="Cities you serve, separated by commas">
        <input className="input w-full" {...form.register('service_areas')} />
      </FormField>
      <FormField label="About your fleet" error={e.bio?.message}>
        <textarea className="input w-full" rows={3} {...form.register('bio')} />
      </FormField>
      <fieldset className="mb-3 rounded border border-slate-200 p-3 dark:border-slate-800">
        <legend className="px-1 text-sm font-medium">Documents (PDF, JPEG, PNG or WebP, up to 10 MB each)</legend>
        <FormField label="Identity document (required)" error={e.document_id?.message}>
          <input
            type="file"
            accept={ACCEPT}
            className="block w-full text-sm"
            {...form.register('document_id', fileRule(true))}
          />
        </FormField>
        <FormField label="Driving or business licence" error={e.document_license?.message}>
          <input
            type="file"
            accept={ACCEPT}
            className="block w-full text-sm"
            {...form.register('document_license', fileRule(false))}
          />
        </FormField>
        <FormField label="Proof of address" error={e.document_address?.message}>
          <input
            type="file"
            accept={ACCEPT}
            className="block w-full text-sm"
            {...form.register('document_address', fileRule(false))}
          />
        </FormField>
      </fieldset>
      <div className="mb-3">
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            aria-invalid={e.terms_accepted ? true : undefined}
            aria-describedby={e.terms_accepted ? 'terms-error' : undefined}
            {...form.register('terms_accepted', { validate: (x) => x || 'Accept the vendor terms to apply' })}
          />
          <span>I accept the vendor terms (version {termsVersion}).</span>
        </label>
        {e.terms_accepted && (
          <p id="terms-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {e.terms_accepted.message}
          </p>
        )}
      </div>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Sending…' : 'Apply'}
      </button>
    </form>
  );
}

/**
 * /become-vendor: for a signed-in user who is not a vendor (a customer logs in to the same app and sees only this
 * screen). Shows the latest application's status; the form when the server says an application is possible.
 */
export default function BecomeVendor() {
  const store = useStore();
  const terms = useTerms();
  const app = useApplication();
  if (terms.error || app.error)
    return (
      <div>
        <PageHeader title="Become a vendor" />
        <ErrorState
          error={terms.error ?? app.error}
          onRetry={() => {
            void terms.refetch();
            void app.refetch();
          }}
        />
      </div>
    );
  if (!terms.data || app.data === undefined)
    return (
      <div>
        <PageHeader title="Become a vendor" />
        <Loading />
      </div>
    );
  const a = app.data;
  return (
    <div>
      <PageHeader title="Become a vendor" />
      <p className="mb-4 max-w-2xl">
        List your own vehicles on the marketplace: you earn each completed rental's price less the platform's
        commission, paid out to your bank account.
      </p>
      {a && (
        <section className="card mb-4 max-w-2xl" aria-labelledby="application-title">
          <h2 id="application-title" className="mb-2 text-lg font-semibold">
            Your application
          </h2>
          <p data-testid="application-status" className="font-medium">
            {STATUS[a.status] ?? a.status}
          </p>
          <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-400">Submitted</dt>
            <dd>{formatDateTime(a.applied_at, store.timezone)}</dd>
            <dt className="text-slate-600 dark:text-slate-400">IBAN</dt>
            <dd className="font-mono">{a.iban_masked ?? '—'}</dd>
            <dt className="text-slate-600 dark:text-slate-400">Documents</dt>
            <dd>{a.documents.map((d) => `${d.label} (${d.file_name})`).join(', ') || '—'}</dd>
            {a.rejection_reason && (
              <>
                <dt className="text-slate-600 dark:text-slate-400">Reason</dt>
                <dd>{a.rejection_reason}</dd>
              </>
            )}
            {a.can_reapply_at && (
              <>
                <dt className="text-slate-600 dark:text-slate-400">Apply again from</dt>
                <dd>{formatDateTime(a.can_reapply_at, store.timezone)}</dd>
              </>
            )}
          </dl>
          {a.status === 'approved' && <p className="mt-3 text-sm">Log out and in again to open your vendor portal.</p>}
        </section>
      )}
      {terms.data.can_apply ? (
        <ApplyForm termsVersion={terms.data.terms_version} />
      ) : (
        !a && <p role="status">{terms.data.reason ?? 'You cannot apply right now.'}</p>
      )}
    </div>
  );
}
