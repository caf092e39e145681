import type { Db } from '../../platform/db/types.js';
import { emitEvent } from '../../platform/events/emit.js';
import { registerEventTypes } from '../../platform/events/registry.js';

registerEventTypes({ 'currency.rates_synced': 'Exchange rates were fetched and stored' });

export async function emitRatesSynced(
  tx: Db,
  data: { source: string; base: string; updated: string[]; rejected: string[] },
): Promise<void> {
  await emitEvent(tx, 'currency.rates_synced', data);
}
