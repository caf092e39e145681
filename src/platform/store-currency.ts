import { sql } from 'drizzle-orm';
import { ConfigError, isCurrencyCode, type Config } from '../config.js';
import { rows, type Db } from './db/types.js';
import type { InvalidationBus } from './kv/bus.js';

/** The option that holds the store's currency (the currency service calls it its base currency). */
export const OPT_STORE_CURRENCY = 'store_currency';
/** The currency a new store gets when STORE_CURRENCY is not set on its first start. */
export const DEFAULT_STORE_CURRENCY = 'USD';
const TOPIC = 'store_currency';

/** The store's currency as the database holds it (undefined before the first start). */
export async function readStoreCurrency(db: Db): Promise<string | undefined> {
  const r = await rows<{ value: unknown }>(db, sql`SELECT value FROM rova_options WHERE name = ${OPT_STORE_CURRENCY}`);
  const v = r[0]?.value;
  return typeof v === 'string' ? v : undefined;
}

/**
 * The store's currency is a fact of the database, not of a node's environment: every amount already stored
 * (ledger, payouts, bookings, imported records) is in it. The first start writes it (from STORE_CURRENCY, else
 * USD; `rova setup` and every other command start the same way); the WordPress import sets it to the shop's.
 * Afterwards a STORE_CURRENCY that disagrees stops the start (exit 2) instead of recording amounts under another
 * currency. Two nodes starting a new store at once agree: the first write wins and the other node checks against it.
 */
export async function establishStoreCurrency(db: Db, config: Pick<Config, 'storeCurrencyEnv'>): Promise<string> {
  const wanted = config.storeCurrencyEnv;
  let stored = await readStoreCurrency(db);
  if (stored === undefined) {
    await db.execute(sql`INSERT INTO rova_options (name, value, updated_at) VALUES (${OPT_STORE_CURRENCY}, ${JSON.stringify(wanted ?? DEFAULT_STORE_CURRENCY)}::jsonb, now())
      ON CONFLICT (name) DO NOTHING`);
    stored = await readStoreCurrency(db);
  }
  if (stored === undefined || !isCurrencyCode(stored)) {
    throw new ConfigError(
      `the store currency in the database (option ${OPT_STORE_CURRENCY}) is ${JSON.stringify(stored ?? null)}, not an ISO 4217 code; set it to the currency the store's amounts are in (e.g. rova_options value "EUR")`,
    );
  }
  if (wanted !== null && wanted !== stored) {
    throw new ConfigError(
      `STORE_CURRENCY is ${wanted}, but this store's currency is ${stored} (stored in the database by its first start or the WordPress import; every amount is in it). ` +
        `Remove STORE_CURRENCY from the environment (or set it to ${stored}); a store's currency cannot be changed by a setting.`,
    );
  }
  return stored;
}

/**
 * The store's currency in memory: hot paths read `code` (no database round trip). The WordPress import changes
 * the stored value; `changed()` after it commits makes every node read it again (invalidation bus).
 */
export class StoreCurrency {
  private current: string;
  private gen = 0;

  constructor(
    private readonly db: Db,
    private readonly bus: InvalidationBus,
    initial: string,
    onError: (err: unknown) => void,
  ) {
    this.current = initial;
    bus.subscribe(TOPIC, () => {
      this.refresh().catch(onError);
    });
  }

  /** ISO 4217 code of the store's currency. */
  get code(): string {
    return this.current;
  }

  /** Reads the stored value again; the newest read wins. */
  async refresh(): Promise<void> {
    const gen = ++this.gen;
    const v = await readStoreCurrency(this.db);
    if (gen === this.gen && v !== undefined && isCurrencyCode(v)) this.current = v;
  }

  /** After a committed change of the stored value: every node (this one before returning) reads it again. */
  async changed(): Promise<void> {
    await this.bus.publish(TOPIC, 'changed');
    await this.refresh();
  }
}
