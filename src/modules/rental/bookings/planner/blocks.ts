import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../../platform/db/types.js';
import { addDays, localToUtc } from '../../time.js';
import { iso } from '../../views.js';
import { bigintArray } from '../../sqlx.js';

/**
 * What keeps a vehicle from being booked besides bookings, as the planner draws it: a vendor's block of the vehicle
 * (maintenance or own use, migration 0725) and a date the operator blocked on the vehicle (`blocked_dates`), each
 * from the start of its first day to the end of its last in the store time zone.
 */
export interface PlannerBlock {
  vehicle_id: number;
  kind: 'vendor_block' | 'blocked_date';
  /** First and last day, YYYY-MM-DD (store time zone). */
  from: string;
  to: string;
  starts_at: string;
  ends_at: string;
  /** maintenance | own_use (a vendor's block) | blocked_date (the operator's). */
  reason: 'maintenance' | 'own_use' | 'blocked_date';
  note: string;
}

/** The blocks of these vehicles that meet the window [start, end), by vehicle then start. */
export async function blocksOverlapping(
  db: Db,
  vehicleIds: number[],
  w: { from: string; to: string; start: Date; end: Date },
  timezone: string,
): Promise<PlannerBlock[]> {
  if (vehicleIds.length === 0) return [];
  const ids = bigintArray(vehicleIds);
  const vendor = await rows<{
    vehicle_id: number;
    from_date: string;
    to_date: string;
    starts_at: string;
    ends_at: string;
    reason: 'maintenance' | 'own_use';
    note: string;
  }>(
    db,
    sql`SELECT vehicle_id::int AS vehicle_id, from_date::text AS from_date, to_date::text AS to_date, starts_at, ends_at,
      reason, note FROM rental_vehicle_blocks
    WHERE vehicle_id = ANY(${ids}::bigint[]) AND starts_at < ${w.end.toISOString()}::timestamptz
      AND ends_at > ${w.start.toISOString()}::timestamptz`,
  );
  const dated = await rows<{ vehicle_id: number; day: string }>(
    db,
    sql`SELECT v.id::int AS vehicle_id, d.day FROM rental_vehicles v, jsonb_array_elements_text(v.blocked_dates) AS d(day)
    WHERE v.id = ANY(${ids}::bigint[]) AND d.day >= ${w.from} AND d.day <= ${w.to}`,
  );
  const out: PlannerBlock[] = [
    ...vendor.map((b) => ({
      vehicle_id: b.vehicle_id,
      kind: 'vendor_block' as const,
      from: b.from_date,
      to: b.to_date,
      starts_at: iso(b.starts_at),
      ends_at: iso(b.ends_at),
      reason: b.reason,
      note: b.note,
    })),
    ...dated.map((d) => ({
      vehicle_id: d.vehicle_id,
      kind: 'blocked_date' as const,
      from: d.day,
      to: d.day,
      starts_at: localToUtc(d.day, '00:00', timezone).toISOString(),
      ends_at: localToUtc(addDays(d.day, 1), '00:00', timezone).toISOString(),
      reason: 'blocked_date' as const,
      note: '',
    })),
  ];
  return out.sort((a, b) => a.vehicle_id - b.vehicle_id || a.starts_at.localeCompare(b.starts_at));
}
