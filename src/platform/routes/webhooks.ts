import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eventTypes } from '../events/registry.js';
import { setPagingHeaders } from '../http/namespaces.js';
import { wpErrors } from '../http/schemas.js';
import { IdempotencyKeyHeader, keyedRun, keyedWrite } from '../idempotency/route.js';
import { webhooksOf } from '../webhooks/service.js';

const Endpoint = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  secret_rotating_until: Type.Union([Type.String(), Type.Null()], {
    description: 'until then both the old and the new secret sign',
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const WithSecret = Type.Object({
  endpoint: Endpoint,
  secret: Type.String({ description: 'whsec_… — shown only in this answer' }),
});
const Delivery = Type.Object({
  id: Type.Integer(),
  endpoint_id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.String({ description: 'pending | delivered | failed' }),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Type.String(), Type.Null()]),
  response_status: Type.Union([Type.Integer(), Type.Null()]),
  response_time_ms: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
});
const Attempt = Type.Object({
  attempted_at: Type.String(),
  response_status: Type.Union([Type.Integer(), Type.Null()]),
  response_time_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: 'event types, `resource.*` or `*`',
});
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
const Did = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  did: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
const Url = Type.String({
  minLength: 8,
  maxLength: 2000,
  description: 'https URL; private or loopback addresses only when allowed in the settings',
});

/** Outbound webhook endpoints, their delivery log and replay (administrators). */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const wh = webhooksOf(app.platform);
  const tags = ['platform: webhooks'];
  const config = { auth: { cap: 'manage_options' } } as const;

  app.get(
    '/rova/v1/webhooks/event-types',
    {
      config,
      schema: {
        tags,
        summary: 'Event types an endpoint can subscribe to',
        response: {
          200: Type.Array(Type.Object({ type: Type.String(), description: Type.String() })),
          ...wpErrors(401, 403),
        },
      },
    },
    async () => eventTypes(),
  );

  app.get(
    '/rova/v1/webhooks/settings',
    {
      config,
      schema: {
        tags,
        summary: 'Webhook settings',
        response: { 200: Type.Object({ allow_private_urls: Type.Boolean() }), ...wpErrors(401, 403) },
      },
    },
    async () => ({ allow_private_urls: await wh.allowPrivate() }),
  );

  app.put(
    '/rova/v1/webhooks/settings',
    {
      config,
      schema: {
        tags,
        summary: 'Allow (or refuse) webhook URLs on loopback/private networks (SSRF guard; default refused)',
        body: Type.Object({ allow_private_urls: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Type.Object({ allow_private_urls: Type.Boolean() }), ...wpErrors(400, 401, 403) },
      },
    },
    async (req) => {
      await wh.setAllowPrivate(req.body.allow_private_urls);
      return { allow_private_urls: req.body.allow_private_urls };
    },
  );

  app.get(
    '/rova/v1/webhooks',
    {
      config,
      schema: {
        tags,
        summary: 'List webhook endpoints (never their secrets)',
        response: { 200: Type.Array(Endpoint), ...wpErrors(401, 403) },
      },
    },
    async () => wh.list(),
  );

  app.post(
    '/rova/v1/webhooks',
    {
      config,
      schema: {
        tags,
        summary:
          'Register an endpoint; its whsec_ signing secret is in this answer only (and in a replay of it: Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            url: Url,
            events: Events,
            description: Type.Optional(Type.String({ maxLength: 200 })),
            enabled: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 201: WithSecret, ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const input = await wh.checked(req.body);
      const r = await keyedWrite(app.platform, req, reply, {
        action: 'webhook-create',
        secret: true,
        write: async (tx) => ({ status: 201, body: await wh.insert(tx, input) }),
      });
      req.auditTarget = `webhook:${(r.body as { endpoint: { id: number } }).endpoint.id}`;
      return reply.status(r.status as 201).send(r.body as never);
    },
  );

  app.get(
    '/rova/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One webhook endpoint',
        params: Id,
        response: { 200: Endpoint, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => wh.get(req.params.id),
  );

  app.put(
    '/rova/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change URL, event filter, description or enabled',
        params: Id,
        body: Type.Object(
          {
            url: Type.Optional(Url),
            events: Type.Optional(Events),
            description: Type.Optional(Type.String({ maxLength: 200 })),
            enabled: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: Endpoint, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => wh.update(req.params.id, req.body),
  );

  app.delete(
    '/rova/v1/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an endpoint and its delivery log',
        params: Id,
        response: {
          200: Type.Object({ deleted: Type.Boolean(), id: Type.Integer() }),
          ...wpErrors(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      await wh.remove(req.params.id);
      return { deleted: true, id: req.params.id };
    },
  );

  app.post(
    '/rova/v1/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        summary:
          'New signing secret (shown once, and in a replay of this answer: Idempotency-Key honoured); the old one keeps signing alongside for overlap_seconds',
        headers: IdempotencyKeyHeader,
        params: Id,
        body: Type.Optional(
          Type.Object(
            { overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800, default: 86400 })) },
            { additionalProperties: false },
          ),
        ),
        response: { 200: WithSecret, ...wpErrors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const overlap = req.body?.overlap_seconds ?? 86400;
      const r = await keyedWrite(app.platform, req, reply, {
        action: 'webhook-rotate-secret',
        secret: true,
        write: async (tx) => ({ status: 200, body: await wh.rotateSecret(req.params.id, overlap, tx) }),
      });
      req.auditTarget = `webhook:${req.params.id}`;
      return reply.status(r.status as 200).send(r.body as never);
    },
  );

  app.get(
    '/rova/v1/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'Delivery log of an endpoint, newest first (status, response code and time)',
        params: Id,
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
          per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Type.Array(Delivery), ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const r = await wh.deliveries(req.params.id, req.query.page, req.query.per_page);
      setPagingHeaders(reply, req.url, r.total, req.query.page, req.query.per_page);
      return r.items;
    },
  );

  app.get(
    '/rova/v1/webhooks/:id/deliveries/:did',
    {
      config,
      schema: {
        tags,
        summary: 'One delivery with every attempt',
        params: Did,
        response: {
          200: Type.Intersect([Delivery, Type.Object({ log: Type.Array(Attempt) })]),
          ...wpErrors(400, 401, 403, 404),
        },
      },
    },
    async (req) => wh.attempts(req.params.id, req.params.did),
  );

  app.post(
    '/rova/v1/webhooks/:id/deliveries/:did/replay',
    {
      config,
      schema: {
        tags,
        summary: 'Send the event of a delivery again now (a new delivery; Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        params: Did,
        response: { 200: Delivery, ...wpErrors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      req.auditTarget = `webhook:${req.params.id}`;
      // the new delivery commits with the key; the key's final answer is the delivery after its attempt
      const r = await keyedRun(app.platform, req, reply, {
        action: 'webhook-delivery-replay',
        run: async (claim) => ({
          status: 200,
          body: await wh.replay(req.params.id, req.params.did, (tx, pending) =>
            claim.commit(tx, { status: 200, body: pending }),
          ),
        }),
      });
      return reply.status(r.status as 200).send(r.body as never);
    },
  );
};
