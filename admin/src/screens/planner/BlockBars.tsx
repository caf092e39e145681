import type { PlannerBlock } from './api';
import { columnOf } from './dates';

/** What a block's reason says to the operator. */
export const BLOCK_WORDS: Record<PlannerBlock['reason'], string> = {
  maintenance: 'Blocked by the vendor: maintenance',
  own_use: "Blocked by the vendor: vendor's own use",
  blocked_date: 'Blocked date (set on the vehicle)',
};

/**
 * A vehicle's blocks on its planner row: not bookings, so drawn apart from them — grey, hatched, the whole row's
 * height behind the booking bars, with the reason written on them and in their accessible name. They take no
 * pointer events: the day cells under them stay where a click goes (the API refuses a booking there, naming why).
 */
export function BlockBars({
  blocks,
  starts,
  colW,
}: {
  blocks: readonly PlannerBlock[];
  starts: readonly number[];
  colW: number;
}) {
  return (
    <>
      {blocks.map((k) => {
        const from = columnOf(Date.parse(k.starts_at), starts);
        const to = columnOf(Date.parse(k.ends_at), starts);
        const words = BLOCK_WORDS[k.reason] + (k.note ? ` — ${k.note}` : '');
        const days = k.from === k.to ? k.from : `${k.from} – ${k.to}`;
        return (
          <div
            key={`${k.kind}-${k.starts_at}`}
            role="img"
            aria-label={`${words}, ${days}`}
            title={`${words}, ${days}`}
            data-testid="planner-block"
            data-reason={k.reason}
            className="pointer-events-none absolute inset-y-1 z-[4] flex items-center overflow-hidden whitespace-nowrap rounded border border-dashed border-slate-500 bg-slate-200/80 px-1 text-xs text-slate-800 dark:border-slate-400 dark:bg-slate-700/80 dark:text-slate-100"
            style={{
              left: from * colW,
              width: Math.max(6, (to - from) * colW),
              backgroundImage: 'repeating-linear-gradient(135deg, transparent 0 6px, rgba(100,116,139,0.25) 6px 8px)',
            }}
          >
            <span aria-hidden="true">{words}</span>
          </div>
        );
      })}
    </>
  );
}
