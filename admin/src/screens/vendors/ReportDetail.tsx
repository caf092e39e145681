import { useState } from 'react';
import { useStore } from '../../api/session';
import { ErrorState, Loading } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';
import { TextDialog } from '../../components/TextDialog';
import { useDecideReport, useReport, type ReportDecision } from './api';
import { describeDecision } from './report-outcome';

const DECISIONS: {
  decision: ReportDecision;
  label: string;
  allowed: (status: string) => boolean;
  description: string;
  danger?: boolean;
}[] = [
  {
    decision: 'review',
    label: 'Start review',
    allowed: (s) => s === 'open',
    description: 'The vendor sees the report as in review. Nothing else changes.',
  },
  {
    decision: 'resolve',
    label: 'Resolve',
    allowed: (s) => s === 'open' || s === 'in_review',
    description:
      'The vendor is upheld: a penalty appeal reverses the penalty; a vehicle action waives the deferred penalty.',
  },
  {
    decision: 'reject',
    label: 'Reject',
    danger: true,
    allowed: (s) => s === 'open' || s === 'in_review',
    description: 'The vendor is not upheld: a vehicle action applies the deferred withdrawal penalty.',
  },
];

export function ReportDetail({ id }: { id: number }) {
  const store = useStore();
  const toast = useToast();
  const r = useReport(id);
  const decide = useDecideReport();
  const [outcome, setOutcome] = useState<string | null>(null);
  if (r.error) return <ErrorState error={r.error} onRetry={() => void r.refetch()} />;
  if (!r.data) return <Loading />;
  const d = r.data;
  const row = (label: string, value: string) => (
    <div className="contents" key={label}>
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd data-field={label}>{value}</dd>
    </div>
  );
  return (
    <div className="space-y-5 text-sm">
      <h3 className="text-base font-semibold">{d.title}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {row('Status', d.status_label)}
        {row('Vendor', `${d.vendor_name} · ${d.vendor_email}`)}
        {row('Context', d.context_label + (d.context_id !== null ? ` #${d.context_id}` : ''))}
        {row('Filed', formatDateTime(d.created_at, store.timezone))}
        {d.resolved_at ? row('Decided', formatDateTime(d.resolved_at, store.timezone)) : null}
        {row('Admin note', d.admin_note ?? '—')}
      </dl>
      <section aria-labelledby="rd-desc">
        <h4 id="rd-desc" className="mb-1 font-semibold">
          Description
        </h4>
        <p className="whitespace-pre-wrap" data-testid="report-description">
          {d.description}
        </p>
      </section>
      {outcome && (
        <p
          role="status"
          className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
          data-testid="report-outcome"
        >
          {outcome}
        </p>
      )}
      {!d.is_terminal && (
        <div className="flex flex-wrap gap-2">
          {DECISIONS.filter((x) => x.allowed(d.status)).map((x) => (
            <TextDialog
              key={x.decision}
              label="Note to the vendor (optional)"
              trigger={
                <button
                  type="button"
                  className={x.danger ? 'btn btn-danger' : x.decision === 'resolve' ? 'btn btn-primary' : 'btn'}
                >
                  {x.label}
                </button>
              }
              title={`${x.label} report #${d.id}?`}
              description={x.description}
              confirmLabel={x.label}
              danger={x.danger}
              onConfirm={async (note) => {
                const res = await decide.mutateAsync({ id: d.id, decision: x.decision, note });
                const text = describeDecision(res);
                setOutcome(text);
                toast(text);
              }}
            />
          ))}
        </div>
      )}
      <section aria-labelledby="rd-audit">
        <h4 id="rd-audit" className="mb-1 font-semibold">
          Audit trail
        </h4>
        <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="report-audit">
          {d.audit.map((e, i) => (
            <li key={i} className="py-1">
              <span className="font-medium">{e.action}</span> · {formatDateTime(e.at, store.timezone)}
              {e.actor_id !== null ? ` · user #${e.actor_id}` : ''}
              {e.note ? ` · ${e.note}` : ''}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
