import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { HttpErrors } from './errors.js';
import type { NamespaceInfo, NamespaceRegistry } from './namespaces.js';

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Pattern {
  re: RegExp;
  methods: Set<string>;
}

function compile(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * Strict method mode (design §8): a request whose path exists but not for its method gets 405 with an
 * `Allow` header instead of 404, and a namespace may restrict the methods it accepts at all (v2: GET, POST,
 * PUT + HEAD, OPTIONS). OPTIONS on a known path answers 204 with `Allow`.
 */
export class MethodRules {
  private readonly patterns = new Map<string, Pattern>();

  constructor(
    private readonly namespaces: NamespaceRegistry,
    private readonly restRoot: string,
    private readonly everywhere: boolean,
  ) {}

  install(app: FastifyInstance): void {
    app.addHook('onRoute', (r) => this.add(r));
    // synchronous (callback) hook: it runs on every request and almost always lets it through at once
    app.addHook('onRequest', (req, reply, done) => {
      const ns = this.namespaces.forUrl(req.url);
      if (!ns || !(ns.strictMethods || this.everywhere)) return done();
      const accepted =
        !ns.allowedMethods ||
        ns.allowedMethods.includes(req.method) ||
        req.method === 'HEAD' ||
        req.method === 'OPTIONS';
      if (!req.is404 && accepted) return done(); // the common case: a served route, an accepted method (no pattern scan)
      const allowed = this.allowFor(req.url, ns);
      if (allowed === null) return done(); // unknown path: the 404 stays a 404
      if (req.is404 && req.method === 'OPTIONS') {
        reply.header('Allow', allowed).code(204).send(); // answered here: done() is not called
        return;
      }
      if (req.is404 || !accepted) {
        return done(
          HttpErrors.methodNotAllowed(
            `${req.method} is not allowed here; this path serves ${allowed}.`,
            { allow: allowed.split(', ') },
            { Allow: allowed },
          ),
        );
      }
      done();
    });
  }

  private add(r: RouteOptions): void {
    if (!r.url.startsWith(this.restRoot + '/')) return;
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const p = this.patterns.get(r.url) ?? { re: compile(r.url), methods: new Set<string>() };
    for (const m of methods) p.methods.add(m.toUpperCase());
    this.patterns.set(r.url, p);
  }

  /** The `Allow` value for the path, or null when no route serves it. */
  allowFor(url: string, ns: NamespaceInfo): string | null {
    const path = url.split('?')[0] ?? '';
    const served = new Set<string>();
    for (const p of this.patterns.values()) if (p.re.test(path)) for (const m of p.methods) served.add(m);
    served.delete('OPTIONS');
    if (served.size === 0) return null;
    if (served.has('GET')) served.add('HEAD');
    served.add('OPTIONS');
    const list = ORDER.filter(
      (m) => served.has(m) && (!ns.allowedMethods || ns.allowedMethods.includes(m) || m === 'HEAD' || m === 'OPTIONS'),
    );
    return list.join(', ');
  }
}

/** v2 browser rule: a cookie that came without a valid nonce is refused (403), not downgraded to anonymous. */
export function enforceNonceRule(req: FastifyRequest, ns: NamespaceInfo | null): void {
  if (!ns?.nonceRequired) return;
  const f = req.auth.failure;
  if (f === 'missing_nonce') {
    throw HttpErrors.nonceRequired(
      'Browser requests to this API must carry the nonce: send the X-WP-Nonce header (GET /rova/v1/auth/nonce gives one).',
    );
  }
  if (f === 'invalid_nonce') {
    throw HttpErrors.nonceInvalid(
      'The nonce is not valid for this session. Fetch a new one from GET /rova/v1/auth/nonce.',
    );
  }
}
