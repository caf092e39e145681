import type { FastifyPluginAsync } from 'fastify';
import type { CliCommand } from '../cli/commands.js';
import type { Platform } from '../platform/context.js';
import type { NamespaceInfo } from '../platform/http/namespaces.js';

/** A feature module: its namespaces, its routes, what it starts, and its demo data. */
export interface RovaModule {
  name: string;
  namespaces?: NamespaceInfo[];
  /** Registered with prefix REST_ROOT (paths start with the namespace, e.g. `/wc/v3/products`). */
  routes?: FastifyPluginAsync;
  /** Registered at the server root (assets, demo pages, docs). */
  rootRoutes?: FastifyPluginAsync;
  /** Runs once the platform is up, before the server listens: caches, subscriptions, jobs. */
  start?(platform: Platform): Promise<void> | void;
  /** Adds this module's demo data. Must be idempotent (`rova seed --demo` may run again). */
  seedDemo?(platform: Platform): Promise<void>;
  /** `rova seed --bookings N`: adds N synthetic bookings (load and report tests). */
  seedBookings?(platform: Platform, count: number): Promise<void>;
  /** Extra CLI commands, e.g. `rates` → `rova rates sync`. */
  commands?: Record<string, CliCommand>;
}
