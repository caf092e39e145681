import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from '../../config.js';

/**
 * Query parameters whose values are credentials (WooCommerce keys, OAuth 1.0a, WordPress nonces, tokens,
 * passwords). Matched case-insensitively by name; a name that merely contains one of the words counts too.
 */
const SECRET_PARAM =
  /key|secret|token|password|passwd|pwd|nonce|signature|session|cookie|credential|auth|code_verifier|^code$/i;

export const REDACTED = '[REDACTED]';

/** The URL as logged: credential-looking query values replaced (names kept, so the log still shows what was sent). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // keep the raw name: a malformed escape is still matched as written
    }
    return eq >= 0 && SECRET_PARAM.test(name) ? `${rawName}=${REDACTED}` : pair;
  });
  return url.slice(0, q + 1) + parts.join('&');
}

/** Header paths pino blanks wherever a request's headers get logged (Fastify's default serializer logs none). */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-rova-api-key"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["x-wp-nonce"]',
  'req.headers["x-wc-webhook-signature"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-rova-api-key"]',
];

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Where log lines go: the process's stdout or stderr, or a stream of the caller's. */
export type LogDestination = 'stdout' | 'stderr' | NodeJS.WritableStream;

/** Fastify's logger options: level, JSON lines or pretty output (local time), credentials redacted. */
export function loggerOptions(config: Config, to: LogDestination = 'stdout'): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  // a stream that is not the process's own: a CLI command run in-process, whose stderr the caller captures
  const own = to === 'stdout' || to === process.stdout ? 1 : to === 'stderr' || to === process.stderr ? 2 : null;
  const stream = typeof to === 'string' ? null : to;
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(config.logFormat === 'line'
      ? {
          // a CLI command on a terminal: `WARN: message`, nothing else
          stream: pretty({
            ignore: 'pid,hostname,time',
            hideObject: true,
            sync: true,
            destination: own ?? stream ?? 2,
            colorize: own !== null && (own === 2 ? process.stderr : process.stdout).isTTY === true,
          }),
        }
      : config.logFormat === 'pretty'
        ? {
            stream: pretty({
              translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
              ignore: 'pid,hostname',
              sync: true,
              destination: own ?? stream ?? 1,
              colorize: own !== null && (own === 2 ? process.stderr : process.stdout).isTTY === true,
            }),
          }
        : own === 1
          ? {}
          : { stream: own === 2 ? process.stderr : (stream ?? process.stdout) }),
  };
}

/**
 * One log line per request at `info` (method, route pattern, status, duration, request id — the request id is the
 * line's `reqId`), the details (redacted URL, host, client address) at `debug`. Fastify's own pair of entries per
 * request (incoming + completed) is switched off with `disableRequestLogging`: at a few requests per second it
 * drowned everything else. A route's own `logLevel` (the probes: warn) still applies through `req.log`.
 */
export function logEachRequest(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? null;
    // no route matched (404): the path, without its query (which may carry credentials)
    const shown = route ?? req.url.split('?')[0] ?? '';
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    req.log.debug({ req }, 'request details');
    req.log.info(
      { method: req.method, route, ...(route ? {} : { path: shown }), status: reply.statusCode, duration_ms: ms },
      `${req.method} ${shown} ${reply.statusCode} ${ms} ms`,
    );
    done();
  });
}
