import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../db/types.js';

export interface PlanRow {
  name: string;
  requestsPerMinute: number;
  requestsPerDay: number | null;
  routeCosts: Record<string, number>;
}

export async function findPlan(db: Db, apiKeyId: number): Promise<PlanRow | undefined> {
  return one<PlanRow>(
    db,
    sql`SELECT name, requests_per_minute AS "requestsPerMinute", requests_per_day AS "requestsPerDay", route_costs AS "routeCosts"
        FROM rova_api_key_plans WHERE api_key_id = ${apiKeyId}`,
  );
}

export async function upsertPlan(db: Db, apiKeyId: number, p: PlanRow): Promise<void> {
  await db.execute(sql`INSERT INTO rova_api_key_plans (api_key_id, name, requests_per_minute, requests_per_day, route_costs, updated_at)
    VALUES (${apiKeyId}, ${p.name}, ${p.requestsPerMinute}, ${p.requestsPerDay}, ${JSON.stringify(p.routeCosts)}::jsonb, now())
    ON CONFLICT (api_key_id) DO UPDATE SET name = EXCLUDED.name, requests_per_minute = EXCLUDED.requests_per_minute,
      requests_per_day = EXCLUDED.requests_per_day, route_costs = EXCLUDED.route_costs, updated_at = now()`);
}

export async function deletePlan(db: Db, apiKeyId: number): Promise<boolean> {
  return (
    (
      await rows<{ id: number }>(
        db,
        sql`DELETE FROM rova_api_key_plans WHERE api_key_id = ${apiKeyId} RETURNING api_key_id::int AS id`,
      )
    ).length > 0
  );
}

export async function apiKeyExists(db: Db, apiKeyId: number): Promise<boolean> {
  return (
    (await one<{ id: number }>(db, sql`SELECT id::int AS id FROM rova_api_keys WHERE id = ${apiKeyId}`)) !== undefined
  );
}
