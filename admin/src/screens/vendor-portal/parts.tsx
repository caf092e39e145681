import type { ReactNode } from 'react';
import { useStore } from '../../api/session';
import { Skeleton } from '../../components/State';
import { formatMoney } from '../../lib/format';
import { useConsequences, type ConsequenceQuery } from './api';
import { scoreChange } from './score';

/** A listing's lifecycle in words (the API's codes stay out of the vendor's way). */
export const LIFECYCLE_WORDS: Record<string, string> = {
  pending_review: 'Under review',
  active: 'Listed',
  paused: 'Paused',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
  rejected: 'Not approved',
};

export const BOOKING_WORDS: Record<string, string> = {
  draft: 'Draft',
  pending_payment: 'Awaiting payment',
  pending: 'Pending',
  confirmed: 'Confirmed',
  in_progress: 'On the road',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-show',
  refunded: 'Refunded',
};

export const PAYOUT_WORDS: Record<string, string> = {
  requested: 'Requested',
  approved: 'Approved',
  rejected: 'Rejected',
  paid: 'Paid',
  failed: 'Failed',
};

export function Stat({
  label,
  value,
  hint,
  tone,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: 'bad';
}) {
  return (
    <div className="card p-4" data-stat={label}>
      <div className="text-sm text-slate-600 dark:text-slate-400">{label}</div>
      <div
        className={`mt-1 text-2xl font-semibold tabular-nums ${tone === 'bad' ? 'text-red-700 dark:text-red-400' : ''}`}
      >
        {value}
      </div>
      {hint && <div className="mt-1 text-xs text-slate-600 dark:text-slate-400">{hint}</div>}
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card mb-4 p-4" aria-label={title}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * What an action costs, asked from the server when its confirmation opens (GET /vendor/consequences): the
 * reliability score before → after and, for a withdrawal, the penalty taken from the available balance.
 */
export function Consequence({ query, intro }: { query: ConsequenceQuery; intro: ReactNode }) {
  const store = useStore();
  const q = useConsequences(query);
  return (
    <div className="space-y-2">
      <p>{intro}</p>
      {q.isLoading && <Skeleton className="h-10 w-full" />}
      {q.error && <p role="alert">Could not work out the cost: {q.error.message}</p>}
      {q.data && (
        <ul className="list-disc space-y-1 pl-5" data-testid="consequence">
          {query.action === 'withdraw' && (
            <li>
              {q.data.penalty_deferred
                ? 'Penalty (deferred while your report about this vehicle is open): '
                : 'Withdrawal penalty taken from your available balance: '}
              <strong>{formatMoney(q.data.penalty, q.data.currency || store.currency)}</strong> (
              {q.data.penalty_rate_percent} % of your average monthly income)
            </li>
          )}
          <li data-testid="consequence-score">
            <ScoreChange before={q.data.reliability_score} after={q.data.reliability_score_after} />
          </li>
        </ul>
      )}
    </div>
  );
}

/** "Reliability score: 72 → 70", "… 70 → 70 (no change)", or at the maximum "… 100 — already the maximum, …". */
function ScoreChange({ before, after }: { before: number; after: number }) {
  const c = scoreChange(before, after);
  return (
    <span data-score-change={c.kind}>
      Reliability score:{' '}
      {c.kind === 'max' ? (
        <>
          <strong>{before}</strong> — already the maximum, and it stays there
        </>
      ) : (
        <>
          <strong>{before}</strong> → <strong>{after}</strong>
          {c.kind === 'same' ? ' (no change)' : ''}
        </>
      )}
    </span>
  );
}
