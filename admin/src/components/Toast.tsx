import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

type Tone = 'success' | 'error' | 'info';
interface ToastItem {
  id: number;
  text: string;
  tone: Tone;
}

const Ctx = createContext<((text: string, tone?: Tone) => void) | null>(null);
let seq = 0;

/** Toasts in a polite live region (role=status): screen readers hear them; they go after 5 s or on click. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const push = useCallback((text: string, tone: Tone = 'success') => {
    const id = ++seq;
    setItems((l) => [...l, { id, text, tone }]);
    setTimeout(() => setItems((l) => l.filter((t) => t.id !== id)), 5000);
  }, []);
  const value = useMemo(() => push, [push]);
  const tones: Record<Tone, string> = {
    success: 'bg-emerald-700 text-white',
    error: 'bg-red-700 text-white',
    info: 'bg-slate-800 text-white',
  };
  return (
    <Ctx.Provider value={value}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-none fixed bottom-4 right-4 z-50 flex flex-col gap-2"
      >
        {items.map((t) => (
          <button
            key={t.id}
            type="button"
            onClick={() => setItems((l) => l.filter((x) => x.id !== t.id))}
            className={`pointer-events-auto rounded-md px-4 py-2 text-left shadow-lg ${tones[t.tone]}`}
          >
            {t.text}
          </button>
        ))}
      </div>
    </Ctx.Provider>
  );
}

export function useToast(): (text: string, tone?: Tone) => void {
  const t = useContext(Ctx);
  if (!t) throw new Error('useToast outside ToastProvider');
  return t;
}
