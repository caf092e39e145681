import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { rows, toDate, toDateOrNull, type Db } from '../../db/types.js';
import type { InvalidationBus } from '../../kv/bus.js';
import { SecretBox } from '../secret-box.js';

export const JWT_ALG = 'EdDSA';
const TOPIC = 'auth:signing-keys';
/** An unknown `kid` reloads the key table at most this often (another node may have rotated). */
const RELOAD_MIN_MS = 1_000;

type KeyLike = Awaited<ReturnType<typeof importJWK>>;

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: KeyLike;
  privateKey: KeyLike | null;
  createdAt: Date;
  verifyUntil: Date | null;
}

/**
 * Ed25519 signing keys in the database, private halves sealed with ROVA_SECRET. The newest key signs; a
 * retired key keeps verifying until `verify_until` (the expiry of the last token it signed, plus tolerance).
 */
export class SigningKeys {
  private keys: LoadedKey[] | null = null;
  private loading: Promise<LoadedKey[]> | null = null;
  private lastLoad = 0;
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly bus: InvalidationBus,
    private readonly now: () => number,
  ) {
    this.box = new SecretBox(secret, 'jwt-signing-key');
    bus.subscribe(TOPIC, () => {
      this.keys = null;
    });
  }

  private async load(force = false): Promise<LoadedKey[]> {
    if (this.keys && !force) return this.keys;
    this.loading ??= (async () => {
      const r = await rows<{
        kid: string;
        public_jwk: JWK;
        private_enc: string;
        created_at: string;
        verify_until: string | null;
      }>(
        this.db,
        sql`SELECT kid, public_jwk, private_enc, created_at, verify_until FROM rova_signing_keys ORDER BY created_at DESC, kid`,
      );
      const out: LoadedKey[] = [];
      for (const k of r) {
        out.push({
          kid: k.kid,
          publicJwk: k.public_jwk,
          publicKey: await importJWK(k.public_jwk, JWT_ALG),
          privateKey:
            k.verify_until === null
              ? await importJWK(JSON.parse(this.box.reveal(k.private_enc)) as JWK, JWT_ALG)
              : null,
          createdAt: toDate(k.created_at),
          verifyUntil: toDateOrNull(k.verify_until),
        });
      }
      this.lastLoad = Date.now();
      this.keys = out;
      return out;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** The key that signs new tokens; created on first use. */
  async current(): Promise<{ kid: string; key: KeyLike }> {
    let keys = await this.load();
    let k = keys.find((x) => x.privateKey !== null);
    if (!k) {
      await this.create(this.db);
      keys = await this.load(true);
      k = keys.find((x) => x.privateKey !== null);
    }
    if (!k?.privateKey) throw new Error('no signing key available');
    return { kid: k.kid, key: k.privateKey };
  }

  /** The public key for a `kid` that may still verify; null for unknown or expired keys. */
  async verifying(kid: string): Promise<KeyLike | null> {
    let k = (await this.load()).find((x) => x.kid === kid);
    if (!k && Date.now() - this.lastLoad >= RELOAD_MIN_MS) k = (await this.load(true)).find((x) => x.kid === kid);
    if (!k) return null;
    if (k.verifyUntil && k.verifyUntil.getTime() <= this.now()) return null;
    return k.publicKey;
  }

  /** JWKS: every key that may still verify a token. */
  async jwks(): Promise<{ keys: (JWK & { kid: string; alg: string; use: string; kty: string })[] }> {
    const now = this.now();
    return {
      keys: (await this.load())
        .filter((k) => !k.verifyUntil || k.verifyUntil.getTime() > now)
        .map((k) => ({ ...k.publicJwk, kty: k.publicJwk.kty ?? 'OKP', kid: k.kid, alg: JWT_ALG, use: 'sig' })),
    };
  }

  /**
   * `rova keys rotate`: a new key signs from now on; the previous ones verify for `graceSeconds` more (the
   * access-token lifetime plus clock tolerance), then stop.
   */
  async rotate(graceSeconds: number): Promise<{ kid: string; retired: string[] }> {
    const verifyUntil = new Date(this.now() + graceSeconds * 1000).toISOString();
    const { kid, retired } = await this.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const old = await rows<{ kid: string }>(
        t,
        sql`UPDATE rova_signing_keys SET retired_at = now(), verify_until = ${verifyUntil} WHERE verify_until IS NULL RETURNING kid`,
      );
      return { kid: await this.create(t), retired: old.map((o) => o.kid) };
    });
    this.keys = null;
    await this.bus.publish(TOPIC);
    return { kid, retired };
  }

  private async create(db: Db): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(JWT_ALG, { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    const pub = await exportJWK(publicKey);
    const priv = this.box.seal(JSON.stringify(await exportJWK(privateKey)));
    await db.execute(
      sql`INSERT INTO rova_signing_keys (kid, alg, public_jwk, private_enc) VALUES (${kid}, ${JWT_ALG}, ${JSON.stringify(pub)}::jsonb, ${priv})`,
    );
    return kid;
  }
}
