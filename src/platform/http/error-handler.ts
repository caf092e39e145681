import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/outage.js';
import { StorageUnavailableError } from '../storage/types.js';
import { DomainError } from '../domain-error.js';
import { HttpError, HttpErrors } from './errors.js';
import { errorBody, type NamespaceRegistry } from './namespaces.js';

interface ValidationItem {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Columns the database owns (ids, timestamps): named as read-only rather than unknown when a body sends them. */
const READ_ONLY_FIELDS = new Set(['id', 'created_at', 'updated_at']);

function fieldOf(v: ValidationItem): string {
  if (v.keyword === 'required' && typeof v.params?.missingProperty === 'string') return v.params.missingProperty;
  const p = (v.instancePath ?? '').replace(/^\//, '').split('/')[0];
  if (p) return p;
  if (v.keyword === 'additionalProperties' && typeof v.params?.additionalProperty === 'string')
    return v.params.additionalProperty;
  return 'body';
}

function describe(v: ValidationItem, ctx: string | undefined): string {
  const where = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (v.keyword === 'additionalProperties') {
    const name = String(v.params?.additionalProperty);
    return READ_ONLY_FIELDS.has(name) ? `read-only field "${name}" cannot be set` : `unknown field "${name}"`;
  }
  const msg = v.message ?? 'is invalid';
  return where ? `${where} ${msg}` : ctx === 'body' && v.keyword === 'type' ? `body ${msg}` : msg;
}

const GENERIC = new Set(['type', 'anyOf', 'oneOf']);

/**
 * The errors that explain a failure. In a union (`anyOf`, e.g. an object or null), the branch meant for the value
 * reports what is wrong with it; the other branches' type mismatches and the union's own error, at the same place
 * or above, are noise next to it (`{"x":1}` for "object or null" is about the unknown `x`, not about null).
 */
function explaining(list: ValidationItem[]): ValidationItem[] {
  const specific = list.filter((v) => !GENERIC.has(v.keyword ?? '')).map((v) => v.instancePath ?? '');
  if (specific.length === 0) return list;
  return list.filter((v) => {
    if (!GENERIC.has(v.keyword ?? '')) return true;
    const at = v.instancePath ?? '';
    return !specific.some((p) => p === at || p.startsWith(`${at}/`));
  });
}

/** Turns any thrown error into the namespace's error shape: nothing leaks a stack, nothing becomes a 500 that is the caller's fault. */
export function installErrorHandling(app: FastifyInstance, namespaces: NamespaceRegistry): void {
  const send = (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    code: string | undefined,
    message: string,
    data?: Record<string, unknown>,
  ) => {
    const ns = namespaces.forUrl(req.url);
    const body = errorBody(ns?.shape ?? 'wp', {
      status,
      code: code ?? namespaces.defaultCode(ns, status),
      message,
      data,
    });
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  };

  app.setErrorHandler((err: FastifyError | HttpError | Error, req, reply) => {
    if (err instanceof DomainError) {
      const mapped = namespaces.forUrl(req.url)?.domainErrors?.(err);
      // A rule the namespace has no entry for is still the request's conflict with the data, not a crash.
      if (!mapped) return send(req, reply, 409, undefined, err.message, err.details);
      err = mapped;
    }
    if (err instanceof HttpError) {
      if (err.headers) for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return send(req, reply, err.status, err.code, err.message, err.data);
    }
    const fe = err as FastifyError & { validation?: ValidationItem[]; validationContext?: string };
    if (fe.validation) {
      const ns = namespaces.forUrl(req.url);
      const errors = explaining(fe.validation);
      const missing = errors.filter((v) => v.keyword === 'required').map(fieldOf);
      const params: Record<string, string> = {};
      for (const v of errors) params[fieldOf(v)] ??= describe(v, fe.validationContext);
      if (ns?.shape !== 'rental' && missing.length > 0 && missing.length === errors.length) {
        return send(
          req,
          reply,
          400,
          HttpErrors.missingCallbackParam.code,
          `Missing parameter(s): ${missing.join(', ')}`,
          {
            params: missing,
          },
        );
      }
      const names = Object.keys(params);
      return send(req, reply, 400, undefined, `Invalid parameter(s): ${names.join(', ')}`, { params });
    }
    if (err instanceof StorageUnavailableError) {
      req.log.warn(
        { method: req.method, url: req.url.split('?')[0], err: { message: err.message } },
        'file storage unavailable',
      );
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(req, reply, 503, undefined, 'The file storage is unavailable. Try again in a few seconds.');
    }
    if (isDatabaseUnavailable(err)) {
      // Nothing was written (or the transaction rolled back): the same request can be sent again. No audit row
      // can be written either, so the failed write is logged here.
      if (WRITE_METHODS.has(req.method))
        req.log.warn(
          { method: req.method, url: req.url.split('?')[0], err: { message: err.message } },
          'write failed: database unavailable',
        );
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(req, reply, 503, undefined, 'The database is unavailable. Try again in a few seconds.');
    }
    const status =
      typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return send(req, reply, 500, undefined, `Internal error. Quote request id ${req.id} when reporting it.`);
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(
          req,
          reply,
          400,
          namespaces.forUrl(req.url)?.shape === 'rental' ? undefined : HttpErrors.invalidJson.code,
          `The request body is not valid JSON: ${fe.message}`,
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(req, reply, 413, undefined, 'The request body is too large.');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(req, reply, 415, undefined, 'Unsupported Content-Type: send application/json.');
      default:
        if (err instanceof SyntaxError) {
          return send(
            req,
            reply,
            400,
            namespaces.forUrl(req.url)?.shape === 'rental' ? undefined : HttpErrors.invalidJson.code,
            `The request body is not valid JSON: ${err.message}`,
          );
        }
        return send(req, reply, status, undefined, fe.message);
    }
  });

  app.setNotFoundHandler((req, reply) => {
    return send(req, reply, 404, undefined, 'No route was found matching the URL and request method.');
  });
}
