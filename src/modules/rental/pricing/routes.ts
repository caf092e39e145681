import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError } from '../../../platform/http/errors.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { catalogueChanged } from '../catalogue.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, DateStr, Deleted, IdParams, Nullable, Id, Priority, lit, Text } from '../schemas.js';
import { writeSchemas } from '../write-schemas.js';
import { isValidDate } from '../time.js';
import { deleteRule, insertRule, listRules, ruleById, updateRule } from './repo.js';
import { PricingRuleView, RULE_CHARGES, type PricingRuleUpdate } from './schema.js';
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
    priority: r.priority,
    is_active: r.is_active,
  };
}

const bad = (m: string, field: string) => new HttpError(400, 'INVALID_PARAMS', m, { field });

/** The fields each kind needs (checked on the merged rule). */
function validate(r: Partial<PricingRule>): void {
  if (r.scope === 'category' && !r.category) throw bad('A category rule needs category.', 'category');
  if (r.scope === 'vehicle' && !r.vehicle_id) throw bad('A vehicle rule needs vehicle_id.', 'vehicle_id');
  for (const f of ['start_date', 'end_date'] as const)
    if (r[f] && !isValidDate(r[f]!)) throw bad(`${f} is not a date.`, f);
  switch (r.kind) {
    case 'season':
      if (!r.start_date || !r.end_date) throw bad('A season needs start_date and end_date.', 'start_date');
      if (!r.recurring && r.start_date > r.end_date)
        throw new HttpError(400, 'INVALID_DATE_RANGE', 'start_date is after end_date.');
      if (r.multiplier === null || r.multiplier === undefined) throw bad('A season needs multiplier.', 'multiplier');
      break;
    case 'weekend':
      if (r.multiplier === null || r.multiplier === undefined)
        throw bad('A weekend rule needs multiplier.', 'multiplier');
      break;
    case 'duration':
      if (!r.min_days || r.percent === null || r.percent === undefined)
        throw bad('A duration tier needs min_days and percent.', 'min_days');
      break;
    case 'addon':
      if (!r.code || r.amount === null || r.amount === undefined) throw bad('An add-on needs code and amount.', 'code');
      break;
    case 'tax':
    case 'deposit':
      if (r.percent === null || r.percent === undefined) throw bad(`A ${r.kind} rule needs percent.`, 'percent');
      break;
  }
}

type Decimals = 'multiplier' | 'percent' | 'amount';
/** The body's decimals as text (PostgreSQL numeric). */
function toFields<B extends Partial<Record<Decimals, number | null>>>(
  b: B,
): Omit<B, Decimals> & Pick<PricingRuleUpdate, Decimals> {
  const s = (v: number | null | undefined) => (v === undefined || v === null ? v : String(v));
  return { ...b, multiplier: s(b.multiplier), percent: s(b.percent), amount: s(b.amount) };
}

function fkError(e: unknown): never {
  const msg = e instanceof Error ? e.message + String((e as { cause?: unknown }).cause ?? '') : '';
  if (/foreign key|violates/.test(msg))
    throw new HttpError(400, 'INVALID_PARAMS', 'The rule refers to an unknown vehicle or breaks a constraint.', {
      field: 'vehicle_id',
    });
  throw e;
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
      const r = await listRules(p.db, req.query.kind, pg.limit, pg.offset);
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
      const r = await ruleById(p.db, req.params.id);
      if (!r) throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Pricing rule ${req.params.id} does not exist.`);
      return rentalOk(ruleView(r));
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
      validate({
        ...b,
        multiplier: b.multiplier === undefined ? undefined : String(b.multiplier),
        percent: b.percent === undefined ? undefined : String(b.percent),
        amount: b.amount === undefined ? undefined : String(b.amount),
      } as Partial<PricingRule>);
      const r = await keyedWrite(p, req, reply, {
        action: 'pricing-rule-create',
        write: async (tx) => ({
          status: 201,
          body: rentalOk(ruleView(await insertRule(tx, toFields(b)).catch(fkError)), 'Pricing rule created.'),
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
      const cur = await ruleById(p.db, req.params.id);
      if (!cur) throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Pricing rule ${req.params.id} does not exist.`);
      const f = toFields(req.body);
      validate({
        ...cur,
        ...(Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Partial<PricingRule>),
      });
      const r = await updateRule(p.db, req.params.id, f).catch(fkError);
      await catalogueChanged(p);
      return rentalOk(ruleView(r!), 'Pricing rule updated.');
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
      if (!(await deleteRule(p.db, req.params.id)))
        throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Pricing rule ${req.params.id} does not exist.`);
      await catalogueChanged(p);
      return rentalOk({ id: req.params.id, deleted: true }, 'Pricing rule deleted.');
    },
  );
};
