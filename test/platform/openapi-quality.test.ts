import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { operationId } from '../../src/platform/http/openapi/document.js';
import { exampleFor } from '../../src/platform/http/openapi/examples.js';
import { Type } from '@sinclair/typebox';

type Json = Record<string, unknown>;
interface Op {
  operationId?: string;
  tags?: string[];
  security?: Json[];
  description?: string;
  responses: Record<string, { description: string; content?: Record<string, { schema: Json }>; headers?: Json }>;
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown; schema: Json }> };
  parameters?: { in: string; name: string }[];
}
interface Doc {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json>; headers?: Record<string, Json> };
}

const AUTHENTICATED = [{ apiKey: [] }, { bearer: [] }, { sessionCookie: [], nonce: [] }];
const ROOT = path.resolve(import.meta.dirname, '../..');

let t: TestApp;
let doc: Doc;
const ops: { path: string; method: string; op: Op }[] = [];
beforeAll(async () => {
  t = await makeApp();
  doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc;
  for (const [p, item] of Object.entries(doc.paths))
    for (const [m, op] of Object.entries(item)) ops.push({ path: p, method: m, op });
});
afterAll(async () => t?.close());

describe('OpenAPI document quality (derived for every route, also routes added later)', () => {
  it('every operation has a unique operationId and declared, described tags; servers are given', () => {
    const ids = ops.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = new Map((doc.tags ?? []).map((x) => [x.name, x.description]));
    const undeclared = ops.flatMap((o) =>
      (o.op.tags ?? []).filter((x) => !declared.get(x)).map((x) => `${o.method} ${o.path}: tag "${x}"`),
    );
    expect(undeclared).toEqual([]);
    expect(ops.filter((o) => !o.op.tags?.length)).toEqual([]);
    expect(doc.servers).toEqual([{ url: '/', description: 'This server' }]);
  });

  it('operationIds are derived from method and path', () => {
    expect(operationId('/wp-json', 'GET', '/wp-json/wc/v3/products/{id}')).toBe('getWcV3ProductsById');
    expect(operationId('/wp-json', 'DELETE', '/wp-json/wc/v3/products/{id}/variations/{vid}')).toBe(
      'deleteWcV3ProductsByIdVariationsByVid',
    );
    expect(operationId('/wp-json', 'POST', '/wp-json/rova-fx/v1/rates/sync')).toBe('postRovaFxV1RatesSync');
    expect(operationId('/wp-json', 'GET', '/wp-json')).toBe('getRestIndex');
    expect(operationId('/wp-json', 'GET', '/')).toBe('getRoot');
    expect(operationId('/wp-json', 'GET', '/assets/rova-fx/config.json')).toBe('getAssetsRovaFxConfigJson');
    expect(doc.paths['/wp-json/wc/v3/products/{id}']?.put?.operationId).toBe('putWcV3ProductsById');
    expect(doc.paths['/wp-json/wc/v3/products/{id}']?.patch?.operationId).toBe('patchWcV3ProductsById');
    // WordPress's `/wp-json/` is spelled without the trailing slash (the router ignores it).
    expect(doc.paths['/wp-json']?.get?.operationId).toBe('getRestIndex');
    expect(doc.paths['/wp-json/']).toBeUndefined();
  });

  it('security follows config.auth: public routes say so with security: [], the others list the three ways in', () => {
    const sec = (p: string, m: string) => doc.paths[p]?.[m]?.security;
    expect(sec('/wp-json/rova-fx/v1/convert', 'post')).toEqual([]);
    expect(sec('/wp-json/rova/v1/auth/login', 'post')).toEqual([]);
    expect(sec('/wp-json/rova-rental/v1/locations', 'get')).toEqual([]);
    expect(sec('/wp-json', 'get')).toEqual([]);
    expect(sec('/demo/shop', 'get')).toEqual([]);
    expect(sec('/', 'get')).toEqual([]);
    expect(sec('/wp-json/wc/v3/products', 'get')).toEqual(AUTHENTICATED);
    expect(sec('/wp-json/rova-rental/v1/vehicles', 'post')).toEqual(AUTHENTICATED);
    expect(sec('/wp-json/rova/v1/auth/me', 'get')).toEqual(AUTHENTICATED);
    expect(ops.filter((o) => !Array.isArray(o.op.security)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(doc.paths['/wp-json/rova-rental/v1/vehicles']?.post?.description).toContain(
      '**Needs** the `manage_options` capability; an API key needs the `write` scope.',
    );
    expect(doc.paths['/wp-json/rova/v1/auth/me']?.get?.description).toContain(
      '**Needs** any signed-in user; an API key needs the `read` scope.',
    );
    expect(doc.paths['/wp-json/rova-fx/v1/convert']?.post?.description).toContain('**Public**: no credentials needed.');
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Rova-API-Key' },
      bearer: { type: 'http', scheme: 'bearer' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'rova_session' },
      nonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce' },
    });
  });

  it('4xx answers are documented in the namespace’s shared error schema', () => {
    const problems: string[] = [];
    for (const { path: p, method, op } of ops) {
      const shape = p.startsWith('/wp-json/rova-rental/') ? 'RentalError' : 'WpError';
      const isPublic = op.security?.length === 0;
      const hasInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
      const want = [
        ...(hasInput ? ['400'] : []),
        ...(isPublic ? [] : ['401', '403']),
        ...(p.includes('{') ? ['404'] : []),
      ];
      for (const s of want) {
        const r = op.responses[s];
        const schema = r?.content?.['application/json']?.schema;
        if (!r) problems.push(`${method} ${p}: no ${s}`);
        else if (schema?.$ref !== `#/components/schemas/${shape}`)
          problems.push(`${method} ${p}: ${s} is not ${shape}: ${JSON.stringify(schema).slice(0, 80)}`);
        else if (!r.description || r.description.includes('shape'))
          problems.push(`${method} ${p}: ${s} description "${r.description}"`);
      }
    }
    expect(problems).toEqual([]);
    expect(doc.components.schemas.WpError).toMatchObject({ type: 'object', required: ['code', 'message', 'data'] });
    expect(doc.components.schemas.RentalError).toMatchObject({
      type: 'object',
      required: ['success', 'error_code', 'message'],
    });
  });

  it('the rental envelope and page are shared components; WordPress lists document their paging headers', () => {
    const ok = doc.paths['/wp-json/rova-rental/v1/vehicles']?.get?.responses['200']?.content?.['application/json']
      ?.schema as Json;
    expect(ok).toEqual({
      allOf: [
        { $ref: '#/components/schemas/RentalEnvelope' },
        {
          type: 'object',
          properties: {
            data: { allOf: [{ $ref: '#/components/schemas/RentalPage' }, expect.objectContaining({ type: 'object' })] },
          },
        },
      ],
    });
    expect(doc.components.schemas.RentalPage).toMatchObject({
      required: ['items', 'total', 'total_pages', 'page', 'per_page'],
    });
    expect(doc.paths['/wp-json/wc/v3/products']?.get?.responses['200']?.headers).toEqual({
      'X-WP-Total': { $ref: '#/components/headers/X-WP-Total' },
      'X-WP-TotalPages': { $ref: '#/components/headers/X-WP-TotalPages' },
      Link: { $ref: '#/components/headers/Link' },
    });
  });

  it('every request body has an example (generated from the schema when the route gives none)', () => {
    const missing = ops
      .filter((o) => o.op.requestBody)
      .flatMap((o) =>
        Object.entries(o.op.requestBody!.content)
          .filter(([, m]) => m.example === undefined && m.examples === undefined)
          .map(([type]) => `${o.method} ${o.path} (${type})`),
      );
    expect(missing, 'give the body schema `examples: [...]` where the generator finds no valid value').toEqual([]);
    expect(doc.paths['/wp-json/rova/v1/auth/login']?.post?.requestBody?.content['application/json']?.example).toEqual({
      login: 'ops',
      password: 'a long password',
    });
  });

  it('the example generator honours formats, patterns, bounds, enums, defaults and explicit examples', () => {
    const s = Type.Object({
      email: Type.String({ format: 'email' }),
      pickup_date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
      pickup_time: Type.String({ pattern: '^\\d{2}:\\d{2}$' }),
      kind: Type.Union([Type.Literal('season'), Type.Literal('weekend')]),
      n: Type.Integer({ minimum: 5, maximum: 9 }),
      ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 2 }),
      note: Type.Optional(Type.String({ default: 'hello' })),
      when: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    });
    expect(exampleFor(s)).toEqual({
      email: 'ada@example.com',
      pickup_date: '2027-07-02',
      pickup_time: '09:00',
      kind: 'season',
      n: 5,
      ids: [1, 1],
      note: 'hello',
      when: '2027-07-02T09:00:00Z',
    });
    expect(exampleFor(Type.Object({ a: Type.String() }, { examples: [{ a: 'given' }] }))).toEqual({ a: 'given' });
    // Nothing fits the pattern: no example rather than a wrong one.
    expect(exampleFor(Type.Object({ a: Type.String({ pattern: '^zz[0-9]{3}$' }) }))).toBeUndefined();
  });

  it('Redocly lint (redocly.yaml) finds 0 errors', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rova-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const r = spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'),
          'lint',
          file,
          '--config',
          path.join(ROOT, 'redocly.yaml'),
          '--format=json',
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          timeout: 120_000,
        },
      );
      const out = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
        totals: { errors: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
      const errors = out.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(out.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('pages: / and /docs carry Rova’s name', () => {
  it('GET / is a small HTML landing page with links', async () => {
    const r = await t.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body).toContain('<title>Rova</title>');
    for (const href of ['/docs', '/wp-json/']) expect(r.body).toContain(`href="${href}"`);
    // This store has no demo data: no demo links (test/platform/demo-pages.test.ts covers both cases).
    expect(r.body).not.toContain('href="/demo/shop"');
    // The admin app is linked only when it was built.
    expect(r.body.includes('href="/admin"')).toBe(existsSync(path.join(ROOT, 'dist/admin/index.html')));
  });

  it('/docs has Rova’s title, logo and favicon, not Swagger’s or Fastify’s', async () => {
    const html = await t.inject({ method: 'GET', url: '/docs' });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<title>Rova API</title>');
    expect(html.body).toContain('theme/favicon.svg');
    const init = await t.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(init.body)?.[1];
    expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('Rova API</text>');
    const icon = await t.inject({ method: 'GET', url: '/docs/static/theme/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.body).toContain('<svg');
  });
});
