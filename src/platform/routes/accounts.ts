import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_PASSWORD, MIN_PASSWORD, passwordPolicy } from '../accounts/password-policy.js';
import {
  editProfile,
  forgotPassword,
  getProfile,
  profileView,
  register,
  resetPassword,
  verifyEmail,
} from '../accounts/service.js';
import { wpErrors } from '../http/schemas.js';

const Str = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max, pattern: '^[^\\u0000]*$' });
const Profile = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone: Type.String(),
  email_verified: Type.Boolean(),
  email_verified_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
const Done = Type.Object({ success: Type.Boolean(), message: Type.String() });
const Token = Type.String({ minLength: 10, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

/** Customer self-service accounts (rova/v1): register, verify e-mail, password reset, profile. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const tags = ['platform: accounts'];

  app.post(
    '/rova/v1/auth/register',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: `Create a customer account (password ≥ ${MIN_PASSWORD} characters) and mail a verification link; the same 202 answer when the address already has an account (its owner is mailed instead), so the answer does not reveal who is registered`,
        security: [],
        body: Type.Object(
          {
            email: Type.String({ format: 'email', maxLength: 200 }),
            password: Type.String({ minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD }),
            first_name: Type.Optional(Str(100)),
            last_name: Type.Optional(Str(100)),
            phone: Type.Optional(Str(50)),
          },
          { additionalProperties: false },
        ),
        response: { 202: Done, ...wpErrors(400, 429) },
      },
    },
    async (req, reply) => {
      await register(p, req, req.body);
      return reply.code(202).send({
        success: true,
        message: 'Check your inbox: a mail to finish the registration is on its way to this address.',
      });
    },
  );

  app.get(
    '/rova/v1/auth/verify-email',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Confirm an e-mail address with the token of the verification link (single use)',
        security: [],
        querystring: Type.Object({ token: Token }),
        response: { 200: Type.Object({ verified: Type.Boolean(), user: Profile }), ...wpErrors(400) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { verified: true, user: profileView(await verifyEmail(p, req.query.token)) };
    },
  );

  app.get(
    '/rova/v1/auth/password/policy',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          'The password rule of accounts (registration, reset, change), so a form can say it before the server refuses',
        security: [],
        response: {
          200: Type.Object(
            { min_length: Type.Integer(), max_length: Type.Integer(), rule: Type.String() },
            { additionalProperties: false },
          ),
        },
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      return passwordPolicy();
    },
  );

  app.post(
    '/rova/v1/auth/password/forgot',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Mail a single-use password reset token (the same answer whether or not the address has an account)',
        security: [],
        body: Type.Object({ email: Type.String({ format: 'email', maxLength: 200 }) }, { additionalProperties: false }),
        response: { 202: Done, ...wpErrors(400, 429) },
      },
    },
    async (req, reply) => {
      await forgotPassword(p, req, req.body.email);
      return reply
        .code(202)
        .send({ success: true, message: 'If an account exists for this address, a reset link is on its way.' });
    },
  );

  app.post(
    '/rova/v1/auth/password/reset',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with the mailed token (single use, expires after 60 minutes); ends every session',
        security: [],
        body: Type.Object(
          { token: Token, password: Type.String({ minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD }) },
          { additionalProperties: false },
        ),
        response: { 200: Done, ...wpErrors(400, 429) },
      },
    },
    async (req) => {
      await resetPassword(p, req, req.body.token, req.body.password);
      return { success: true, message: 'Password changed. Log in with the new password.' };
    },
  );

  app.get(
    '/rova/v1/profile',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags,
        summary: 'The signed-in user’s profile',
        response: { 200: Type.Object({ user: Profile }), ...wpErrors(401, 403, 404) },
      },
    },
    async (req) => ({ user: profileView(await getProfile(p, req.auth.user!.id)) }),
  );

  app.put(
    '/rova/v1/profile',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags,
        summary: 'Update the signed-in user’s profile (names, phone, display name)',
        body: Type.Object(
          {
            first_name: Type.Optional(Str(100)),
            last_name: Type.Optional(Str(100)),
            phone: Type.Optional(Str(50)),
            display_name: Type.Optional(Str(200)),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ user: Profile }), ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      req.auditTarget = `user:${req.auth.user!.id}`;
      return { user: profileView(await editProfile(p, req.auth.user!.id, req.body)) };
    },
  );
};
