import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { invalidParam } from '../../../platform/http/errors.js';
import { setPagingHeaders } from '../../../platform/http/namespaces.js';
import { wpErrors } from '../../../platform/http/schemas.js';
import {
  AttributeIn,
  AttributeOut,
  AttributeParams,
  AttributeTermIn,
  AttributeTermOut,
  AttributeTermParams,
  AttributeTermsParams,
  batchIn,
  batchOut,
  CategoryIn,
  CategoryListQuery,
  CategoryOut,
  ForceQuery,
  ReadQuery,
  TagIn,
  TagOut,
  TermListQuery,
  TermParams,
} from './schemas.js';
import * as service from './service.js';
import type { TermListQuery as TermListParams, TermScope } from './types.js';

/** wc/v3 product categories, tags, attributes and attribute terms: thin handlers over service.ts. */

const auth = { auth: { cap: 'manage_store' } } as const;

function ids(v: unknown, field: string): number[] | undefined {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  return parts.map((x) => {
    if (!/^\d{1,15}$/.test(x) || Number(x) < 1)
      throw invalidParam(field, `${field} must be a list of positive integer ids`);
    return Number(x);
  });
}

type ListQ = Static<typeof CategoryListQuery>;

function listParams(q: ListQ): TermListParams & { page: number; perPage: number } {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? 10;
  return {
    page,
    perPage,
    search: q.search?.trim() || undefined,
    include: ids(q.include, 'include'),
    exclude: ids(q.exclude, 'exclude'),
    slugs: q.slug
      ? q.slug
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined,
    parent: q.parent,
    product: q.product,
    hideEmpty: q.hide_empty === true,
    orderby: (q.orderby ?? 'name') as TermListParams['orderby'],
    order: (q.order ?? 'asc') as TermListParams['order'],
    limit: perPage,
    offset: q.offset ?? (page - 1) * perPage,
  };
}

interface TermResource {
  path: string;
  tag: string;
  noun: string;
  scope: (req: FastifyRequest) => TermScope;
  listQuery: TObject;
  params: TObject;
  itemParams: TObject;
  input: TObject;
  output: TObject;
}

function termRoutes(app: FastifyInstance, r: TermResource): void {
  const platform = app.platform;
  const tags = [r.tag];
  type Q = { Querystring: ListQ; Params: { id: number } };
  app.get<Q>(
    r.path,
    {
      config: auth,
      schema: {
        tags,
        summary: `List ${r.noun}s`,
        params: r.params,
        querystring: r.listQuery,
        response: { 200: Type.Array(r.output), ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const q = listParams(req.query);
      const out = await service.listTerms(platform, r.scope(req), q);
      setPagingHeaders(reply, req.url, out.total, q.page, q.perPage);
      return out.items;
    },
  );
  app.post<{ Body: service.Body }>(
    r.path,
    {
      config: auth,
      schema: {
        tags,
        summary: `Create a ${r.noun}`,
        params: r.params,
        body: r.input,
        response: { 201: r.output, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const out = await service.createTerm(platform, r.scope(req), req.body);
      req.auditTarget = `term:${String(out.id)}`;
      return reply.status(201).send(out);
    },
  );
  app.post<{ Body: service.TaxonomyBatch }>(
    `${r.path}/batch`,
    {
      config: auth,
      schema: {
        tags,
        summary: `Create, update and delete ${r.noun}s in one transaction (max 100 items)`,
        params: r.params,
        body: batchIn(r.input),
        response: { 200: batchOut(r.output), ...wpErrors(400, 401, 403, 404, 413) },
      },
    },
    async (req) => service.batchTerms(platform, r.scope(req), req.body),
  );
  app.get<{ Params: { id: number } }>(
    `${r.path}/:id`,
    {
      config: auth,
      schema: {
        tags,
        summary: `Get a ${r.noun}`,
        params: r.itemParams,
        querystring: ReadQuery,
        response: { 200: r.output, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => service.getTerm(platform, r.scope(req), req.params.id),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route<{ Params: { id: number }; Body: service.Body }>({
      method,
      url: `${r.path}/:id`,
      config: auth,
      schema: {
        tags,
        summary: `Update a ${r.noun}`,
        params: r.itemParams,
        body: r.input,
        response: { 200: r.output, ...wpErrors(400, 401, 403, 404) },
      },
      handler: async (req) => service.updateTerm(platform, r.scope(req), req.params.id, req.body),
    });
  }
  app.delete<{ Params: { id: number }; Querystring: Static<typeof ForceQuery> }>(
    `${r.path}/:id`,
    {
      config: auth,
      schema: {
        tags,
        summary: `Delete a ${r.noun} (force=true required)`,
        params: r.itemParams,
        querystring: ForceQuery,
        response: { 200: r.output, ...wpErrors(400, 401, 403, 404, 501) },
      },
    },
    async (req) => service.deleteTerm(platform, r.scope(req), req.params.id, req.query.force === true),
  );
}

export const taxonomyRoutes: FastifyPluginAsync = async (app) => {
  const platform = app.platform;
  const NoParams = Type.Object({});
  termRoutes(app, {
    path: '/wc/v3/products/categories',
    tag: 'wc/v3 product categories',
    noun: 'product category',
    scope: () => service.CATEGORIES,
    listQuery: CategoryListQuery,
    params: NoParams,
    itemParams: TermParams,
    input: CategoryIn,
    output: CategoryOut,
  });
  termRoutes(app, {
    path: '/wc/v3/products/tags',
    tag: 'wc/v3 product tags',
    noun: 'product tag',
    scope: () => service.TAGS,
    listQuery: TermListQuery,
    params: NoParams,
    itemParams: TermParams,
    input: TagIn,
    output: TagOut,
  });
  termRoutes(app, {
    path: '/wc/v3/products/attributes/:attribute_id/terms',
    tag: 'wc/v3 product attributes',
    noun: 'attribute term',
    scope: (req) => service.attributeTerms((req.params as { attribute_id: number }).attribute_id),
    listQuery: TermListQuery,
    params: AttributeTermsParams,
    itemParams: AttributeTermParams,
    input: AttributeTermIn,
    output: AttributeTermOut,
  });

  const tags = ['wc/v3 product attributes'];
  type P = { Params: Static<typeof AttributeParams> };
  app.get(
    '/wc/v3/products/attributes',
    {
      config: auth,
      schema: {
        tags,
        summary: 'List global product attributes',
        querystring: ReadQuery,
        response: { 200: Type.Array(AttributeOut), ...wpErrors(400, 401, 403) },
      },
    },
    async () => service.listAttributes(platform),
  );
  app.post<{ Body: service.Body }>(
    '/wc/v3/products/attributes',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a global product attribute',
        body: AttributeIn,
        response: { 201: AttributeOut, ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const out = await service.createAttribute(platform, req.body);
      req.auditTarget = `attribute:${String(out.id)}`;
      return reply.status(201).send(out);
    },
  );
  app.post<{ Body: service.TaxonomyBatch }>(
    '/wc/v3/products/attributes/batch',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create, update and delete attributes in one transaction (max 100 items)',
        body: batchIn(AttributeIn),
        response: { 200: batchOut(AttributeOut), ...wpErrors(400, 401, 403, 413) },
      },
    },
    async (req) => service.batchAttributes(platform, req.body),
  );
  app.get<P>(
    '/wc/v3/products/attributes/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Get a global product attribute',
        params: AttributeParams,
        querystring: ReadQuery,
        response: { 200: AttributeOut, ...wpErrors(400, 401, 403, 404) },
      },
    },
    async (req) => service.getAttribute(platform, req.params.id),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route<P & { Body: service.Body }>({
      method,
      url: '/wc/v3/products/attributes/:id',
      config: auth,
      schema: {
        tags,
        summary: 'Update a global product attribute',
        params: AttributeParams,
        body: AttributeIn,
        response: { 200: AttributeOut, ...wpErrors(400, 401, 403, 404) },
      },
      handler: async (req) => service.updateAttribute(platform, req.params.id, req.body),
    });
  }
  app.delete<P & { Querystring: Static<typeof ForceQuery> }>(
    '/wc/v3/products/attributes/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Delete a global product attribute and its terms (force=true required)',
        params: AttributeParams,
        querystring: ForceQuery,
        response: { 200: AttributeOut, ...wpErrors(400, 401, 403, 404, 501) },
      },
    },
    async (req) => service.deleteAttribute(platform, req.params.id, req.query.force === true),
  );
};
