import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { jwtSessionsOf } from '../auth/jwt/sessions.js';
import { changePassword } from '../auth/jwt/password.js';
import { MAX_PASSWORD, MIN_PASSWORD } from '../accounts/password-policy.js';
import { RovaErrors } from '../errors.js';
import { wpErrors } from '../http/schemas.js';

const TokenPair = Type.Object({
  access_token: Type.String({ description: 'JWT (EdDSA), send as Authorization: Bearer' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds until the access token expires' }),
  refresh_token: Type.String({ description: 'opaque, single use: each refresh returns a new one' }),
});
const Session = Type.Object({
  id: Type.Integer(),
  device: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  last_used_at: Type.String(),
  expires_at: Type.String({ description: 'absolute end (90 days after login)' }),
  current: Type.Boolean({ description: 'the session of the access token making this request' }),
});
const Jwk = Type.Object(
  {
    kty: Type.String(),
    crv: Type.Optional(Type.String()),
    x: Type.Optional(Type.String()),
    kid: Type.String(),
    alg: Type.String(),
    use: Type.String(),
  },
  // a JWK (RFC 7517) as the key library exports it: members beyond these depend on the key type
  { additionalProperties: true },
);
const Ok = Type.Object({ success: Type.Boolean() });
const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** JWT sessions for mobile apps (`rova/v1/auth/token…`), the JWKS, own sessions, password change. */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const sessions = jwtSessionsOf(p);
  const tags = ['platform: auth'];

  app.post(
    '/rova/v1/auth/token',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Log in a mobile app: login (or e-mail) + password → access token (JWT) + refresh token',
        body: Type.Object(
          {
            login: Type.String({ minLength: 1, maxLength: 200 }),
            password: Type.String({ minLength: 1, maxLength: 200 }),
            device: Type.Optional(
              Type.String({ maxLength: 200, description: 'shown in the sessions list (default: User-Agent)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: TokenPair, ...wpErrors(400, 401, 429) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return sessions.login(req, req.body.login, req.body.password, req.body.device);
    },
  );

  app.post(
    '/rova/v1/auth/token/refresh',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (the old refresh token is used up)',
        body: RefreshBody,
        response: { 200: TokenPair, ...wpErrors(400, 401) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return sessions.refresh(req, req.body.refresh_token);
    },
  );

  app.post(
    '/rova/v1/auth/token/revoke',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'End the session of a refresh token (its access tokens stop working at once)',
        body: RefreshBody,
        response: { 200: Ok, ...wpErrors(400) },
      },
    },
    async (req) => {
      await sessions.revokeByRefreshToken(req.body.refresh_token);
      return { success: true };
    },
  );

  app.get(
    '/rova/v1/auth/jwks.json',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Public keys that verify access tokens (JWKS)',
        response: { 200: Type.Object({ keys: Type.Array(Jwk) }) },
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return sessions.keys.jwks();
    },
  );

  app.get(
    '/rova/v1/auth/sessions',
    {
      config: { auth: { authenticated: true, scope: 'read' } },
      schema: {
        tags,
        summary: 'Own app sessions (device, created, last used)',
        response: { 200: Type.Array(Session), ...wpErrors(401) },
      },
    },
    async (req) => sessions.list(req.auth.user!.id, req.auth.method === 'jwt' ? req.auth.sessionId : null),
  );

  app.delete(
    '/rova/v1/auth/sessions/:id',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags,
        summary: 'Revoke one of your own app sessions',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
        response: { 200: Ok, ...wpErrors(400, 401, 404) },
      },
    },
    async (req) => {
      if (!(await sessions.revokeOne(req.auth.user!.id, req.params.id)))
        throw RovaErrors.sessionNotFound(`session ${req.params.id} not found`);
      return { success: true };
    },
  );

  app.put(
    '/rova/v1/auth/password',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags,
        summary: `Change your password (new password: at least ${MIN_PASSWORD} characters, GET /rova/v1/auth/password/policy); every session (apps and browsers) ends`,
        description:
          'The account is mailed the notice a reset sends (`password_changed`, never the password), with the account ' +
          'page (ACCOUNT_URL) to reset it from if this was not its owner; the notice is written to the outbox in the ' +
          'transaction of the change.',
        body: Type.Object(
          {
            current_password: Type.String({ minLength: 1, maxLength: 200 }),
            new_password: Type.String({ minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ success: Type.Boolean(), sessions_revoked: Type.Integer() }),
          ...wpErrors(400, 401),
        },
      },
    },
    async (req, reply) => {
      const n = await changePassword(p, req, req.auth.user!.id, req.body.current_password, req.body.new_password);
      req.auditTarget = `user:${req.auth.user!.id}`;
      reply.clearCookie('rova_session', { path: '/' });
      return { success: true, sessions_revoked: n };
    },
  );
};
