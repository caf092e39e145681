import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RovaErrors } from '../errors.js';
import { wpErrors } from '../http/schemas.js';
import { quotasOf, type QuotaPlan, type QuotaWindow } from '../limits/quotas.js';

const Plan = Type.Object({
  name: Type.String(),
  requests_per_minute: Type.Integer(),
  requests_per_day: Type.Union([Type.Integer(), Type.Null()]),
  route_costs: Type.Record(Type.String(), Type.Integer()),
  counts: Type.Union([Type.Literal('all'), Type.Literal('writes')], {
    description: 'the default plan counts writes only',
  }),
});
const Window = Type.Object({
  policy: Type.String(),
  limit: Type.Integer(),
  used: Type.Integer(),
  remaining: Type.Integer(),
  reset_seconds: Type.Integer(),
});
const Usage = Type.Object({ api_key_id: Type.Integer(), plan: Plan, windows: Type.Array(Window) });
const PlanBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    requests_per_minute: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    requests_per_day: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()])),
    route_costs: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^(GET|HEAD|POST|PUT|PATCH|DELETE) /[A-Za-z0-9_./{}-]{1,200}$' }),
        Type.Integer({ minimum: 1, maximum: 1000 }),
        {
          description: 'weight per route, e.g. {"POST /rova-rental/v2/booking/create": 5}',
          maxProperties: 200,
          additionalProperties: false,
        },
      ),
    ),
  },
  { additionalProperties: false },
);
const KeyId = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

const planView = (p: QuotaPlan) => ({
  name: p.name,
  requests_per_minute: p.requestsPerMinute,
  requests_per_day: p.requestsPerDay,
  route_costs: p.routeCosts,
  counts: p.writesOnly ? ('writes' as const) : ('all' as const),
});

/** Per-key quota plans (admin) and usage (admin, or the key's own holder). */
export const quotaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const quotas = quotasOf(app.platform);
  const tags = ['platform: api keys'];
  const usage = async (id: number) => {
    const plan = await quotas.planOf(id);
    const windows: QuotaWindow[] = await quotas.usage(id, plan);
    return { api_key_id: id, plan: planView(plan), windows };
  };

  app.put(
    '/rova/v1/api-keys/:id/plan',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: "Set an API key's quota plan (per minute, per day, route weights)",
        params: KeyId,
        body: PlanBody,
        response: { 200: Plan, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const b = req.body;
      const plan = await quotas.setPlan(req.params.id, {
        name: b.name ?? 'custom',
        requestsPerMinute: b.requests_per_minute,
        requestsPerDay: b.requests_per_day ?? null,
        routeCosts: b.route_costs ?? {},
      });
      req.auditTarget = `api_key:${req.params.id}`;
      return planView(plan);
    },
  );

  app.delete(
    '/rova/v1/api-keys/:id/plan',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: 'Remove the plan: the key falls back to the default plan',
        params: KeyId,
        response: { 200: Plan, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      req.auditTarget = `api_key:${req.params.id}`;
      return planView(await quotas.clearPlan(req.params.id));
    },
  );

  app.get(
    '/rova/v1/api-keys/:id/usage',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: "An API key's plan and what it has used in the current windows",
        params: KeyId,
        response: { 200: Usage, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => usage(req.params.id),
  );

  app.get(
    '/rova/v1/api-keys/me/usage',
    {
      config: { auth: { authenticated: true, scope: 'read' } },
      schema: {
        tags,
        summary: 'The calling API key: its plan and usage',
        response: { 200: Usage, ...wpErrors(400, 401) },
      },
    },
    async (req) => {
      if (req.auth.apiKeyId === null)
        throw RovaErrors.notAnApiKey('Call this with the API key whose usage you want to see.');
      return usage(req.auth.apiKeyId);
    },
  );
};
