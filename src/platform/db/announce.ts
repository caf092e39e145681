import type { Db } from './types.js';

/** Sends what a committed write changed to the caches that hold it (the platform's bus, on every node). */
export type Announcer = (topic: string, keys: readonly string[]) => void;

type Sink = { now: Announcer } | { pending: Map<string, Set<string>> };
const sinks = new WeakMap<object, Sink>();

/**
 * A repository that changes rows other nodes keep in memory calls this with the handle it wrote on: in a
 * transaction of `platform.transaction` the keys are announced once it commits (never when it rolls back, so no
 * node reloads before the change is visible); on the platform's own handle the statement already committed and
 * they are announced at once. A handle the platform did not make announces nothing (those caches' periodic
 * reload still catches up).
 */
export function announceOnCommit(db: Db, topic: string, keys: Iterable<string | number>): void {
  const sink = sinks.get(db);
  if (!sink) return;
  const list = [...keys].map(String);
  if (list.length === 0) return;
  if ('now' in sink) {
    sink.now(topic, list);
    return;
  }
  let set = sink.pending.get(topic);
  if (!set) sink.pending.set(topic, (set = new Set()));
  for (const k of list) set.add(k);
}

/** The platform's autocommit handle: writes on it are announced as they happen. */
export function announceWritesOf(db: Db, announce: Announcer): void {
  sinks.set(db, { now: announce });
}

/** Runs `fn` in a transaction on `db` and announces what it marked only after the commit. */
export async function transactionAnnounced<T>(db: Db, announce: Announcer, fn: (tx: Db) => Promise<T>): Promise<T> {
  const pending = new Map<string, Set<string>>();
  const result = await db.transaction(async (tx) => {
    sinks.set(tx, { pending });
    return fn(tx as unknown as Db);
  });
  for (const [topic, keys] of pending) announce(topic, [...keys]);
  return result;
}
