import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpErrors } from '../http/errors.js';
import { RovaErrors } from '../errors.js';
import { setPagingHeaders } from '../http/namespaces.js';
import { wpErrors } from '../http/schemas.js';
import { IdempotencyKeyHeader, keyedWrite } from '../idempotency/route.js';

const ApiKey = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_login: Type.Optional(Type.String()),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, to recognise it' }),
  scopes: Type.Array(Type.String()),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
});

export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const { auth } = p;
  const tags = ['platform: api keys'];
  const policy = { auth: { cap: 'manage_options' } } as const;

  app.get(
    '/rova/v1/api-keys',
    {
      config: policy,
      schema: {
        tags,
        summary: 'List API keys (never the keys themselves)',
        querystring: Type.Object({
          user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
          page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
          per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Type.Array(ApiKey), ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const { items, total } = await auth.listApiKeys(req.query.user_id, req.query.page, req.query.per_page);
      setPagingHeaders(reply, req.url, total, req.query.page, req.query.per_page);
      return items;
    },
  );

  app.post(
    '/rova/v1/api-keys',
    {
      config: policy,
      schema: {
        tags,
        summary:
          'Create an API key; the key is in this response only (and in a replay of it: Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
            user: Type.Optional(
              Type.String({ minLength: 1, maxLength: 200, description: 'login or email, instead of user_id' }),
            ),
            name: Type.Optional(Type.String({ maxLength: 100 })),
            scopes: Type.Optional(
              Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write')]), { maxItems: 2 }),
            ),
            expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
            format: Type.Optional(
              Type.Union([Type.Literal('rova'), Type.Literal('woocommerce')], {
                description:
                  'woocommerce: a consumer key/secret pair (ck_…, cs_…) for WooCommerce clients (HTTP Basic over HTTPS, OAuth 1.0a over HTTP)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            key: Type.Optional(Type.String({ description: 'The key (format rova)' })),
            consumer_key: Type.Optional(Type.String({ description: 'ck_… (format woocommerce)' })),
            consumer_secret: Type.Optional(Type.String({ description: 'cs_… (format woocommerce), shown only here' })),
            api_key: ApiKey,
          }),
          ...wpErrors(400, 401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      let userId = req.body.user_id;
      if (userId === undefined && req.body.user) {
        const u = await auth.findUser(req.body.user);
        if (!u) throw RovaErrors.userNotFound(`user "${req.body.user}" not found`);
        userId = u.id;
      }
      if (userId === undefined)
        throw HttpErrors.missingCallbackParam('user_id or user is required', { params: ['user_id'] });
      const expires = req.body.expires_at ? new Date(req.body.expires_at) : null;
      const input = { userId, name: req.body.name, scopes: req.body.scopes, expiresAt: expires };
      reply.header('Cache-Control', 'no-store');
      const woo = req.body.format === 'woocommerce';
      const r = await keyedWrite(p, req, reply, {
        action: 'api-key-create',
        secret: true,
        async write(tx) {
          if (woo) {
            const w = await auth.createWooCommerceKey(input, tx);
            return {
              status: 201,
              body: { consumer_key: w.consumerKey, consumer_secret: w.consumerSecret, api_key: w.view },
            };
          }
          const k = await auth.createApiKey(input, tx);
          return { status: 201, body: { key: k.key, api_key: k.view } };
        },
      });
      req.auditTarget = `api_key:${(r.body as { api_key: { id: number } }).api_key.id}`;
      return reply.status(r.status as 201).send(r.body as never);
    },
  );

  app.delete(
    '/rova/v1/api-keys/:id',
    {
      config: policy,
      schema: {
        tags,
        summary: 'Revoke an API key (takes effect at once)',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
        response: { 200: ApiKey, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => auth.revokeApiKey(req.params.id),
  );
};
