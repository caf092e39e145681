import type { Config } from '../../config.js';
import { parseMailEnv, type MailEnv } from './env.js';
import { perPlatform } from '../per-platform.js';
import type { Platform } from '../context.js';

export interface MailSettings extends MailEnv {
  timezone: string;
  restRoot: string;
}

export const mailSettings: (p: Platform) => MailSettings = perPlatform((p) => settingsOf(p.config));

function settingsOf(c: Config): MailSettings {
  return { ...parseMailEnv(c.env), timezone: c.storeTimezone, restRoot: c.restRoot };
}
