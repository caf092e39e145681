import type { FastifyReply } from 'fastify';

/** Bytes of answers already serialised, by the object a cache handed out (collected with it). */
const bodies = new WeakMap<object, Buffer>();

/**
 * Sends `envelope()` serialised by the route's own response schema, serialising it once per `answer` object: a
 * route whose service hands out the same (frozen, cached) answer object again reuses the bytes, so a repeated
 * answer costs neither the serialiser nor a UTF-8 encoding. For a 200 answer only (the serialiser is the status
 * code's), and only where `answer` is never changed after it is first sent.
 */
export function sendJsonOnce(reply: FastifyReply, answer: object, envelope: () => unknown): FastifyReply {
  let body = bodies.get(answer);
  if (body === undefined) {
    const text = reply.serialize(envelope());
    body = typeof text === 'string' ? Buffer.from(text) : Buffer.from(text as ArrayBuffer);
    bodies.set(answer, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
