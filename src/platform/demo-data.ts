import type { Platform } from './context.js';
import { HttpErrors } from './http/errors.js';

/** Set by seedDemo; the fact that decides whether the demo pages exist on this installation. */
export const OPT_DEMO_SEEDED_AT = 'demo_seeded_at';

/**
 * Whether this store was seeded with demo data. Read from the database through the options cache (per node,
 * dropped on every node when any node writes), so a production store never serves demo pages, whatever the env says.
 */
export async function hasDemoData(platform: Platform): Promise<boolean> {
  return Boolean(await platform.options.get<string>(OPT_DEMO_SEEDED_AT));
}

/** preHandler for `/demo/*`: a store without demo data answers 404 as if the page did not exist. */
export function demoPagesOnly(platform: Platform): () => Promise<void> {
  return async () => {
    if (!(await hasDemoData(platform)))
      throw HttpErrors.notFound('No demo data on this installation: the demo pages are off.');
  };
}
