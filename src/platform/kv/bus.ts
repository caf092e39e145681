import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { RedisState } from './redis-state.js';

export type BusHandler = (payload: string) => void;

/**
 * Cache-invalidation bus. Publishing runs local handlers at once; with Redis the message also reaches every
 * other node (their handlers run when it arrives, within milliseconds).
 */
export interface InvalidationBus {
  publish(topic: string, payload?: string): Promise<void>;
  subscribe(topic: string, handler: BusHandler): () => void;
  close(): Promise<void>;
}

export function createMemoryBus(): InvalidationBus {
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  return {
    async publish(topic, payload = '') {
      ee.emit(topic, payload);
    },
    subscribe(topic, handler) {
      ee.on(topic, handler);
      return () => ee.off(topic, handler);
    },
    async close() {
      ee.removeAllListeners();
    },
  };
}

/** Messages kept for other nodes while Redis is away; beyond this a topic's messages collapse into one "drop all". */
const MAX_PENDING = 1_000;

/**
 * Publishing never fails because of Redis: local handlers run first (this node is always right), and the
 * message for other nodes is best-effort — when Redis refuses it, it is kept (bounded) and sent again once
 * Redis is back. A write that committed is therefore never reported as failed because of the bus. When Redis
 * comes back, every local cache is dropped ("*" on every topic): messages from other nodes may have been missed.
 */
export async function createRedisBus(pub: Redis, sub: Redis, prefix: string, state: RedisState): Promise<InvalidationBus> {
  const nodeId = randomUUID();
  const channel = `${prefix}bus`;
  const local = createMemoryBus();
  const topics = new Set<string>();
  const pending = new Map<string, { topic: string; payload: string }>();
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      const msg = JSON.parse(raw) as { node: string; topic: string; payload: string };
      if (msg.node === nodeId) return;
      void local.publish(msg.topic, msg.payload);
    } catch {
      // A malformed message from another writer is ignored.
    }
  });
  await sub.subscribe(channel);

  const keep = (topic: string, payload: string) => {
    if (pending.size >= MAX_PENDING) {
      for (const [k, m] of pending) if (m.topic === topic) pending.delete(k);
      payload = '*';
    }
    pending.set(`${topic}\u0000${payload}`, { topic, payload });
  };
  const send = async (topic: string, payload: string) => {
    try {
      await pub.publish(channel, JSON.stringify({ node: nodeId, topic, payload }));
    } catch {
      keep(topic, payload);
    }
  };
  const flush = async () => {
    const batch = [...pending.values()];
    pending.clear();
    for (const m of batch) await send(m.topic, m.payload);
    if (batch.length && pending.size === 0) state.log.info({ messages: batch.length }, 'invalidation messages held during the Redis outage were sent');
  };
  pub.on('ready', () => void flush());
  state.onRecovered(() => {
    // Subscribe again before dropping, so nothing published after the drop can be missed.
    void sub
      .subscribe(channel)
      .catch(() => undefined)
      .then(async () => {
        for (const t of topics) await local.publish(t, '*');
        state.cachesDropped();
        await flush();
      });
  });

  return {
    async publish(topic, payload = '') {
      await local.publish(topic, payload);
      await send(topic, payload);
    },
    subscribe(topic, handler) {
      topics.add(topic);
      return local.subscribe(topic, handler);
    },
    async close() {
      await sub.unsubscribe(channel).catch(() => undefined);
      await local.close();
    },
  };
}
