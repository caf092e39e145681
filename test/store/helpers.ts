import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';

export const WC = '/wp-json/wc/v3';

/** A client bound to one API key. */
export function client(t: TestApp, key: string) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    t.inject({
      method,
      url: WC + url,
      headers: { 'x-rova-api-key': key },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown) => call('POST', url, body ?? {}),
    put: (url: string, body: unknown) => call('PUT', url, body),
    patch: (url: string, body: unknown) => call('PATCH', url, body),
    del: (url: string) => call('DELETE', url),
  };
}
export type Client = ReturnType<typeof client>;
