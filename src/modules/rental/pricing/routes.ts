import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { catalogueChanged } from '../catalogue.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, DateStr, Deleted, IdParams, Nullable, Id, Priority, lit, Text } from '../schemas.js';
import { writeSchemas } from '../write-schemas.js';
import { PricingRuleView, RULE_CHARGES } from './schema.js';
import { createRule, editRule, findRules, removeRule, ruleFields, ruleOf, validateRule } from './service.js';
import { RULE_KINDS, RULE_SCOPES, type PricingRule } from './types.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';

const T = ['rental: pricing rules'];
const RuleBody = {
  name: Text({ minLength: 1, maxLength: 200 }),
  kind: lit(RULE_KINDS),
  scope: Type.Optional(lit(RULE_SCOPES)),
  category: Type.Optional(Nullable(Text({ maxLength: 50 }))),
  vehicle_id: Type.Optional(Nullable(Id())),
  start_date: Type.Optional(Nullable(DateStr)),
  end_date: Type.Optional(Nullable(DateStr)),
  recurring: Type.Optional(Type.Boolean()),
  multiplier: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
  percent: Type.Optional(Nullable(Type.Number({ minimum: -100, maximum: 1000 }))),
  min_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000 }))),
  code: Type.Optional(Nullable(Type.String({ pattern: '^[a-z0-9_-]{1,50}$' }))),
  amount: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
  charge: Type.Optional(Nullable(lit(RULE_CHARGES))),
  max_per_day: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description: 'Add-ons: the most units one booking may take at a time, e.g. 3 child seats (null: one)',
      }),
    ),
  ),
  priority: Type.Optional(Priority),
  is_active: Type.Optional(Type.Boolean()),
};
const RuleInput = writeSchemas(RuleBody);

export function ruleView(r: PricingRule): PricingRuleView {
  const n = (v: string | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    scope: r.scope,
    category: r.category,
    vehicle_id: r.vehicle_id,
    start_date: r.start_date,
    end_date: r.end_date,
    recurring: r.recurring,
    multiplier: n(r.multiplier),
    percent: n(r.percent),
    min_days: r.min_days,
    code: r.code,
    amount: n(r.amount),
    charge: r.charge,
    max_per_day: r.max_per_day,
    priority: r.priority,
    is_active: r.is_active,
  };
}

export const pricingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/pricing-rules',
    {
      schema: {
        tags: T,
        summary: 'List pricing rules',
        querystring: Type.Object({ ...PagingQuery, kind: Type.Optional(lit(RULE_KINDS)) }),
        response: adminResponses(PageSchema(PricingRuleView)),
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findRules(p.db, req.query.kind, pg.limit, pg.offset);
      return rentalOk(pageOf(r.items.map(ruleView), r.total, pg));
    },
  );
  app.get(
    '/pricing-rules/:id',
    {
      schema: {
        tags: T,
        summary: 'One pricing rule',
        params: IdParams,
        response: adminResponses(PricingRuleView, 200, 404),
      },
    },
    async (req) => {
      return rentalOk(ruleView(await ruleOf(p.db, req.params.id)));
    },
  );
  app.post(
    '/pricing-rules',
    {
      schema: {
        tags: T,
        summary: 'Create a pricing rule (season, weekend, duration, addon, tax, deposit; Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: RuleInput.create,
        response: { 201: RentalEnvelope(PricingRuleView), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const b = { scope: 'global' as const, recurring: true, ...req.body };
      validateRule({
        ...b,
        multiplier: b.multiplier === undefined ? undefined : String(b.multiplier),
        percent: b.percent === undefined ? undefined : String(b.percent),
        amount: b.amount === undefined ? undefined : String(b.amount),
      } as Partial<PricingRule>);
      const r = await keyedWrite(p, req, reply, {
        action: 'pricing-rule-create',
        write: async (tx) => ({
          status: 201,
          body: rentalOk(ruleView(await createRule(tx, ruleFields(b))), 'Pricing rule created.'),
        }),
        after: () => catalogueChanged(p),
      });
      req.auditTarget = `pricing_rule:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );
  app.put(
    '/pricing-rules/:id',
    {
      schema: {
        tags: T,
        summary: 'Update a pricing rule',
        params: IdParams,
        body: RuleInput.update,
        response: adminResponses(PricingRuleView, 200, 404),
      },
    },
    async (req) => {
      const r = await editRule(p.db, req.params.id, ruleFields(req.body));
      await catalogueChanged(p);
      return rentalOk(ruleView(r), 'Pricing rule updated.');
    },
  );
  app.delete(
    '/pricing-rules/:id',
    {
      schema: {
        tags: T,
        summary: 'Delete a pricing rule',
        params: IdParams,
        response: adminResponses(Deleted, 200, 404),
      },
    },
    async (req) => {
      await removeRule(p.db, req.params.id);
      await catalogueChanged(p);
      return rentalOk({ id: req.params.id, deleted: true }, 'Pricing rule deleted.');
    },
  );
};
