import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helpers/app.js';

export const FX = '/wp-json/rova-fx/v1';
export const FIXTURES = '/work/shared/fixtures';

export interface Admin {
  key: string;
  userId: number;
  get(path: string): ReturnType<TestApp['inject']>;
  post(path: string, payload?: unknown): ReturnType<TestApp['inject']>;
}

export async function adminOf(t: TestApp, role: 'administrator' | 'shop_manager' = 'shop_manager'): Promise<Admin> {
  const u = await t.userWithKey(role);
  const headers = { 'x-rova-api-key': u.key };
  return {
    key: u.key,
    userId: u.userId,
    get: (path) => t.inject({ method: 'GET', url: FX + path, headers }),
    post: (path, payload) =>
      payload === undefined
        ? t.inject({ method: 'POST', url: FX + path, headers })
        : t.inject({ method: 'POST', url: FX + path, headers, payload: payload as Record<string, unknown> }),
  };
}

/** A currency row as a client sends it. */
export function row(code: string, value: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { code, enabled: true, rate: { type: 'manual', value }, ...extra };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local HTTP server standing in for a rate source. */
export async function serve(
  handler: Handler,
): Promise<{ url: string; server: Server; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Creates a product through wc/v3 and returns its id. */
export async function product(t: TestApp, key: string, body: Record<string, unknown>): Promise<number> {
  const r = await t.inject({
    method: 'POST',
    url: '/wp-json/wc/v3/products',
    headers: { 'x-rova-api-key': key },
    payload: body,
  });
  if (r.statusCode !== 201 && r.statusCode !== 200) throw new Error(`product create failed: ${r.statusCode} ${r.body}`);
  return r.json().id as number;
}

export async function variation(
  t: TestApp,
  key: string,
  parent: number,
  body: Record<string, unknown>,
): Promise<number> {
  const r = await t.inject({
    method: 'POST',
    url: `/wp-json/wc/v3/products/${parent}/variations`,
    headers: { 'x-rova-api-key': key },
    payload: body,
  });
  if (r.statusCode !== 201 && r.statusCode !== 200)
    throw new Error(`variation create failed: ${r.statusCode} ${r.body}`);
  return r.json().id as number;
}
