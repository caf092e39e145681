import { ConfigError, envInt, type Config } from '../config.js';

/** Deployment settings of the security standards (JWT sessions, strict methods), read from the environment. */
export interface SecuritySettings {
  /** Lifetime of a JWT access token, seconds (JWT_ACCESS_TTL_SECONDS, default 900 = 15 min). */
  accessTtlSeconds: number;
  /** `aud` claim of access tokens (JWT_AUDIENCE, default `rova`). */
  audience: string;
  /** Strict method mode for every namespace (ROVA_STRICT_METHODS); rova-rental/v2 always has it. */
  strictMethods: boolean;
}

export function securitySettings(config: Pick<Config, 'env'>): SecuritySettings {
  const c = config as Config;
  const ttl = envInt(c, 'JWT_ACCESS_TTL_SECONDS', 900, 60);
  if (ttl > 86_400) throw new ConfigError(`JWT_ACCESS_TTL_SECONDS must be at most 86400 (got "${ttl}")`);
  const audience = config.env.JWT_AUDIENCE?.trim() || 'rova';
  if (!/^[\x21-\x7e]{1,200}$/.test(audience))
    throw new ConfigError('JWT_AUDIENCE must be 1-200 printable characters without spaces');
  const strictRaw = config.env.ROVA_STRICT_METHODS?.trim().toLowerCase() ?? '';
  let strictMethods = false;
  if (['1', 'true', 'yes', 'on'].includes(strictRaw)) strictMethods = true;
  else if (!['', '0', 'false', 'no', 'off'].includes(strictRaw))
    throw new ConfigError(`ROVA_STRICT_METHODS must be true or false (got "${config.env.ROVA_STRICT_METHODS}")`);
  return { accessTtlSeconds: ttl, audience, strictMethods };
}
