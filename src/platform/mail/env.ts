import { ConfigError } from '../../config-error.js';

/** The deployment's mail settings from the environment. */
export interface MailEnv {
  /** smtp:// or smtps:// URL; null = mails go to the outbox table. */
  smtpUrl: string | null;
  from: string;
  storeName: string;
  /** Base URL of the public site, for links in mails (verification, password reset). */
  publicUrl: string;
  /** Language of the mails to customers (STORE_LANGUAGE). */
  language: MailLanguage;
  /** The shop's page with the booking widget's account mode: booking mails link to the booking there. */
  accountUrl: string;
}

export const MAIL_LANGUAGES = ['en', 'de', 'tr'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/**
 * Reads and validates SMTP_URL, MAIL_FROM, STORE_NAME, PUBLIC_URL, STORE_LANGUAGE and ACCOUNT_URL (called from
 * loadConfig: bad value → exit 2).
 */
export function parseMailEnv(env: Readonly<Record<string, string | undefined>>): MailEnv {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl !== null) {
    let u: URL | null = null;
    try {
      u = new URL(smtpUrl);
    } catch {
      u = null;
    }
    if (!u || !['smtp:', 'smtps:'].includes(u.protocol) || !u.hostname) {
      throw new ConfigError(
        'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587',
      );
    }
  }
  const storeName = env.STORE_NAME?.trim() || 'Rova';
  if (storeName.length > 100) throw new ConfigError('STORE_NAME must be at most 100 characters');
  const from = env.MAIL_FROM?.trim() || `${storeName} <no-reply@localhost>`;
  if (!/<?[^\s<>@]+@[^\s<>@]+>?$/.test(from))
    throw new ConfigError(`MAIL_FROM must be an address such as "Shop <shop@example.com>" (got "${from}")`);
  const publicUrl = (env.PUBLIC_URL?.trim() || 'http://127.0.0.1:8080').replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(publicUrl))
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);
  const language = (env.STORE_LANGUAGE?.trim().toLowerCase() || 'en') as MailLanguage;
  if (!MAIL_LANGUAGES.includes(language))
    throw new ConfigError(`STORE_LANGUAGE must be one of ${MAIL_LANGUAGES.join(', ')} (got "${env.STORE_LANGUAGE}")`);
  const accountUrl = env.ACCOUNT_URL?.trim() || `${publicUrl}/account`;
  if (!/^https?:\/\/[^\s/]+[^\s]*$/.test(accountUrl) || accountUrl.includes('#'))
    throw new ConfigError(`ACCOUNT_URL must be an http(s) URL without a fragment (got "${accountUrl}")`);
  return { smtpUrl, from, storeName, publicUrl, language, accountUrl };
}
