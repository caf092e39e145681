import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AssembledPlatform } from '../assemble.js';
import { installRequestAudit } from '../audit/request-audit.js';
import { enforcePolicy, policyOf } from '../auth/guard.js';
import { ANONYMOUS } from '../auth/types.js';
import type { Platform } from '../context.js';
import { enforceQuota } from '../limits/quotas.js';
import { installMetrics } from '../ops/metrics.js';
import { registerProbes } from '../ops/probes.js';
import { registerAdminApp } from '../routes/admin-app.js';
import { registerFavicon, registerLandingPage } from '../routes/landing.js';
import { securitySettings } from '../security-settings.js';
import { registerCors } from './cors.js';
import { installErrorHandling } from './error-handler.js';
import { protectHtmlPages } from './html-security.js';
import { useJsonBodies } from './json-body.js';
import { logEachRequest } from './logging.js';
import { enforceNonceRule, MethodRules } from './method-rules.js';
import { acceptNonceInBody } from './nonce-body.js';
import { refuseNulCharacters } from './nul-guard.js';
import { swaggerOptions } from './openapi/document.js';
import { swaggerUiOptions } from './openapi/ui.js';
import { registerRestIndex, RouteCatalogue } from './rest-index.js';
import '../fastify-augment.js';

/**
 * Everything a request passes through before and after its route, in this order: JSON bodies, cookies, CORS, error
 * answers, HTML page headers, the request log, metrics, method rules; the route catalogue; then per request the
 * request id, authentication, nonce, policy and quota, the NUL guard, and the audit row (onSend); then the OpenAPI
 * document, the landing page, favicon and admin app. The modules' routes come next (buildApp), then finishHttp.
 * Returns the catalogue that collects every route for the REST index.
 */
export async function installHttpPipeline(app: FastifyInstance, parts: AssembledPlatform): Promise<RouteCatalogue> {
  const { platform, metrics } = parts;
  const { config, namespaces } = platform;
  useJsonBodies(app);
  await app.register(cookie);
  await registerCors(app, config.corsOrigins);
  installErrorHandling(app, namespaces);
  protectHtmlPages(app);
  logEachRequest(app);
  if (metrics) installMetrics(app, platform, metrics);
  new MethodRules(namespaces, config.restRoot, securitySettings(config).strictMethods).install(app);

  const catalogue = new RouteCatalogue(config.restRoot);
  app.addHook('onRoute', (r) => catalogue.add(r));
  app.addHook('onRoute', acceptNonceInBody(config.restRoot));

  app.decorateRequest('auth', null as unknown as typeof ANONYMOUS);
  // one synchronous hook for both (every request passes here: no promise, no extra hook step)
  app.addHook('onRequest', (req, reply, done) => {
    req.auth = ANONYMOUS;
    reply.header('X-Request-Id', req.id);
    done();
  });
  // Body is parsed by now, so a `_wpnonce` body parameter counts; validation runs after the permission check.
  app.addHook('preValidation', async (req, reply) => {
    req.auth = await platform.auth.resolve(req);
    enforceNonceRule(req, namespaces.forUrl(req.url));
    enforcePolicy(req, req.auth, policyOf(req, config.restRoot));
    await enforceQuota(req, reply);
  });
  app.addHook('preValidation', refuseNulCharacters);
  installRequestAudit(app, config.restRoot, parts.auditWriter, parts.authFailures);

  await app.register(swagger, swaggerOptions({ restRoot: config.restRoot, namespaces }));
  await app.register(swaggerUi, swaggerUiOptions());
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());
  registerLandingPage(app);
  registerFavicon(app);
  registerAdminApp(app);
  return catalogue;
}

/** After the modules' routes: the REST index (every route the catalogue collected) and the health probes. */
export function finishHttp(app: FastifyInstance, platform: Platform, catalogue: RouteCatalogue): void {
  registerRestIndex(app, catalogue, platform.namespaces);
  registerProbes(app, platform);
}
