// Bars on the planner grid, pure: each booking's columns (fractional, store-local days) and its lane inside the
// vehicle's row (bookings that overlap — cancelled ones over a new booking, say — are stacked, never drawn on top).

import { columnOf } from './dates';

export interface BarInput {
  id: number;
  vehicle_id: number;
  pickup_at: string;
  return_at: string;
  buffer_minutes: number;
}

export interface Bar<B extends BarInput> {
  booking: B;
  /** Columns of the booking itself (0 … days), clamped to the window. */
  start: number;
  end: number;
  /** Columns of the buffer before and after (the gap the availability engine keeps), clamped. */
  bufferStart: number;
  bufferEnd: number;
  /** Starts before / ends after the window. */
  clippedStart: boolean;
  clippedEnd: boolean;
  lane: number;
}

export interface RowLayout<B extends BarInput> {
  bars: Bar<B>[];
  lanes: number;
}

/** Lays out one vehicle's bookings (any order) against the window's day boundaries (`dayStarts`). */
export function layoutRow<B extends BarInput>(bookings: readonly B[], starts: readonly number[]): RowLayout<B> {
  const n = starts.length - 1;
  const sorted = [...bookings].sort((a, b) => Date.parse(a.pickup_at) - Date.parse(b.pickup_at) || a.id - b.id);
  const laneEnds: number[] = [];
  const bars = sorted.map((b): Bar<B> => {
    const from = Date.parse(b.pickup_at);
    const to = Date.parse(b.return_at);
    const buf = b.buffer_minutes * 60_000;
    let lane = laneEnds.findIndex((end) => end <= from - buf);
    if (lane < 0) lane = laneEnds.push(0) - 1;
    laneEnds[lane] = to + buf;
    return {
      booking: b,
      start: columnOf(from, starts),
      end: columnOf(to, starts),
      bufferStart: columnOf(from - buf, starts),
      bufferEnd: columnOf(to + buf, starts),
      clippedStart: from < starts[0]!,
      clippedEnd: to > starts[n]!,
      lane,
    };
  });
  return { bars, lanes: Math.max(1, laneEnds.length) };
}

/** Bookings grouped by vehicle id. */
export function byVehicle<B extends { vehicle_id: number }>(bookings: readonly B[]): Map<number, B[]> {
  const m = new Map<number, B[]>();
  for (const b of bookings) {
    const list = m.get(b.vehicle_id);
    if (list) list.push(b);
    else m.set(b.vehicle_id, [b]);
  }
  return m;
}
