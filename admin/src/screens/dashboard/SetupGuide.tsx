import { Link } from 'react-router';
import type { SetupStep } from './setup';

/**
 * The getting-started checklist: one list item per step, its state in words ("Done" / "To do") as well as by its
 * mark, and a link to the screen that does it. `onHide` (offered once there is data to chart) hides it for good.
 */
export function SetupGuide({ steps, onHide }: { steps: SetupStep[]; onHide?: () => void }) {
  const done = steps.filter((s) => s.done).length;
  return (
    <section className="card mb-4" aria-labelledby="setup-title" data-testid="setup-guide">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="setup-title" className="text-lg font-semibold">
            Get started
          </h2>
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="setup-progress">
            {done} of {steps.length} steps done
          </p>
        </div>
        {onHide && (
          <button type="button" className="btn" onClick={onHide}>
            Hide this guide
          </button>
        )}
      </div>
      <div className="mt-2 h-2 rounded bg-slate-200 dark:bg-slate-800" aria-hidden="true">
        <div className="h-2 rounded bg-teal-700" style={{ width: `${(done / steps.length) * 100}%` }} />
      </div>
      <ol className="mt-3 divide-y divide-slate-200 dark:divide-slate-800" aria-labelledby="setup-title">
        {steps.map((s) => (
          <li
            key={s.id}
            className="flex items-start gap-3 py-3"
            data-step={s.id}
            data-done={s.done === null ? 'unknown' : String(s.done)}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold ${
                s.done
                  ? 'border-teal-700 bg-teal-700 text-white'
                  : 'border-slate-400 text-transparent dark:border-slate-500'
              }`}
            >
              ✓
            </span>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline gap-x-2">
                {s.to ? (
                  <Link to={s.to} className="font-medium text-teal-800 underline dark:text-teal-300">
                    {s.title}
                  </Link>
                ) : (
                  <span className="font-medium">{s.title}</span>
                )}
                <span
                  className={`text-sm ${s.done ? 'text-teal-800 dark:text-teal-300' : 'text-slate-700 dark:text-slate-300'}`}
                  data-testid="setup-state"
                >
                  {s.done === null ? 'Checking' : s.done ? 'Done' : 'To do'}
                </span>
              </div>
              <p className="text-sm text-slate-700 dark:text-slate-300">{s.detail}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
