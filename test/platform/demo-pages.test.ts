import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/app.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const DEMO_PAGES = ['/demo/shop', '/demo/shop/1', '/demo/rent', '/demo/rent/account'];

let t: TestApp;

beforeAll(async () => {
  t = await makeApp();
}, 120_000);
afterAll(async () => t?.close());

describe('a store without demo data (production)', () => {
  it.each(DEMO_PAGES)('%s answers 404 in the error shape', async (url) => {
    const r = await t.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ message: 'No demo data on this installation: the demo pages are off.' });
  });

  it('the landing page links /docs and the REST index but no demo page', async () => {
    const r = await t.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('href="/docs"');
    expect(r.body).toContain('href="/wp-json/"');
    expect(r.body).not.toContain('/demo/');
    expect(r.body).toContain('<link rel="icon" href="/favicon.ico" type="image/svg+xml">');
  });

  it('/favicon.ico answers 200 with Rova’s mark, cached a day', async () => {
    const r = await t.inject({ method: 'GET', url: '/favicon.ico' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/svg+xml');
    expect(r.headers['cache-control']).toBe('public, max-age=86400');
    expect(r.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});

describe('the same store once seeded with demo data', () => {
  beforeAll(async () => {
    await seedDemo(t.platform);
  }, 120_000);

  it.each(DEMO_PAGES)('%s answers 200', async (url) => {
    const r = await t.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the landing page links the demo pages', async () => {
    const r = await t.inject({ method: 'GET', url: '/' });
    for (const href of ['/demo/shop', '/demo/rent', '/demo/rent/account']) expect(r.body).toContain(`href="${href}"`);
  });
});
