import { ConfigError, type Config } from '../../config.js';

/**
 * STORE_URL: the storefront's public address, in front of product permalinks (`<STORE_URL>/product/<slug>/`).
 * Unset: the address this server was reached at (scheme and Host as seen through TRUST_PROXY).
 */
export function storeUrl(config: Config): string | null {
  const raw = config.env.STORE_URL?.trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`STORE_URL must be an http(s) URL such as https://shop.example.com (got "${raw}")`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password) {
    throw new ConfigError(`STORE_URL must be an http(s) URL without query, fragment or credentials (got "${raw}")`);
  }
  return u.toString().replace(/\/+$/, '');
}
