import { envInt, type Config } from '../../config.js';

/**
 * The default quota plan's writes per minute and key: RENTAL_WRITE_RATE_LIMIT (default 60), the rental module's
 * per-key write limit, which the platform's quotas take as the plan of a key without its own.
 */
export function defaultWritesPerMinute(config: Config): number {
  return envInt(config, 'RENTAL_WRITE_RATE_LIMIT', 60, 1);
}
