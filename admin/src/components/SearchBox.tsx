import { useEffect, useState } from 'react';
import { useDebounced } from './useDebounced';

/** A search input that reports its value 300 ms after typing stops; follows `value` when the URL changes it. */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange(v: string): void }) {
  const [text, setText] = useState(value);
  const debounced = useDebounced(text);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    // Only a settled change of the text is reported (not a change of `value` from the URL).
    if (debounced !== value) onChange(debounced);
  }, [debounced]);
  return (
    <label className="flex flex-col text-sm">
      <span className="mb-1 font-medium">{label}</span>
      <input type="search" className="input" value={text} onChange={(e) => setText(e.target.value)} />
    </label>
  );
}
