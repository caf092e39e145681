import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type ReactNode } from 'react';

/**
 * A decision that carries text: a required reason (reject an application or a payout) or an optional note (decide a
 * vendor report). An empty required text is refused here; a server refusal keeps the dialog open with its message.
 */
export function TextDialog({
  trigger,
  title,
  description,
  label,
  confirmLabel,
  danger = false,
  required,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  description?: ReactNode;
  label: string;
  confirmLabel: string;
  danger?: boolean;
  /** The message shown when the text is left empty; absent = the text is optional. */
  required?: string;
  onConfirm(text: string): Promise<unknown>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (required && text.trim() === '') {
      setError(required);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(required ? text.trim() : text);
      setOpen(false);
      setText('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setError(null);
      }}
    >
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        {/* above the slide-over, which a report decision is opened from */}
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/40" />
        <Dialog.Content
          role="alertdialog"
          className="fixed left-1/2 top-1/2 z-[70] w-[min(28rem,92vw)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900"
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          {description && (
            <Dialog.Description asChild>
              <div className="mt-2 text-slate-700 dark:text-slate-300">{description}</div>
            </Dialog.Description>
          )}
          <label htmlFor={id} className="mb-1 mt-3 block text-sm font-medium">
            {label}
          </label>
          <textarea
            id={id}
            className="input w-full"
            rows={3}
            maxLength={5000}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          {error && (
            <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={danger ? 'btn btn-danger' : 'btn btn-primary'}
              disabled={busy}
              onClick={() => void submit()}
            >
              {busy ? 'Working…' : confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
