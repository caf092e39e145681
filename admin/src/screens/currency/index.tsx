import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useStore } from '../../api/session';
import { FormField, applyServerErrors } from '../../components/FormField';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';
import { SyncError, useCurrencies, useFxSettings, useRatesPreview, useSaveCurrencies, useSaveSettings, useSyncNow, type CurrencyRow, type Settings } from './api';

const INTERVALS = ['manual', 'hourly', 'twicedaily', 'daily'] as const;

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSaveSettings();
  const toast = useToast();
  type V = { auto_detect: boolean; cache_compat: boolean; rate_update_interval: Settings['rate_update_interval']; rate_sources: string };
  const form = useForm<V>({ defaultValues: { auto_detect: settings.auto_detect, cache_compat: settings.cache_compat, rate_update_interval: settings.rate_update_interval, rate_sources: settings.rate_sources.join(', ') } });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const r = await save.mutateAsync({ auto_detect: v.auto_detect, cache_compat: v.cache_compat, rate_update_interval: v.rate_update_interval, rate_sources: v.rate_sources.split(',').map((s) => s.trim()).filter(Boolean) });
      toast(r.adjustments.length > 0 ? `Settings saved (${r.adjustments.map((a) => a.reason).join('; ')})` : 'Settings saved');
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['rate_update_interval', 'rate_sources']));
    }
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="card" aria-labelledby="fx-settings-title" noValidate>
      <h2 id="fx-settings-title" className="mb-3 font-semibold">
        Settings
      </h2>
      <FormField label="Rate update interval" error={form.formState.errors.rate_update_interval?.message}>
        <select className="input w-full" {...form.register('rate_update_interval')}>
          {INTERVALS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Rate sources" hint="In order of preference, comma-separated" error={form.formState.errors.rate_sources?.message}>
        <input className="input w-full" {...form.register('rate_sources')} />
      </FormField>
      <div className="mb-3 flex items-center gap-2">
        <input type="checkbox" id="fx-auto-detect" {...form.register('auto_detect')} />
        <label htmlFor="fx-auto-detect" className="text-sm font-medium">
          Detect the visitor's currency
        </label>
      </div>
      <div className="mb-3 flex items-center gap-2">
        <input type="checkbox" id="fx-cache-compat" {...form.register('cache_compat')} />
        <label htmlFor="fx-cache-compat" className="text-sm font-medium">
          Page-cache compatibility
        </label>
      </div>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        Save settings
      </button>
    </form>
  );
}

const num = (s: string) => (s.trim() === '' ? 0 : Number(s));

function CurrencyTable({ rows, base }: { rows: CurrencyRow[]; base: string }) {
  const [draft, setDraft] = useState<CurrencyRow[]>(rows);
  useEffect(() => setDraft(rows), [rows]);
  const save = useSaveCurrencies();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const patch = (i: number, f: (c: CurrencyRow) => CurrencyRow) => setDraft((d) => d.map((c, j) => (j === i ? f(c) : c)));
  const onSave = async () => {
    setError(null);
    try {
      const r = await save.mutateAsync(draft);
      toast(r.adjustments.length > 0 ? `Currencies saved (${r.adjustments.map((a) => `${a.code} ${a.field}: ${a.reason}`).join('; ')})` : 'Currencies saved');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const cell = 'p-2 align-top';
  return (
    <section className="card mt-4" aria-labelledby="fx-currencies-title">
      <h2 id="fx-currencies-title" className="mb-2 font-semibold">
        Currencies <span className="text-sm font-normal text-slate-600 dark:text-slate-400">(base {base})</span>
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Currencies">
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <tr>
              <th scope="col" className="p-2">Code</th>
              <th scope="col" className="p-2">Enabled</th>
              <th scope="col" className="p-2">Rate</th>
              <th scope="col" className="p-2">Fee</th>
              <th scope="col" className="p-2">Rounding</th>
              <th scope="col" className="p-2">Format</th>
            </tr>
          </thead>
          <tbody>
            {draft.map((c, i) => (
              <tr key={c.code} data-code={c.code} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className={cell}>{c.code}</th>
                <td className={cell}>
                  <input type="checkbox" aria-label={`${c.code} enabled`} checked={c.enabled} disabled={c.code === base} onChange={(e) => patch(i, (x) => ({ ...x, enabled: e.target.checked }))} />
                </td>
                <td className={cell}>
                  <select className="input py-1" aria-label={`${c.code} rate type`} value={c.rate.type} onChange={(e) => patch(i, (x) => ({ ...x, rate: { ...x.rate, type: e.target.value as CurrencyRow['rate']['type'] } }))}>
                    <option value="auto">auto</option>
                    <option value="manual">manual</option>
                  </select>
                  <input className="input mt-1 w-28 py-1" type="number" step="any" aria-label={`${c.code} rate`} value={c.rate.value} disabled={c.rate.type === 'auto'} onChange={(e) => patch(i, (x) => ({ ...x, rate: { ...x.rate, value: num(e.target.value) } }))} />
                </td>
                <td className={cell}>
                  <select className="input py-1" aria-label={`${c.code} fee type`} value={c.fee.type} onChange={(e) => patch(i, (x) => ({ ...x, fee: { ...x.fee, type: e.target.value as CurrencyRow['fee']['type'] } }))}>
                    <option value="none">none</option>
                    <option value="percentage">percentage</option>
                    <option value="fixed">fixed</option>
                  </select>
                  <input className="input mt-1 w-24 py-1" type="number" step="any" aria-label={`${c.code} fee`} value={c.fee.value} onChange={(e) => patch(i, (x) => ({ ...x, fee: { ...x.fee, value: num(e.target.value) } }))} />
                </td>
                <td className={cell}>
                  <select className="input py-1" aria-label={`${c.code} rounding`} value={c.rounding.type} onChange={(e) => patch(i, (x) => ({ ...x, rounding: { ...x.rounding, type: e.target.value as CurrencyRow['rounding']['type'] } }))}>
                    {(['disabled', 'nearest', 'up', 'down'] as const).map((t) => (
                      <option key={t} value={t}>{t}</option>
                    ))}
                  </select>
                  <input className="input mt-1 w-20 py-1" type="number" step="any" aria-label={`${c.code} rounding to`} value={c.rounding.value} onChange={(e) => patch(i, (x) => ({ ...x, rounding: { ...x.rounding, value: num(e.target.value) } }))} />
                  <input className="input mt-1 w-20 py-1" type="number" step="any" aria-label={`${c.code} rounding subtract`} value={c.rounding.subtract} onChange={(e) => patch(i, (x) => ({ ...x, rounding: { ...x.rounding, subtract: num(e.target.value) } }))} />
                </td>
                <td className={cell}>
                  <input className="input w-16 py-1" aria-label={`${c.code} symbol`} value={c.format.symbol} onChange={(e) => patch(i, (x) => ({ ...x, format: { ...x.format, symbol: e.target.value } }))} />
                  <select className="input mt-1 py-1" aria-label={`${c.code} symbol position`} value={c.format.position} onChange={(e) => patch(i, (x) => ({ ...x, format: { ...x.format, position: e.target.value as CurrencyRow['format']['position'] } }))}>
                    {(['left', 'right', 'left_space', 'right_space'] as const).map((t) => (
                      <option key={t} value={t}>{t}</option>
                    ))}
                  </select>
                  <input className="input mt-1 w-16 py-1" type="number" min={0} max={8} aria-label={`${c.code} decimals`} value={c.format.decimals} onChange={(e) => patch(i, (x) => ({ ...x, format: { ...x.format, decimals: num(e.target.value) } }))} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-primary mt-3" disabled={save.isPending} onClick={() => void onSave()}>
        {save.isPending ? 'Saving…' : 'Save currencies'}
      </button>
    </section>
  );
}

function SyncPanel() {
  const store = useStore();
  const sync = useSyncNow();
  const cur = useCurrencies();
  const err = sync.error;
  return (
    <section className="card mt-4" aria-labelledby="fx-sync-title">
      <h2 id="fx-sync-title" className="mb-2 font-semibold">
        Rate sync
      </h2>
      <p className="text-sm">
        Last sync: {cur.data?.last_sync ? `${formatDateTime(new Date(cur.data.last_sync.time * 1000), store.timezone)}${cur.data.last_sync.source ? ` from ${cur.data.last_sync.source}` : ''}` : 'never'}
        {' · '}Next: {cur.data?.next_sync ? formatDateTime(cur.data.next_sync.iso, store.timezone) : 'manual only'}
      </p>
      <button type="button" className="btn mt-2" disabled={sync.isPending} onClick={() => sync.mutate()}>
        {sync.isPending ? 'Syncing…' : 'Sync now'}
      </button>
      {sync.data && (
        <p role="status" className="mt-2 text-sm" data-testid="sync-result">
          Updated {sync.data.updated.length} rates from {sync.data.source}
          {sync.data.rejected.length > 0 ? `; rejected ${sync.data.rejected.map((r) => r.code).join(', ')}` : ''}.
        </p>
      )}
      {err && (
        <div role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300" data-testid="sync-error">
          <p className="font-medium">{err.message}</p>
          {err instanceof SyncError && err.attempts.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {err.attempts.map((a) => (
                <li key={a.source} data-source={a.source}>
                  <span className="font-medium">{a.source}</span>: {a.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function Preview() {
  const q = useRatesPreview();
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  return (
    <section className="card mt-4" aria-labelledby="fx-preview-title">
      <h2 id="fx-preview-title" className="mb-2 font-semibold">
        Preview ({q.data.sample_amount} {q.data.base_currency})
      </h2>
      <table className="w-full text-left text-sm" aria-label="Rate preview">
        <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
          <tr>
            <th scope="col" className="p-2">Code</th>
            <th scope="col" className="p-2 text-right">Raw rate</th>
            <th scope="col" className="p-2 text-right">Effective rate</th>
            <th scope="col" className="p-2 text-right">Sample</th>
            <th scope="col" className="p-2">State</th>
          </tr>
        </thead>
        <tbody>
          {q.data.rates.map((r) => (
            <tr key={r.code} data-code={r.code} className="border-b border-slate-100 dark:border-slate-800">
              <th scope="row" className="p-2">{r.code}</th>
              <td className="p-2 text-right tabular-nums">{r.raw_rate}</td>
              <td className="p-2 text-right tabular-nums">{r.effective_rate}</td>
              <td className="p-2 text-right tabular-nums">{r.sample_to}</td>
              <td className="p-2">{!r.usable ? 'unusable' : r.stale ? 'stale' : 'ok'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function Currency() {
  const settings = useFxSettings();
  const currencies = useCurrencies();
  return (
    <div>
      <PageHeader title="Currency" />
      {settings.error ? <ErrorState error={settings.error} onRetry={() => void settings.refetch()} /> : !settings.data ? <Loading /> : <SettingsForm settings={settings.data} />}
      {currencies.error ? (
        <ErrorState error={currencies.error} onRetry={() => void currencies.refetch()} />
      ) : !currencies.data ? (
        <Loading />
      ) : (
        <CurrencyTable rows={currencies.data.currencies} base={currencies.data.base_currency} />
      )}
      <SyncPanel />
      <Preview />
    </div>
  );
}
