import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { queryAudit } from '../audit/log.js';
import { setPagingHeaders } from '../http/namespaces.js';
import { wpErrors } from '../http/schemas.js';

const Entry = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  request_id: Type.String(),
  actor_user_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_login: Type.Union([Type.String(), Type.Null()]),
  auth_method: Type.String(),
  api_key_id: Type.Union([Type.Integer(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  route: Type.String(),
  path: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer(),
  outcome: Type.String(),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/rova/v1/audit-log',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags: ['platform: audit'],
        summary: 'Append-only log of every write and every authentication failure, newest first',
        querystring: Type.Object({
          actor_user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
          method: Type.Optional(
            Type.Union(['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD'].map((m) => Type.Literal(m))),
          ),
          route: Type.Optional(Type.String({ maxLength: 200, description: 'substring of the route pattern' })),
          outcome: Type.Optional(
            Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('denied')]),
          ),
          since: Type.Optional(Type.String({ format: 'date-time' })),
          until: Type.Optional(Type.String({ format: 'date-time' })),
          page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
          per_page: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
        }),
        response: { 200: Type.Array(Entry), ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const { items, total } = await queryAudit(app.platform.db, {
        actorUserId: q.actor_user_id,
        method: q.method,
        routeContains: q.route,
        outcome: q.outcome,
        since: q.since,
        until: q.until,
        page: q.page,
        perPage: q.per_page,
      });
      setPagingHeaders(reply, req.url, total, q.page, q.per_page);
      return items.map((e) => ({
        id: e.id,
        at: e.at,
        request_id: e.requestId,
        actor_user_id: e.actorUserId,
        actor_login: e.actorLogin,
        auth_method: e.authMethod,
        api_key_id: e.apiKeyId,
        ip: e.ip,
        method: e.method,
        route: e.route,
        path: e.path,
        target: e.target,
        status: e.status,
        outcome: e.outcome,
        details: e.details,
      }));
    },
  );
};
