import { readFileSync } from 'node:fs';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The rental plugin's API level Rova answers as (spec §9: "the health result reports the plugin version"; the
 * export endpoints arrived in 4.52.0). Integrations feature-detect on it, so it moves only when Rova serves the
 * endpoints of a newer plugin version, never with Rova's own releases (those are VERSION).
 */
export const RENTAL_API_LEVEL = '4.52.0';
