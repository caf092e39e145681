import type { FastifyInstance, RouteOptions } from 'fastify';
import type { NamespaceRegistry } from './namespaces.js';
import { VERSION } from '../../version.js';

interface RouteEntry {
  namespace: string;
  methods: Set<string>;
}

/** Collects routes under the REST root for the discovery index (WordPress `GET /wp-json/` shape). */
export class RouteCatalogue {
  readonly routes = new Map<string, RouteEntry>();
  constructor(private readonly restRoot: string) {}

  add(r: RouteOptions): void {
    if (!r.url.startsWith(this.restRoot + '/') || (r.schema as { hide?: boolean } | undefined)?.hide) return;
    const rel = r.url.slice(this.restRoot.length);
    if (rel === '/' || rel === '') return;
    const parts = rel.split('/').filter(Boolean);
    const namespace = parts.length >= 2 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    // WordPress spells path parameters as regex groups; we keep OpenAPI-style `{id}` for readability.
    const path = rel.replace(/:([A-Za-z_]+)/g, '{$1}');
    const e = this.routes.get(path) ?? { namespace, methods: new Set<string>() };
    for (const m of methods) if (m !== 'HEAD') e.methods.add(m);
    this.routes.set(path, e);
  }
}

export function registerRestIndex(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  namespaces: NamespaceRegistry,
): void {
  const restRoot = app.platform.config.restRoot;
  const describe = (filter?: string) => {
    const routes: Record<string, { namespace: string; methods: string[] }> = {};
    for (const [path, e] of [...catalogue.routes.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      if (filter && e.namespace !== filter) continue;
      routes[path] = { namespace: e.namespace, methods: [...e.methods].sort() };
    }
    return routes;
  };
  const nsNames = () => [...new Set([...catalogue.routes.values()].map((e) => e.namespace))].sort();
  app.get(
    `${restRoot}/`,
    {
      config: { auth: 'public' },
      schema: { tags: ['platform'], summary: 'REST discovery index: namespaces and their routes' },
    },
    async () => ({
      name: 'Rova',
      description: 'Headless back end for vehicle-rental storefronts',
      version: VERSION,
      url: restRoot,
      namespaces: nsNames(),
      authentication: { api_key: { header: 'X-Rova-API-Key' }, cookie: { nonce_header: 'X-WP-Nonce' } },
      routes: describe(),
    }),
  );
  for (const ns of namespaces.all()) {
    app.get(
      `${restRoot}/${ns.name}`,
      { config: { auth: 'public' }, schema: { tags: ['platform'], summary: `Routes of the ${ns.name} namespace` } },
      async () => ({ namespace: ns.name, routes: describe(ns.name) }),
    );
  }
}
