import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal shared cache in front of the app, like a CDN: stores GET 200 responses that say `public` with
 * `s-maxage` (or `max-age`), have no Set-Cookie and no `Vary: *`; honours Vary by keying on those request
 * headers. Everything else (POST /convert) passes through. Adds `X-Cache: HIT|MISS` and `Age`.
 */
export interface CachingProxy {
  origin: string;
  hits: string[];
  misses: string[];
  close(): Promise<void>;
}

interface Entry {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
  storedAt: number;
  ttl: number;
  vary: string[];
  varyValues: string;
}

function freshness(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const d = cacheControl
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  if (!d.includes('public') || d.includes('private') || d.includes('no-store') || d.includes('no-cache')) return 0;
  const get = (name: string): number | null => {
    const hit = d.find((x) => x.startsWith(name + '='));
    return hit ? Number(hit.slice(name.length + 1)) : null;
  };
  return get('s-maxage') ?? get('max-age') ?? 0;
}

export async function startCachingProxy(upstream: string): Promise<CachingProxy> {
  const up = new URL(upstream);
  const cache = new Map<string, Entry[]>();
  const hits: string[] = [];
  const misses: string[] = [];
  const varyKey = (req: http.IncomingMessage, vary: string[]): string =>
    vary.map((h) => `${h}=${String(req.headers[h] ?? '')}`).join('&');

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET') {
      const entry = (cache.get(url) ?? []).find(
        (e) => e.varyValues === varyKey(req, e.vary) && Date.now() - e.storedAt < e.ttl * 1000,
      );
      if (entry) {
        hits.push(url);
        res.writeHead(entry.status, {
          ...entry.headers,
          'x-cache': 'HIT',
          age: String(Math.floor((Date.now() - entry.storedAt) / 1000)),
        });
        res.end(entry.body);
        return;
      }
    }
    const headers = { ...req.headers, host: up.host };
    const fwd = http.request({ host: up.hostname, port: up.port, method: req.method, path: url, headers }, (upRes) => {
      const chunks: Buffer[] = [];
      upRes.on('data', (c: Buffer) => chunks.push(c));
      upRes.on('end', () => {
        const body = Buffer.concat(chunks);
        const h: http.OutgoingHttpHeaders = { ...upRes.headers };
        delete h['transfer-encoding'];
        delete h.connection;
        h['content-length'] = String(body.length);
        const ttl = freshness(upRes.headers['cache-control']);
        const vary = String(upRes.headers.vary ?? '')
          .toLowerCase()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const storable =
          req.method === 'GET' &&
          upRes.statusCode === 200 &&
          ttl > 0 &&
          !upRes.headers['set-cookie'] &&
          !vary.includes('*');
        if (storable) {
          const list = cache.get(url) ?? [];
          list.push({ status: 200, headers: h, body, storedAt: Date.now(), ttl, vary, varyValues: varyKey(req, vary) });
          cache.set(url, list);
        }
        if (req.method === 'GET') misses.push(url);
        res.writeHead(upRes.statusCode ?? 502, { ...h, 'x-cache': 'MISS' });
        res.end(body);
      });
    });
    fwd.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    misses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
