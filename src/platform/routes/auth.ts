import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../auth/service.js';
import { logoutSession } from '../auth/jwt/logout.js';
import { RovaErrors } from '../errors.js';
import { wpErrors } from '../http/schemas.js';
import { mailSettings } from '../mail/settings.js';
import { capsOf, isRole } from '../auth/roles.js';

const User = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: Type.String(),
});
const toUser = (u: { id: number; login: string; email: string; displayName: string; role: string }) => ({
  id: u.id,
  login: u.login,
  email: u.email,
  display_name: u.displayName,
  role: u.role,
});

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { auth } = app.platform;
  const tags = ['platform: auth'];

  app.post(
    '/rova/v1/auth/login',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Log in: sets the HttpOnly session cookie and returns a nonce for X-WP-Nonce',
        body: Type.Object(
          {
            login: Type.String({ minLength: 1, maxLength: 200 }),
            password: Type.String({ minLength: 1, maxLength: 200 }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ user: User, nonce: Type.String(), expires_at: Type.String() }),
          ...wpErrors(400, 401, 429),
        },
      },
    },
    async (req, reply) => {
      const r = await auth.login(req, req.body.login, req.body.password);
      req.auditTarget = `user:${r.user.id}`;
      reply.setCookie(SESSION_COOKIE, r.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.protocol === 'https',
        path: '/',
        maxAge: Math.floor(SESSION_TTL_MS / 1000),
      });
      return { user: toUser(r.user), nonce: r.nonce, expires_at: r.expiresAt.toISOString() };
    },
  );

  app.get(
    '/rova/v1/auth/nonce',
    {
      config: { auth: 'public', sessionProbe: true },
      schema: {
        tags,
        summary: 'A fresh nonce for the current session cookie',
        response: { 200: Type.Object({ nonce: Type.String(), user: User }), ...wpErrors(401) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const r = await auth.nonceForCookie(req.cookies[SESSION_COOKIE]);
      if (!r) throw RovaErrors.noSession('No live session: log in with POST /rova/v1/auth/login first.');
      return { nonce: r.nonce, user: toUser(r.user) };
    },
  );

  app.post(
    '/rova/v1/auth/logout',
    {
      config: { auth: { authenticated: true, scope: 'read' } },
      schema: {
        tags,
        summary:
          'End the cookie session (needs the nonce) or the JWT session; everywhere=true ends every session of the user',
        querystring: Type.Object({
          everywhere: Type.Optional(Type.Boolean({ description: 'end every session of the user (apps and browsers)' })),
        }),
        response: { 200: Type.Object({ success: Type.Boolean() }), ...wpErrors(400, 401) },
      },
    },
    async (req, reply) => {
      if (req.auth.method !== 'cookie' && req.auth.method !== 'jwt')
        throw RovaErrors.notASession('Only cookie and app (JWT) sessions can log out; revoke API keys instead.');
      await logoutSession(app.platform, req.auth, req.query.everywhere === true);
      if (req.auth.method === 'cookie') reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true };
    },
  );

  app.get(
    '/rova/v1/auth/me',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags,
        summary: 'Who the credentials belong to',
        description:
          'Also the capabilities of the role (what the admin app shows) and the store settings it formats with (name, currency, time zone).',
        response: {
          200: Type.Object({
            user: User,
            method: Type.String(),
            scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
            capabilities: Type.Array(Type.String()),
            store: Type.Object({ name: Type.String(), currency: Type.String(), timezone: Type.String() }),
          }),
          ...wpErrors(401),
        },
      },
    },
    async (req) => {
      const user = req.auth.user!;
      const { storeTimezone } = app.platform.config;
      return {
        user: toUser(user),
        method: req.auth.method,
        scopes: req.auth.scopes ? [...req.auth.scopes] : null,
        capabilities: isRole(user.role) ? [...capsOf(user.role)].sort() : [],
        store: {
          name: mailSettings(app.platform).storeName,
          currency: app.platform.storeCurrency.code,
          timezone: storeTimezone,
        },
      };
    },
  );
};
