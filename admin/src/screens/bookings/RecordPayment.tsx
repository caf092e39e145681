import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { newIdempotencyKey } from '../../api/idempotency';
import { applyServerErrors, FormField } from '../../components/FormField';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import { useRecordPayment, type BookingDetail, type RecordPaymentBody } from './api';

interface Values {
  kind: 'full' | 'deposit';
  amount: string;
  method: RecordPaymentBody['method'];
  reference: string;
}

export const METHODS: [RecordPaymentBody['method'], string][] = [
  ['cash', 'Cash'],
  ['card_terminal', 'Card (terminal)'],
  ['bank_transfer', 'Bank transfer'],
  ['other', 'Other'],
];

/** What the desk may still take: the amount due, or the deposit not yet covered. */
function suggested(b: BookingDetail, kind: Values['kind']): number {
  if (kind === 'full') return b.amount_due;
  return Math.max(0, Math.min(b.deposit - b.amount_paid, b.amount_due));
}

/** Record payment: amount, method, reference; full or deposit. One Idempotency-Key per payment the form records. */
export function RecordPayment({ booking: b }: { booking: BookingDetail }) {
  const toast = useToast();
  const record = useRecordPayment(b.id);
  const [key, setKey] = useState(newIdempotencyKey);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: { kind: 'full', amount: suggested(b, 'full').toFixed(2), method: 'cash', reference: '' },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const r = await record.mutateAsync({
        key,
        body: {
          kind: v.kind,
          amount: Number(v.amount),
          method: v.method,
          ...(v.reference.trim() ? { reference: v.reference.trim() } : {}),
        },
      });
      setKey(newIdempotencyKey());
      toast(
        r.outcome === 'confirmed'
          ? `Payment recorded: ${b.reference} is confirmed`
          : `Payment recorded on ${b.reference}`,
      );
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['amount', 'method', 'reference', 'kind']));
    }
  });
  const kind = form.watch('kind');
  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-labelledby="b-record" noValidate>
      <h3 id="b-record" className="mb-2 font-semibold">
        Record payment
      </h3>
      <fieldset className="mb-3">
        <legend className="mb-1 text-sm font-medium">What is paid</legend>
        {(
          [
            ['full', `Full amount due (${formatMoney(suggested(b, 'full'), b.currency)})`],
            ['deposit', `Deposit (${formatMoney(suggested(b, 'deposit'), b.currency)})`],
          ] as const
        ).map(([k, label]) => (
          <label key={k} className="mr-4 text-sm">
            <input
              type="radio"
              value={k}
              className="mr-1"
              disabled={k === 'deposit' && suggested(b, 'deposit') <= 0}
              {...form.register('kind', {
                onChange: () => form.setValue('amount', suggested(b, k).toFixed(2)),
              })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <FormField label={`Amount (${b.currency})`} error={form.formState.errors.amount?.message}>
        <input
          className="input w-full"
          inputMode="decimal"
          {...form.register('amount', {
            required: 'Amount is required',
            validate: (v) =>
              (/^\d+(\.\d{1,2})?$/.test(v.trim()) && Number(v) > 0) || 'A positive amount, at most 2 decimals',
          })}
        />
      </FormField>
      <FormField label="Method" error={form.formState.errors.method?.message}>
        <select className="input w-full" {...form.register('method')}>
          {METHODS.map(([m, label]) => (
            <option key={m} value={m}>
              {label}
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        label="Reference"
        hint="Receipt number or transfer reference (optional)"
        error={form.formState.errors.reference?.message}
      >
        <input className="input w-full" maxLength={100} {...form.register('reference')} />
      </FormField>
      {formError && (
        <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={record.isPending}>
        {record.isPending ? 'Recording…' : kind === 'deposit' ? 'Record deposit' : 'Record payment'}
      </button>
    </form>
  );
}
