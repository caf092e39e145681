import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { rentalSettings } from '../settings.js';
import { decryptIban as decrypt, encryptIban as encrypt } from '../vendors/iban.js';

const OPTION = 'payout_webhook_secret';

/**
 * Secrets that may sign processor callbacks: ROVA_PAYOUT_WEBHOOK_SECRET (space-separated, for rotation) plus the
 * one an administrator generated (stored encrypted with the ROVA_SECRET-derived key). None → every callback is refused.
 */
export async function webhookSecrets(p: Platform): Promise<string[]> {
  const env = [...rentalSettings(p).payoutWebhookSecrets];
  const stored = await p.options.get<{ encrypted: string }>(OPTION);
  if (stored?.encrypted) {
    try {
      env.push(decrypt(p.config.secret, stored.encrypted));
    } catch {
      // a secret encrypted under an older ROVA_SECRET cannot sign anything any more
    }
  }
  return env;
}

/**
 * Generates a new `whsec_` secret (shown once) and stores it in the route's transaction `tx` (its Idempotency-Key
 * commits in it); the env secrets keep working beside it. After the commit: `webhookSecretStored`.
 */
export async function rotateWebhookSecret(p: Platform, tx: Db): Promise<string> {
  const secret = 'whsec_' + randomBytes(32).toString('base64');
  await p.options.set(
    OPTION,
    { encrypted: encrypt(p.config.secret, secret), created_at: new Date().toISOString() },
    tx,
  );
  return secret;
}

/** Every node verifies callbacks with the secret just committed (a read during the transaction cached the old one). */
export function webhookSecretStored(p: Platform): Promise<void> {
  return p.options.forget(OPTION);
}

/** Standard Webhooks verification over the raw body (signature list, ±5 min timestamp, constant-time compare). */
export function verifyWebhook(
  secrets: string[],
  raw: string,
  headers: Record<string, string | string[] | undefined>,
): boolean {
  const h: Record<string, string> = {};
  for (const k of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const v = headers[k];
    if (typeof v !== 'string' || v === '') return false;
    h[k] = v;
  }
  for (const s of secrets) {
    try {
      new Webhook(s).verify(raw, h);
      return true;
    } catch {
      // try the next secret (rotation)
    }
  }
  return false;
}
