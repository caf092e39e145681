import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

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

export async function createRedisBus(pub: Redis, sub: Redis, prefix: string): Promise<InvalidationBus> {
  const nodeId = randomUUID();
  const channel = `${prefix}bus`;
  const local = createMemoryBus();
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
  return {
    async publish(topic, payload = '') {
      await local.publish(topic, payload);
      await pub.publish(channel, JSON.stringify({ node: nodeId, topic, payload }));
    },
    subscribe: local.subscribe,
    async close() {
      await sub.unsubscribe(channel).catch(() => undefined);
      await local.close();
    },
  };
}
