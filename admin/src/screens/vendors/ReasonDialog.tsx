import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type ReactNode } from 'react';

/** A rejection needs a reason: the dialog will not submit an empty one, and shows the server's message on failure. */
export function ReasonDialog({ trigger, title, onConfirm }: { trigger: ReactNode; title: string; onConfirm(reason: string): Promise<unknown> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (reason.trim() === '') {
      setError('A reason is required.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason.trim());
      setOpen(false);
      setReason('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={(o) => { setOpen(o); if (!o) setError(null); }}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(28rem,92vw)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900" aria-describedby={undefined}>
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <label htmlFor={id} className="mb-1 mt-3 block text-sm font-medium">
            Reason
          </label>
          <textarea id={id} className="input w-full" rows={3} value={reason} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(e) => setReason(e.target.value)} />
          {error && (
            <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void submit()}>
              {busy ? 'Working…' : 'Reject'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
