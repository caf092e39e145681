import { useId, type ReactElement, cloneElement } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/client';

interface Props {
  label: string;
  /** The message under the field: the server's own words for this field, or a client-side rule. */
  error?: string | undefined;
  hint?: string;
  /** One input/select/textarea; gets id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
}

export function FormField({ label, error, hint, children }: Props) {
  const id = useId();
  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy(id, hint, error),
      })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The ids of a field's hint and error (FieldNotes), for its aria-describedby. */
export function describedBy(id: string, hint: string | undefined, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** The hint and the error message under a field, with the ids describedBy names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * Puts the server's per-field messages on their fields (react-hook-form); returns the message for the form as a
 * whole when the error names no known field.
 */
export function applyServerErrors<T extends FieldValues>(
  e: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string | null {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  let placed = false;
  for (const [k, msg] of Object.entries(e.fields)) {
    if ((fields as readonly string[]).includes(k)) {
      setError(k as Path<T>, { type: 'server', message: msg });
      placed = true;
    }
  }
  return placed ? null : e.message;
}
