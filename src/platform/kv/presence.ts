import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/types.js';
import type { BusPresence } from './bus.js';

/** Rows of nodes not seen for this long are removed by the next beat of any node. */
const FORGET_AFTER = '1 hour';

/** Each node's presence in the database (migration 0690): what tells a node killed from a node cut off from Redis. */
export function dbPresence(db: Db): BusPresence {
  return {
    async beat(node) {
      await db.execute(sql`WITH gone AS (DELETE FROM rova_bus_presence WHERE seen_at < now() - ${FORGET_AFTER}::interval)
        INSERT INTO rova_bus_presence (node, seen_at) VALUES (${node}, now())
        ON CONFLICT (node) DO UPDATE SET seen_at = now()`);
    },
    async leave(node) {
      await db.execute(sql`DELETE FROM rova_bus_presence WHERE node = ${node}`);
    },
    async alive(nodes, ms) {
      if (nodes.length === 0) return new Set();
      const seen = await rows<{ node: string }>(
        db,
        sql`SELECT node FROM rova_bus_presence
          WHERE node = ANY(${`{${nodes.map((n) => `"${n}"`).join(',')}}`}::text[]) AND seen_at > now() - ${ms}::integer * interval '1 millisecond'`,
      );
      return new Set(seen.map((r) => r.node));
    },
  };
}
