import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { invalidParam } from '../../platform/http/errors.js';
import { setPagingHeaders } from '../../platform/http/namespaces.js';
import { wpErrors } from '../../platform/http/schemas.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../platform/idempotency/route.js';
import {
  BatchIn,
  BatchOut,
  DeleteQuery,
  IdParams,
  ListQuery,
  ProductIn,
  ProductOut,
  ReadQuery,
  VariationBatchIn,
  VariationBatchOut,
  VariationIn,
  VariationListQuery,
  VariationOut,
  VariationParams,
} from './schemas.js';
import { parseDateInput } from './dates.js';
import { wordpressQuery, applyFields } from './query.js';
import * as service from './service.js';
import { absolutePermalinks, requestOrigin, storeUrl } from './store-url.js';
import { taxonomyRoutes } from './taxonomy/routes.js';
import type { ProductStatus } from './types.js';
import { strictCompiler } from './validate.js';

/** wc/v3 catalogue routes: thin handlers over service.ts. Every route needs `manage_store`. */

const auth = { auth: { cap: 'manage_store' } } as const;
const tags = ['wc/v3 products'];

function idList(v: unknown, field: string): number[] | undefined {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
  return parts.map((x) => {
    if (!/^\d{1,15}$/.test(x) || (Number(x) < 1 && field !== 'parent' && field !== 'parent_exclude')) {
      throw invalidParam(field, `${field} must be a list of positive integer ids`);
    }
    return Number(x);
  });
}

const textList = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

function queryDate(v: string | undefined, field: string, tz: string, gmt: boolean): Date | undefined {
  if (v === undefined) return undefined;
  const d = parseDateInput(v, tz, { asGmt: gmt });
  if (!d) throw invalidParam(field, `${field} must be an ISO 8601 date-time, e.g. 2026-05-01T00:00:00`);
  return d;
}

type ListQ = Static<typeof ListQuery>;
type VListQ = Static<typeof VariationListQuery>;

function listParams(q: ListQ | VListQ, tz: string): service.ListParams {
  const gmt = q.dates_are_gmt === true;
  const p = q as Partial<ListQ>;
  return {
    page: q.page ?? 1,
    perPage: q.per_page ?? 10,
    offset: q.offset,
    statuses: !q.status || q.status === 'any' ? null : [q.status as ProductStatus],
    types: p.type ? [p.type] : undefined,
    search: q.search?.trim() || undefined,
    skus: textList(q.sku),
    slugs: textList(q.slug),
    include: idList(q.include, 'include'),
    exclude: idList(q.exclude, 'exclude'),
    parents: idList(q.parent, 'parent'),
    parentExclude: idList(q.parent_exclude, 'parent_exclude'),
    featured: p.featured,
    onSale: q.on_sale,
    minPrice: q.min_price,
    maxPrice: q.max_price,
    stockStatus: q.stock_status,
    categories: idList(p.category, 'category'),
    tags: idList(p.tag, 'tag'),
    after: queryDate(q.after, 'after', tz, gmt),
    before: queryDate(q.before, 'before', tz, gmt),
    modifiedAfter: queryDate(q.modified_after, 'modified_after', tz, gmt),
    modifiedBefore: queryDate(q.modified_before, 'modified_before', tz, gmt),
    orderby: (q.orderby ?? 'date') as service.ListParams['orderby'],
    order: (q.order ?? 'desc') as service.ListParams['order'],
    currency: q.currency,
  };
}

function page(req: FastifyRequest, reply: FastifyReply, p: service.ListParams, r: { items: unknown[]; total: number }) {
  setPagingHeaders(reply, req.url, r.total, p.page, p.perPage);
  return r.items;
}

export const storeRoutes: FastifyPluginAsync = async (app) => {
  app.setValidatorCompiler(strictCompiler);
  const platform = app.platform;
  const tz = platform.config.storeTimezone;
  const fixedBase = storeUrl(platform.config);
  // WordPress reads query strings its own way (last value wins, name[] lists, unknown names refused).
  app.addHook('preValidation', wordpressQuery);
  app.addHook('preSerialization', async (req, _reply, payload) =>
    absolutePermalinks(payload, fixedBase ?? requestOrigin(req)),
  );
  app.addHook('onSend', applyFields);
  await app.register(taxonomyRoutes);

  app.get<{ Querystring: ListQ }>(
    '/wc/v3/products',
    {
      config: auth,
      schema: {
        tags,
        summary: 'List products',
        querystring: ListQuery,
        response: { 200: Type.Array(ProductOut), ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const p = listParams(req.query, tz);
      return page(req, reply, p, await service.listProducts(platform, p));
    },
  );

  app.post<{ Body: Static<typeof ProductIn> }>(
    '/wc/v3/products',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a product (Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: ProductIn,
        response: { 201: ProductOut, ...wpErrors(400, 401, 403, 409, 413, 422) },
      },
    },
    async (req, reply) => {
      const r = await keyedWrite(platform, req, reply, {
        action: 'product-create',
        write: async (tx) => ({ status: 201, body: await service.createProduct(platform, tx, req.body) }),
        after: () => service.catalogueChanged(platform),
      });
      req.auditTarget = `product:${String((r.body as { id: number }).id)}`;
      return reply.status(r.status).send(r.body);
    },
  );

  app.post<{ Body: service.BatchBody }>(
    '/wc/v3/products/batch',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create, update and delete products in one transaction (max 100 items; Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: BatchIn,
        response: { 200: BatchOut, ...wpErrors(400, 401, 403, 409, 413, 422) },
      },
    },
    async (req, reply) => {
      const r = await keyedWrite(platform, req, reply, {
        action: 'product-batch',
        write: async (tx) => ({ status: 200, body: await service.batch(platform, tx, req.body) }),
        after: () => service.catalogueChanged(platform),
      });
      return reply.status(r.status).send(r.body);
    },
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ReadQuery> }>(
    '/wc/v3/products/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Get a product',
        params: IdParams,
        querystring: ReadQuery,
        response: { 200: ProductOut, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => service.getProduct(platform, req.params.id, req.query.currency),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route<{ Params: Static<typeof IdParams>; Body: Static<typeof ProductIn> }>({
      method,
      url: '/wc/v3/products/:id',
      config: auth,
      schema: {
        tags,
        summary: 'Update a product',
        params: IdParams,
        body: ProductIn,
        response: { 200: ProductOut, ...wpErrors(400, 401, 403, 404) },
      },
      handler: async (req) => service.updateProduct(platform, req.params.id, req.body),
    });
  }

  app.delete<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeleteQuery> }>(
    '/wc/v3/products/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Trash a product (force=true deletes it)',
        params: IdParams,
        querystring: DeleteQuery,
        response: { 200: ProductOut, ...wpErrors(400, 401, 403, 404, 410) },
      },
    },
    async (req) => service.deleteProduct(platform, req.params.id, req.query.force === true),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: VListQ }>(
    '/wc/v3/products/:id/variations',
    {
      config: auth,
      schema: {
        tags,
        summary: "List a product's variations",
        params: IdParams,
        querystring: VariationListQuery,
        response: { 200: Type.Array(VariationOut), ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const p = listParams(req.query, tz);
      return page(req, reply, p, await service.listProducts(platform, p, req.params.id));
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof VariationIn> }>(
    '/wc/v3/products/:id/variations',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a variation (Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: VariationIn,
        response: { 201: VariationOut, ...wpErrors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const r = await keyedWrite(platform, req, reply, {
        action: 'variation-create',
        write: async (tx) => ({
          status: 201,
          body: await service.createVariation(platform, tx, req.params.id, req.body),
        }),
        after: () => service.catalogueChanged(platform),
      });
      req.auditTarget = `product:${String((r.body as { id: number }).id)}`;
      return reply.status(r.status).send(r.body);
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: service.BatchBody }>(
    '/wc/v3/products/:id/variations/batch',
    {
      config: auth,
      schema: {
        tags,
        summary:
          "Create, update and delete a product's variations in one transaction (max 100 items; Idempotency-Key honoured)",
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: VariationBatchIn,
        response: { 200: VariationBatchOut, ...wpErrors(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (req, reply) => {
      const r = await keyedWrite(platform, req, reply, {
        action: 'variation-batch',
        write: async (tx) => ({
          status: 200,
          body: await service.batchVariations(platform, tx, req.params.id, req.body),
        }),
        after: () => service.catalogueChanged(platform),
      });
      return reply.status(r.status).send(r.body);
    },
  );

  app.get<{ Params: Static<typeof VariationParams>; Querystring: Static<typeof ReadQuery> }>(
    '/wc/v3/products/:id/variations/:vid',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Get a variation',
        params: VariationParams,
        querystring: ReadQuery,
        response: { 200: VariationOut, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => service.getVariation(platform, req.params.id, req.params.vid, req.query.currency),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route<{ Params: Static<typeof VariationParams>; Body: Static<typeof VariationIn> }>({
      method,
      url: '/wc/v3/products/:id/variations/:vid',
      config: auth,
      schema: {
        tags,
        summary: 'Update a variation',
        params: VariationParams,
        body: VariationIn,
        response: { 200: VariationOut, ...wpErrors(400, 401, 403, 404) },
      },
      handler: async (req) => service.updateVariation(platform, req.params.id, req.params.vid, req.body),
    });
  }

  app.delete<{ Params: Static<typeof VariationParams>; Querystring: Static<typeof DeleteQuery> }>(
    '/wc/v3/products/:id/variations/:vid',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Delete a variation (force=true required: variations are not trashed)',
        params: VariationParams,
        querystring: DeleteQuery,
        response: { 200: VariationOut, ...wpErrors(400, 401, 403, 404, 501) },
      },
    },
    async (req) => service.deleteVariation(platform, req.params.id, req.params.vid, req.query.force === true),
  );
};
