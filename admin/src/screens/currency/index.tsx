import { cloneElement, useEffect, useState, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { useStore } from '../../api/session';
import { FormField, applyServerErrors } from '../../components/FormField';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney } from '../../lib/format';
import {
  SyncError,
  useCurrencies,
  useFxSettings,
  useRatesPreview,
  useSaveCurrencies,
  useSaveSettings,
  useSyncNow,
  type CurrencyRow,
  type Settings,
} from './api';

const INTERVALS = ['manual', 'hourly', 'twicedaily', 'daily'] as const;

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSaveSettings();
  const toast = useToast();
  type V = {
    auto_detect: boolean;
    cache_compat: boolean;
    rate_update_interval: Settings['rate_update_interval'];
    rate_sources: string;
  };
  const form = useForm<V>({
    defaultValues: {
      auto_detect: settings.auto_detect,
      cache_compat: settings.cache_compat,
      rate_update_interval: settings.rate_update_interval,
      rate_sources: settings.rate_sources.join(', '),
    },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const r = await save.mutateAsync({
        auto_detect: v.auto_detect,
        cache_compat: v.cache_compat,
        rate_update_interval: v.rate_update_interval,
        rate_sources: v.rate_sources
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      });
      if (r.adjustments.length === 0) toast('Settings saved');
      // a value the API corrected instead of storing it is an error, never a success
      else setFormError(`Refused: ${r.adjustments.map((a) => `${a.field} — ${refusalText(a)}`).join(' ')}`);
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
      <FormField
        label="Rate sources"
        hint="In order of preference, comma-separated"
        error={form.formState.errors.rate_sources?.message}
      >
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

/** The input each adjustment field of the API (`adjustments[].field`) belongs to, by its label after the code. */
const FIELD_INPUT: Record<string, string> = {
  rate: 'rate',
  fee: 'fee',
  rounding_value: 'rounding to',
  rounding_subtract: 'rounding subtract',
  decimals: 'decimals',
  position: 'symbol position',
  decimal_sep: 'symbol',
  thousand_sep: 'symbol',
};

/** The API's adjustment reasons in words: what was refused and what was stored instead. */
function refusalText(a: { reason: string; value: unknown }): string {
  const why: Record<string, string> = {
    negative: 'must not be negative',
    not_a_number: 'is not a number',
    not_finite: 'is not a finite number',
    decimals_invalid: 'is not a number of decimals',
    decimals_out_of_range: 'must be between 0 and 4',
    position_invalid: 'is not a symbol position',
    separator_invalid: 'is not a usable separator',
    separator_truncated: 'must be one character',
    decimal_sep_empty: 'must not be empty',
    separators_equal: 'must differ from the decimal separator',
  };
  const kept = a.value === '' || a.value === null || a.value === undefined ? 'nothing' : String(a.value);
  return `Refused: ${why[a.reason] ?? a.reason.replace(/_/g, ' ')} (saved as ${kept}).`;
}

type Refusals = Record<string, string>; // `${code} ${input label}` → message

/**
 * One labelled control of a currency row: a visible label ("rounding to") and the accessible name with the row's
 * code ("EUR rounding to"); a value the API refused shows in red under it (aria-invalid, aria-describedby).
 */
function Cell({
  code,
  name,
  refusals,
  children,
}: {
  code: string;
  name: string;
  refusals: Refusals;
  children: ReactElement<Record<string, unknown>>;
}) {
  const slug = `fx-${code}-${name.replace(/\s+/g, '-')}`;
  const error = refusals[`${code} ${name}`];
  return (
    <div className="mt-1 first:mt-0">
      <label className="block">
        <span className="block text-xs text-slate-600 dark:text-slate-400">{name}</span>
        {cloneElement(children, {
          'aria-label': `${code} ${name}`,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${slug}-error` : undefined,
        })}
      </label>
      {error && (
        <p
          id={`${slug}-error`}
          className="mt-1 max-w-48 text-xs text-red-700 dark:text-red-400"
          data-refused={`${code} ${name}`}
        >
          {error}
        </p>
      )}
    </div>
  );
}

function CurrencyTable({ rows, base }: { rows: CurrencyRow[]; base: string }) {
  const [draft, setDraft] = useState<CurrencyRow[]>(rows);
  useEffect(() => setDraft(rows), [rows]);
  const save = useSaveCurrencies();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Refusals>({});
  const patch = (i: number, f: (c: CurrencyRow) => CurrencyRow) =>
    setDraft((d) => d.map((c, j) => (j === i ? f(c) : c)));
  const onSave = async () => {
    setError(null);
    setRefusals({});
    try {
      const r = await save.mutateAsync(draft);
      if (r.adjustments.length === 0) {
        toast('Currencies saved');
        return;
      }
      // The API stores a corrected value instead of one it refused: that is an error on the field, not a success.
      const next: Refusals = {};
      const unplaced: string[] = [];
      for (const a of r.adjustments) {
        const input = FIELD_INPUT[a.field];
        if (input && a.code) next[`${a.code} ${input}`] = refusalText(a);
        else unplaced.push(`${a.code} ${a.field}: ${refusalText(a)}`);
      }
      setRefusals(next);
      setError(
        `${r.adjustments.length === 1 ? 'One value was' : `${r.adjustments.length} values were`} refused — see the marked fields.${unplaced.length > 0 ? ` ${unplaced.join(' ')}` : ''}`,
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const cell = 'p-2 align-top';
  const props = (c: CurrencyRow) => ({ code: c.code, refusals });
  return (
    <section className="card mt-4" aria-labelledby="fx-currencies-title">
      <h2 id="fx-currencies-title" className="mb-2 font-semibold">
        Currencies <span className="text-sm font-normal text-slate-600 dark:text-slate-400">(base {base})</span>
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Currencies">
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <tr>
              <th scope="col" className="p-2">
                Code
              </th>
              <th scope="col" className="p-2">
                Enabled
              </th>
              <th scope="col" className="p-2">
                Rate
              </th>
              <th scope="col" className="p-2">
                Fee
              </th>
              <th scope="col" className="p-2">
                Rounding
              </th>
              <th scope="col" className="p-2">
                Format
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.map((c, i) => (
              <tr key={c.code} data-code={c.code} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className={cell}>
                  {c.code}
                </th>
                <td className={cell}>
                  <Cell {...props(c)} name="enabled">
                    <input
                      type="checkbox"
                      checked={c.enabled}
                      disabled={c.code === base}
                      onChange={(e) => patch(i, (x) => ({ ...x, enabled: e.target.checked }))}
                    />
                  </Cell>
                </td>
                <td className={cell}>
                  <Cell {...props(c)} name="rate type">
                    <select
                      className="input py-1"
                      value={c.rate.type}
                      onChange={(e) =>
                        patch(i, (x) => ({
                          ...x,
                          rate: { ...x.rate, type: e.target.value as CurrencyRow['rate']['type'] },
                        }))
                      }
                    >
                      <option value="auto">auto</option>
                      <option value="manual">manual</option>
                    </select>
                  </Cell>
                  <Cell {...props(c)} name="rate">
                    <input
                      className="input w-28 py-1"
                      type="number"
                      step="any"
                      value={c.rate.value}
                      disabled={c.rate.type === 'auto'}
                      onChange={(e) => patch(i, (x) => ({ ...x, rate: { ...x.rate, value: num(e.target.value) } }))}
                    />
                  </Cell>
                </td>
                <td className={cell}>
                  <Cell {...props(c)} name="fee type">
                    <select
                      className="input py-1"
                      value={c.fee.type}
                      onChange={(e) =>
                        patch(i, (x) => ({
                          ...x,
                          fee: { ...x.fee, type: e.target.value as CurrencyRow['fee']['type'] },
                        }))
                      }
                    >
                      <option value="none">none</option>
                      <option value="percentage">percentage</option>
                      <option value="fixed">fixed</option>
                    </select>
                  </Cell>
                  <Cell {...props(c)} name="fee">
                    <input
                      className="input w-24 py-1"
                      type="number"
                      step="any"
                      value={c.fee.value}
                      onChange={(e) => patch(i, (x) => ({ ...x, fee: { ...x.fee, value: num(e.target.value) } }))}
                    />
                  </Cell>
                </td>
                <td className={cell}>
                  <Cell {...props(c)} name="rounding">
                    <select
                      className="input py-1"
                      value={c.rounding.type}
                      onChange={(e) =>
                        patch(i, (x) => ({
                          ...x,
                          rounding: { ...x.rounding, type: e.target.value as CurrencyRow['rounding']['type'] },
                        }))
                      }
                    >
                      {(['disabled', 'nearest', 'up', 'down'] as const).map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                    </select>
                  </Cell>
                  <Cell {...props(c)} name="rounding to">
                    <input
                      className="input w-20 py-1"
                      type="number"
                      step="any"
                      value={c.rounding.value}
                      onChange={(e) =>
                        patch(i, (x) => ({ ...x, rounding: { ...x.rounding, value: num(e.target.value) } }))
                      }
                    />
                  </Cell>
                  <Cell {...props(c)} name="rounding subtract">
                    <input
                      className="input w-20 py-1"
                      type="number"
                      step="any"
                      value={c.rounding.subtract}
                      onChange={(e) =>
                        patch(i, (x) => ({ ...x, rounding: { ...x.rounding, subtract: num(e.target.value) } }))
                      }
                    />
                  </Cell>
                </td>
                <td className={cell}>
                  <Cell {...props(c)} name="symbol">
                    <input
                      className="input w-16 py-1"
                      value={c.format.symbol}
                      onChange={(e) => patch(i, (x) => ({ ...x, format: { ...x.format, symbol: e.target.value } }))}
                    />
                  </Cell>
                  <Cell {...props(c)} name="symbol position">
                    <select
                      className="input py-1"
                      value={c.format.position}
                      onChange={(e) =>
                        patch(i, (x) => ({
                          ...x,
                          format: { ...x.format, position: e.target.value as CurrencyRow['format']['position'] },
                        }))
                      }
                    >
                      {(['left', 'right', 'left_space', 'right_space'] as const).map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                    </select>
                  </Cell>
                  <Cell {...props(c)} name="decimals">
                    <input
                      className="input w-16 py-1"
                      type="number"
                      step="1"
                      value={c.format.decimals}
                      onChange={(e) =>
                        patch(i, (x) => ({ ...x, format: { ...x.format, decimals: num(e.target.value) } }))
                      }
                    />
                  </Cell>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400" data-testid="currencies-error">
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
        Last sync:{' '}
        {cur.data?.last_sync
          ? `${formatDateTime(new Date(cur.data.last_sync.time * 1000), store.timezone)}${cur.data.last_sync.source ? ` from ${cur.data.last_sync.source}` : ''}`
          : 'never'}
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
        Preview ({formatMoney(q.data.sample_amount, q.data.base_currency)})
      </h2>
      <table className="w-full text-left text-sm" aria-label="Rate preview">
        <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
          <tr>
            <th scope="col" className="p-2">
              Code
            </th>
            <th scope="col" className="p-2 text-right">
              Raw rate
            </th>
            <th scope="col" className="p-2 text-right">
              Effective rate
            </th>
            <th scope="col" className="p-2 text-right">
              Sample
            </th>
            <th scope="col" className="p-2">
              State
            </th>
          </tr>
        </thead>
        <tbody>
          {q.data.rates.map((r) => (
            <tr key={r.code} data-code={r.code} className="border-b border-slate-100 dark:border-slate-800">
              <th scope="row" className="p-2">
                {r.code}
              </th>
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
      {settings.error ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !settings.data ? (
        <Loading />
      ) : (
        <SettingsForm settings={settings.data} />
      )}
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
