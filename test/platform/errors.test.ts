import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modules } from '../../src/modules/index.js';
import { HttpError } from '../../src/platform/http/errors.js';
import { rentalOk } from '../../src/platform/http/namespaces.js';
import type { RovaModule } from '../../src/modules/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// A probe module with one namespace of each error shape, to pin the mapping itself.
const probeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const body = Type.Object({ n: Type.Integer({ minimum: 1 }), s: Type.Optional(Type.String({ maxLength: 5 })) });
  for (const ns of ['probe-wp/v1', 'probe-rental/v1']) {
    app.post(`/${ns}/echo`, { config: { auth: 'public' }, schema: { body } }, async (req) =>
      ns.includes('rental') ? rentalOk(req.body, 'ok') : req.body,
    );
    app.get(`/${ns}/boom`, { config: { auth: 'public' } }, async () => {
      throw new Error('secret internals');
    });
    app.get(`/${ns}/conflict`, { config: { auth: 'public' } }, async () => {
      throw new HttpError(409, undefined, 'busy', { field: 'x' });
    });
    app.get(`/${ns}/admin`, { config: { auth: { cap: 'manage_options' } } }, async () => ({}));
  }
};
const probe: RovaModule = {
  name: 'probe',
  namespaces: [
    { name: 'probe-wp/v1', shape: 'wp' },
    { name: 'probe-rental/v1', shape: 'rental' },
  ],
  routes: probeRoutes,
};

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ modules: [...modules, probe] });
});
afterAll(async () => t?.close());

const post = (ns: string, payload: string, type = 'application/json') =>
  t.inject({ method: 'POST', url: `/wp-json/${ns}/echo`, headers: { 'content-type': type }, payload });

describe('error shapes per namespace', () => {
  it('WordPress shape: malformed JSON, missing, wrong type, too large, wrong content type', async () => {
    let r = await post('probe-wp/v1', '{"n":');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
    r = await post('probe-wp/v1', '{}');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): n',
      data: { status: 400, params: ['n'] },
    });
    r = await post('probe-wp/v1', '{"n":"abc"}');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): n',
      data: { status: 400, params: { n: expect.any(String) } },
    });
    r = await post('probe-wp/v1', JSON.stringify({ n: 1, s: 'x'.repeat(2 * 1024 * 1024) }));
    expect(r.statusCode).toBe(413);
    expect(r.json()).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
    r = await post('probe-wp/v1', 'n=1', 'application/x-www-form-urlencoded');
    expect(r.statusCode).toBe(415);
    r = await post('probe-wp/v1', '{"n":2}');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ n: 2 });
  });

  it('rental shape: same failures as {success:false, error_code, message}', async () => {
    let r = await post('probe-rental/v1', '{"n":');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    r = await post('probe-rental/v1', '{}');
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: 'Invalid parameter(s): n',
      details: { params: { n: expect.any(String) } },
    });
    r = await t.inject({ method: 'GET', url: '/wp-json/probe-rental/v1/conflict' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: 'busy',
      details: { field: 'x' },
    });
    r = await t.inject({ method: 'GET', url: '/wp-json/probe-rental/v1/admin' });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    r = await t.inject({ method: 'GET', url: '/wp-json/probe-rental/v1/nothing-here' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });
    r = await post('probe-rental/v1', '{"n":3}');
    expect(r.json()).toEqual({ success: true, data: { n: 3 }, message: 'ok' });
  });

  it('unexpected errors → 500 without internals, with the request id', async () => {
    for (const ns of ['probe-wp/v1', 'probe-rental/v1']) {
      const r = await t.inject({
        method: 'GET',
        url: `/wp-json/${ns}/boom`,
        headers: { 'x-request-id': 'req-boom-12345' },
      });
      expect(r.statusCode).toBe(500);
      expect(r.body).not.toContain('secret internals');
      expect(r.body).toContain('req-boom-12345');
    }
  });
});

describe('docs', () => {
  it('serves /openapi.json and /docs', async () => {
    const o = await t.inject({ method: 'GET', url: '/openapi.json' });
    expect(o.statusCode).toBe(200);
    expect(o.json().openapi).toBe('3.1.0');
    expect(Object.keys(o.json().paths)).toContain('/wp-json/rova/v1/api-keys');
    const d = await t.inject({ method: 'GET', url: '/docs/' });
    expect(d.statusCode).toBe(200);
    expect(d.headers['content-type']).toContain('text/html');
  });
});

describe('empty JSON bodies', () => {
  it('an empty body with Content-Type: application/json is "no body", not malformed JSON', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/probe-wp/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).not.toBe('rest_invalid_json');
    const proto = await t.inject({
      method: 'POST',
      url: '/wp-json/probe-wp/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"n":1,"__proto__":{"x":1}}',
    });
    expect(proto.statusCode).toBe(400);
  });
});
