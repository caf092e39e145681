import { randomBytes } from 'node:crypto';
import type { Platform } from '../context.js';

export const DEMO_ADMIN_LOGIN = 'admin';

export interface DemoAdmin {
  login: string;
  /** The password to show once: generated, or null when it came from ROVA_ADMIN_PASSWORD (never echoed). */
  generatedPassword: string | null;
}

/**
 * The administrator an operator logs in to the admin app with after the first start with demo data: user `admin`
 * (the bootstrap-key user when that exists) with ROVA_ADMIN_PASSWORD, else a random password shown once. Never a
 * fixed, well-known password: the demo may be reachable by others.
 */
export async function ensureDemoAdmin(
  platform: Platform,
  password: string | null = platform.config.adminPassword,
): Promise<DemoAdmin> {
  const { auth } = platform;
  const generated = password === null ? randomBytes(12).toString('base64url') : null;
  const secret = password ?? generated!;
  let user = await auth.findUser(DEMO_ADMIN_LOGIN);
  if (!user)
    user = await auth.createUser({
      login: DEMO_ADMIN_LOGIN,
      email: 'admin@localhost.localdomain',
      role: 'administrator',
      password: secret,
      displayName: 'Administrator',
    });
  else {
    if (user.role !== 'administrator') await auth.setRole(user.id, 'administrator');
    await auth.setPassword(user.id, secret);
  }
  return { login: DEMO_ADMIN_LOGIN, generatedPassword: generated };
}
