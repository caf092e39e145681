import { Link } from 'react-router';
import { formatNumber } from '../../lib/format';
import { useReviewWaiting } from './api';

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** How many vendors' vehicles and applications wait for a decision, linking to the review queue (quiet when none). */
export function ReviewWaiting() {
  const q = useReviewWaiting();
  if (!q.data) return null;
  const { vehicles, applications, total } = q.data;
  return (
    <p className="card mb-4 flex flex-wrap items-center gap-x-3" data-testid="review-waiting">
      <Link
        to={vehicles === 0 && applications > 0 ? '/review/applications' : '/review/vehicles'}
        className="font-semibold text-teal-800 underline dark:text-teal-300"
      >
        {total === 0 ? 'Nothing waiting for review' : `${formatNumber(total)} waiting for review`}
      </Link>
      {total > 0 && (
        <span className="text-slate-700 dark:text-slate-300">
          {plural(vehicles, 'vehicle', 'vehicles')} ·{' '}
          {plural(applications, 'vendor application', 'vendor applications')}
        </span>
      )}
    </p>
  );
}
