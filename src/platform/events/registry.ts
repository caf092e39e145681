import type { EventType } from './emit.js';

/**
 * The event types integrators may subscribe to. Each module registers its own, once, at import time of the
 * file that emits them: `registerEventTypes({ 'payout.paid': 'A payout reached the vendor' })`.
 */
const registry = new Map<string, string>();

export function registerEventTypes(types: Record<EventType, string>): void {
  for (const [type, description] of Object.entries(types)) registry.set(type, description);
}

export function eventTypes(): { type: string; description: string }[] {
  return [...registry.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, description]) => ({ type, description }));
}

/** A subscription filter entry: `*`, `booking.*`, or a registered type. */
export function isKnownFilter(f: string): boolean {
  if (f === '*') return true;
  if (f.endsWith('.*')) return [...registry.keys()].some((t) => t.startsWith(f.slice(0, -1)));
  return registry.has(f);
}

export function matchesFilter(filters: readonly string[], type: string): boolean {
  return filters.some((f) => f === '*' || f === type || (f.endsWith('.*') && type.startsWith(f.slice(0, -1))));
}
