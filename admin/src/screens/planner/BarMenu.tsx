import { useEffect, useRef, type KeyboardEvent } from 'react';

export interface MenuItem {
  label: string;
  disabled?: boolean;
  run(): void;
}

/**
 * A bar's menu (right click, Shift+F10 or the context-menu key on a focused bar): a WAI-ARIA menu at the pointer or
 * under the bar. Arrow keys move between its items, Enter runs one, Escape or a click elsewhere closes it and gives
 * the focus back to the bar.
 */
export function BarMenu({
  label,
  at,
  items,
  onClose,
}: {
  label: string;
  at: { x: number; y: number };
  items: MenuItem[];
  onClose(refocus: boolean): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not([disabled])')?.focus();
    const away = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', away, true);
    return () => document.removeEventListener('pointerdown', away, true);
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    const all = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? [])];
    const i = all.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      onClose(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(i + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    }
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="fixed z-50 min-w-40 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
      style={{ left: Math.min(at.x, window.innerWidth - 180), top: Math.min(at.y, window.innerHeight - 100) }}
    >
      {items.map((it) => (
        <button
          key={it.label}
          type="button"
          role="menuitem"
          disabled={it.disabled}
          className="block w-full px-3 py-1.5 text-left hover:bg-slate-100 focus:bg-slate-100 disabled:opacity-50 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
          onClick={() => {
            onClose(false);
            it.run();
          }}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
