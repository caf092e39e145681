import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/** A panel from the right (full width on phones) for details and forms; Escape or the close button closes it. */
export function SlideOver({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <Dialog.Content
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xl flex-col bg-white shadow-xl dark:bg-slate-900"
          aria-describedby={undefined}
          onEscapeKeyDown={(e) => {
            // Escape in an open picker closes its list, not the panel (the picker handles the key itself).
            const t = e.target instanceof HTMLElement ? e.target : null;
            if (t?.getAttribute('role') === 'combobox' && t.getAttribute('aria-expanded') === 'true')
              e.preventDefault();
          }}
        >
          <div className="flex items-center justify-between border-b border-slate-200 p-4 dark:border-slate-800">
            <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="btn" aria-label="Close">
                ✕
              </button>
            </Dialog.Close>
          </div>
          {/* focusable, so a keyboard can scroll a long panel (axe: scrollable-region-focusable) */}
          <div className="flex-1 overflow-y-auto p-4" tabIndex={0}>
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
