import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';
import { FormField } from '../../components/FormField';
import { ErrorState, Loading } from '../../components/State';
import { useToast } from '../../components/Toast';

type Body = paths['/wp-json/rova-rental/v2/driver-settings']['put']['requestBody']['content']['application/json'];

/** "suv=25, van=23" ↔ {suv: 25, van: 23}. */
const byCategoryText = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
function parseByCategory(s: string): Record<string, number> | string {
  const out: Record<string, number> = {};
  for (const part of s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9][a-z0-9_-]{0,49})\s*=\s*(\d{2})$/.exec(part.toLowerCase());
    if (!m) return `"${part}" is not category=age (e.g. suv=25)`;
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** Settings → Driver and terms: minimum driver ages, whether a driver is required, the rental terms and version. */
export function DriverTerms() {
  const qc = useQueryClient();
  const toast = useToast();
  const q = useQuery({
    queryKey: ['driver-settings'],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v2/driver-settings')),
  });
  const [f, setF] = useState({ required: false, min: '21', by: '', text: '', url: '', version: '' });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const d = q.data;
    if (d)
      setF({
        required: d.driver_required,
        min: String(d.min_age),
        by: byCategoryText(d.min_age_by_category),
        text: d.terms_text,
        url: d.terms_url,
        version: d.terms_version,
      });
  }, [q.data]);
  const save = useMutation({
    mutationFn: (body: Body) => unwrapRental(api.PUT('/wp-json/rova-rental/v2/driver-settings', { body })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['driver-settings'] });
      toast('Settings saved');
    },
    onError: (e: Error) => setError(e.message),
  });
  if (q.isLoading) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} />;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const by = parseByCategory(f.by);
    if (typeof by === 'string') return setError(by);
    save.mutate({
      driver_required: f.required,
      min_age: Number(f.min),
      min_age_by_category: by,
      terms_text: f.text,
      terms_url: f.url,
      terms_version: f.version,
    });
  };
  return (
    <form onSubmit={submit} className="max-w-xl" aria-label="Driver and terms">
      <FormField label="Minimum driver age" hint="Years on the pick-up date, for any category without its own">
        <input
          className="input w-full"
          type="number"
          min={16}
          max={99}
          value={f.min}
          onChange={(e) => setF({ ...f, min: e.target.value })}
        />
      </FormField>
      <FormField label="Minimum age by category" hint="e.g. suv=25, van=23">
        <input className="input w-full" value={f.by} onChange={(e) => setF({ ...f, by: e.target.value })} />
      </FormField>
      <label className="mb-3 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={f.required} onChange={(e) => setF({ ...f, required: e.target.checked })} />
        Require driver details on every booking (API clients too)
      </label>
      <FormField label="Rental terms (text)" hint="Shown on the widget's review step; leave empty for none">
        <textarea
          className="input w-full"
          rows={5}
          value={f.text}
          onChange={(e) => setF({ ...f, text: e.target.value })}
        />
      </FormField>
      <FormField label="Rental terms (URL)" hint="A link to the terms instead of, or besides, the text">
        <input
          className="input w-full"
          type="url"
          value={f.url}
          onChange={(e) => setF({ ...f, url: e.target.value })}
        />
      </FormField>
      <FormField label="Terms version" hint="Required with terms; stored with each booking's acceptance">
        <input className="input w-full" value={f.version} onChange={(e) => setF({ ...f, version: e.target.value })} />
      </FormField>
      {error && (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}
