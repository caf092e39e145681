import type { Config } from '../../config.js';

/** Settings of `rova import wordpress` from the environment. */
export interface ImportSettings {
  /**
   * WP_AUTH_KEY and WP_SECURE_AUTH_SALT (the WordPress site's wp-config.php), both or null: the key that opens
   * the vendors' IBANs the site stored encrypted (map-vendors.ts).
   */
  wpKeys: { authKey: string; secureAuthSalt: string } | null;
}

export function readImportSettings(config: Config): ImportSettings {
  const env = config.env;
  return {
    wpKeys:
      env.WP_AUTH_KEY && env.WP_SECURE_AUTH_SALT
        ? { authKey: env.WP_AUTH_KEY, secureAuthSalt: env.WP_SECURE_AUTH_SALT }
        : null,
  };
}
