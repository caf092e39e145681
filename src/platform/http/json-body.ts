import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { deepFreeze } from '../deep-freeze.js';
import { markCleanJson } from './nul-guard.js';

/**
 * The application/json parser of every route: Fastify's own (prototype-poisoning protection: `__proto__` or
 * `constructor.prototype` keys are a 400), except that an empty body is no body — some WooCommerce clients send
 * `Content-Type: application/json` with nothing on DELETE.
 */
export function useJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parse(req, text, (err, value) => {
      if (!err) markCleanJson(text, value);
      done(err, value);
    });
  });
}

export interface JsonMemoLimits {
  /** Distinct body texts kept (the oldest goes first). */
  entries: number;
  /** Longer bodies are parsed every time. */
  maxLength: number;
}

/**
 * For the routes of one plugin scope whose bodies repeat verbatim (POST /rova-fx/v1/convert: every visitor of a
 * page sends the same batch): the same rules as useJsonBodies, but each distinct body text is parsed once and
 * every request with that text gets the same deeply frozen object. Only for routes that never change their body
 * (a write to it throws); services may key their own memos by that object.
 */
export function useMemoisedJsonBodies(scope: FastifyInstance, limits: JsonMemoLimits): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  const memo = new Map<string, unknown>();
  const parser: FastifyBodyParser<string | Buffer> = (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const known = memo.get(text);
    if (known !== undefined) return done(null, known);
    if (text.trim() === '') return done(null, undefined);
    parse(req, text, (err, value) => {
      if (err) return done(err, undefined);
      markCleanJson(text, value);
      if (text.length <= limits.maxLength) {
        if (memo.size >= limits.entries) memo.delete(memo.keys().next().value as string);
        memo.set(text, deepFreeze(value));
      }
      done(null, value);
    });
  };
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, parser);
}
