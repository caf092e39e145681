/**
 * One Idempotency-Key per thing a form creates: a form keeps its key until the server has created the thing, so a
 * double submit, or a retry after an answer lost on the way back (a load balancer closing the connection), answers
 * the first result instead of creating a second. A request the server refused frees the key, so the corrected
 * form goes out under the same one.
 */
// getRandomValues works on a plain-http admin too (randomUUID needs a secure context)
export const newIdempotencyKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => x.toString(16).padStart(2, '0')).join('');
