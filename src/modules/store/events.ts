import type { Db } from '../../platform/db/types.js';
import { emitEvent } from '../../platform/events/emit.js';
import { registerEventTypes } from '../../platform/events/registry.js';

registerEventTypes({ 'product.updated': 'A product or a variation of the catalogue was changed' });

export async function emitProductUpdated(tx: Db, id: number, parentId: number | null): Promise<void> {
  await emitEvent(tx, 'product.updated', { id, parent_id: parentId });
}
