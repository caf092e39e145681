import { useState } from 'react';
import { newIdempotencyKey } from '../../api/idempotency';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { FormField } from '../../components/FormField';
import { StatementButton, StatementLinesButton } from '../../components/StatementButton';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { currencyDigits, formatDate, formatMoney } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useRequestPayout, useSummary, useVendorPayouts, type PayoutQuery } from './api';
import { PAYOUT_WORDS, Section, Stat } from './parts';

type Payout = NonNullable<ReturnType<typeof useVendorPayouts>['data']>['items'][number];

function RequestPayout() {
  const store = useStore();
  const toast = useToast();
  const s = useSummary({ per_page: 1 });
  const request = useRequestPayout();
  const [amount, setAmount] = useState<string | null>(null);
  // kept until a payout is requested: confirming again after an answer was lost is answered by that payout
  const [key, setKey] = useState(newIdempotencyKey);
  if (s.error) return <ErrorState error={s.error} onRetry={() => void s.refetch()} />;
  if (!s.data) return <Loading />;
  const { available, owed } = s.data.balances;
  const { min_payout: min, payout_freeze: frozen, open_payout_no: open } = s.data.payouts;
  const money = (n: number) => formatMoney(n, store.currency);
  const text = amount ?? (available > 0 ? String(available) : '');
  const value = Number(text);
  const digits = currencyDigits(store.currency);
  const problem =
    text.trim() === '' || !Number.isFinite(value)
      ? 'Enter an amount.'
      : !new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`).test(text.trim())
        ? `At most ${digits} decimals.`
        : value < min
          ? `The minimum payout is ${money(min)}.`
          : value > available
            ? `At most your available ${money(available)}.`
            : null;
  const blocked = frozen
    ? 'Payouts are paused by the platform for now.'
    : open !== null
      ? `Payout #${open} is still open: one payout at a time.`
      : owed > 0
        ? `You owe the platform ${money(owed)}: income settles it first.`
        : null;
  return (
    <div>
      <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-3">
        <Stat label="Available" value={money(available)} />
        <Stat label="Minimum payout" value={money(min)} />
        <Stat label="On hold" value={money(s.data.balances.on_hold)} hint="In a payout being processed" />
      </div>
      {blocked ? (
        <p role="status" className="rounded bg-amber-100 p-3 text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {blocked}
        </p>
      ) : (
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => e.preventDefault()}
          aria-label="Request a payout"
        >
          <FormField
            label={`Amount (${store.currency})`}
            error={amount !== null ? (problem ?? undefined) : undefined}
            hint={`Between ${money(min)} and ${money(available)}`}
          >
            <input
              className="input w-48"
              inputMode="decimal"
              value={text}
              onChange={(e) => setAmount(e.target.value)}
            />
          </FormField>
          <div className="mb-3">
            <ConfirmDialog
              trigger={
                <button type="button" className="btn btn-primary" disabled={problem !== null}>
                  Request payout
                </button>
              }
              title="Request this payout?"
              description={
                <p>
                  <strong>{money(value)}</strong> of your available {money(available)} moves on hold until the platform
                  pays it to your bank account; {money(Math.max(0, available - value))} stays available.
                </p>
              }
              confirmLabel={`Request ${money(value)}`}
              onConfirm={async () => {
                await request.mutateAsync({ amount: value, key });
                setKey(newIdempotencyKey());
                setAmount(null);
                toast('Payout requested');
              }}
            />
          </div>
        </form>
      )}
    </div>
  );
}

/**
 * /vendor/payouts: request (available and minimum shown, an Idempotency-Key per confirmation), history (each payout by
 * the vendor's own number), statements as PDF and their lines as CSV.
 */
export default function VendorPayouts() {
  const store = useStore();
  const [state, setState] = useTableState(['status']);
  const q = useVendorPayouts({
    page: state.page,
    per_page: state.perPage,
    ...(state.filters.status ? { status: state.filters.status as PayoutQuery['status'] } : {}),
  });
  const columns: Column<Payout>[] = [
    { id: 'id', header: 'Payout', cell: (p) => `#${p.statement_no}` },
    { id: 'amount', header: 'Amount', numeric: true, cell: (p) => formatMoney(p.amount, p.currency) },
    { id: 'requested_at', header: 'Requested', cell: (p) => formatDate(p.requested_at, store.timezone) },
    {
      id: 'status',
      header: 'Status',
      cell: (p) => `${PAYOUT_WORDS[p.status] ?? p.status}${p.rejection_reason ? ` (${p.rejection_reason})` : ''}`,
    },
    {
      id: 'statement',
      header: 'Statement',
      cell: (p) => (
        <div className="flex flex-wrap gap-2">
          <StatementButton payout={p} />
          <StatementLinesButton payout={p} />
        </div>
      ),
    },
  ];
  return (
    <div>
      <PageHeader title="Payouts" />
      <Section title="Request a payout">
        <RequestPayout />
      </Section>
      <Section title="Payout history">
        <div className="mb-3 flex flex-wrap gap-3" role="search" aria-label="Filters">
          <label className="flex flex-col text-sm">
            Status
            <select
              className="input"
              value={state.filters.status ?? ''}
              onChange={(e) => setState(withFilter(state, 'status', e.target.value))}
            >
              <option value="">Any</option>
              {Object.entries(PAYOUT_WORDS).map(([k, w]) => (
                <option key={k} value={k}>
                  {w}
                </option>
              ))}
            </select>
          </label>
        </div>
        <DataTable
          label="Payout history"
          columns={columns}
          rows={q.data?.items}
          total={q.data?.total}
          state={state}
          onState={setState}
          rowKey={(p) => String(p.id)}
          loading={q.isLoading}
          error={q.error}
          onRetry={() => void q.refetch()}
          empty="No payouts yet."
        />
      </Section>
    </div>
  );
}
