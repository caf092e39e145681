import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

describe('OpenAPI is complete', () => {
  it('every route of the REST index is documented with a summary and a 2xx response schema', async () => {
    const idx = (await t.inject({ method: 'GET', url: '/wp-json/' })).json() as {
      routes: Record<string, { methods: string[] }>;
      namespaces: string[];
    };
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>>;
    };
    expect(idx.namespaces).toEqual(['rova-fx/v1', 'rova-rental/v1', 'rova-rental/v2', 'rova/v1', 'wc/v3']);
    const problems: string[] = [];
    for (const [path, r] of Object.entries(idx.routes)) {
      for (const m of r.methods) {
        const op = spec.paths[`/wp-json${path}`]?.[m.toLowerCase()];
        if (!op) problems.push(`${m} ${path}: missing`);
        else if (!op.summary) problems.push(`${m} ${path}: no summary`);
        else if (!Object.keys(op.responses ?? {}).some((c) => c.startsWith('2')))
          problems.push(`${m} ${path}: no 2xx schema`);
      }
    }
    expect(Object.keys(idx.routes).length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});
