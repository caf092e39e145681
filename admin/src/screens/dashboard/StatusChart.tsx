import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

interface Row {
  status: string;
  label: string;
  count: number;
}

/** Bar chart plus the same numbers as a list (the chart alone says nothing to a screen reader). */
export function StatusChart({ data }: { data: Row[] }) {
  return (
    <div className="grid gap-4 md:grid-cols-[2fr_1fr]">
      <div className="h-64" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="count" fill="#0f766e" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ul className="text-sm" data-testid="status-breakdown">
        {data.map((r) => (
          <li
            key={r.status}
            className="flex justify-between border-b border-slate-100 py-1 dark:border-slate-800"
            data-status={r.status}
          >
            <span>{r.label}</span>
            <span className="tabular-nums">{r.count}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
