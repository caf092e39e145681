import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `ms` (live search without a request per key press). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
