import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextDialog } from '../../components/TextDialog';
import { useToast } from '../../components/Toast';

/**
 * Approve (asked once) or reject with a required reason, which the vendor reads in the portal and by mail. A server
 * refusal (someone decided first: 409) stays in the dialog with its message.
 */
export function Decide({
  what,
  approveText,
  onDecide,
  onDone,
}: {
  /** Names the item in the buttons' labels and the titles ("Renault Clio", "application of Ana"). */
  what: string;
  approveText: string;
  onDecide(reason?: string): Promise<unknown>;
  onDone(): void;
}) {
  const toast = useToast();
  return (
    <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
      <ConfirmDialog
        trigger={
          <button type="button" className="btn btn-primary" aria-label={`Approve ${what}`}>
            Approve
          </button>
        }
        title={`Approve ${what}?`}
        description={approveText}
        confirmLabel="Approve"
        onConfirm={async () => {
          await onDecide();
          toast('Approved — the vendor is told by mail');
          onDone();
        }}
      />
      <TextDialog
        danger
        label="Reason (the vendor reads it)"
        confirmLabel="Reject"
        required="A reason is required."
        trigger={
          <button type="button" className="btn btn-danger" aria-label={`Reject ${what}`}>
            Reject
          </button>
        }
        title={`Reject ${what}?`}
        description="The vendor is told by mail and sees the reason in the portal."
        onConfirm={async (reason) => {
          await onDecide(reason);
          toast('Rejected — the vendor is told by mail');
          onDone();
        }}
      />
    </div>
  );
}

/** A label/value list row. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd data-field={label}>{children}</dd>
    </div>
  );
}
