import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as repo from '../auth/repo.js';
import { ROLES } from '../auth/roles.js';
import { setPagingHeaders } from '../http/namespaces.js';
import { RovaErrors } from '../errors.js';
import { wpErrors } from '../http/schemas.js';
import { toDate } from '../db/types.js';
import { IdempotencyKeyHeader, keyedWrite } from '../idempotency/route.js';

const User = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: Type.String(),
  created_at: Type.Optional(Type.String()),
});
const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const { auth, db } = p;
  const tags = ['platform: users'];
  app.get(
    '/rova/v1/users',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: 'List users',
        querystring: Type.Object({
          role: Type.Optional(Role),
          page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
          per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Type.Array(User), ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const { items, total } = await repo.listUsers(db, req.query.role, req.query.page, req.query.per_page);
      setPagingHeaders(reply, req.url, total, req.query.page, req.query.per_page);
      return items.map((u) => ({
        id: u.id,
        login: u.login,
        email: u.email,
        display_name: u.displayName,
        role: u.role,
        created_at: toDate(u.createdAt).toISOString(),
      }));
    },
  );
  app.post(
    '/rova/v1/users',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: 'Create a user (password optional: API-key-only users need none; Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            login: Type.String({ minLength: 2, maxLength: 60 }),
            email: Type.String({ minLength: 3, maxLength: 200 }),
            role: Role,
            password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
            display_name: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: User, ...wpErrors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const r = await keyedWrite(p, req, reply, {
        action: 'user-create',
        async write(tx) {
          const u = await auth.createUser({ ...req.body, displayName: req.body.display_name }, tx);
          return {
            status: 201,
            body: { id: u.id, login: u.login, email: u.email, display_name: u.displayName, role: u.role },
          };
        },
      });
      req.auditTarget = `user:${(r.body as { id: number }).id}`;
      return reply.status(r.status as 201).send(r.body as never);
    },
  );

  app.delete(
    '/rova/v1/users/:id',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: 'Delete a user: their API keys and every session (apps and browsers) end at once',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
        response: {
          200: Type.Object({ deleted: Type.Boolean(), id: Type.Integer() }),
          ...wpErrors(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      if (req.params.id === req.auth.user!.id) throw RovaErrors.cannotDeleteSelf('You cannot delete yourself.');
      if (!(await repo.deleteUser(db, req.params.id))) throw RovaErrors.userNotFound(`user ${req.params.id} not found`);
      await auth.usersChanged();
      req.auditTarget = `user:${req.params.id}`;
      return { deleted: true, id: req.params.id };
    },
  );
};
