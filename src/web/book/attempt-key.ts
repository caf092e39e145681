/**
 * A new Idempotency-Key for one attempt of a write (a booking, a change, paying the rest): crypto.randomUUID where
 * the page is a secure context, else a time-and-random key (an http:// shop page has no randomUUID).
 */
export function newAttemptKey(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
