import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { RedisState } from './redis-state.js';

export type BusHandler = (payload: string) => void;

/** How often each node publishes its heartbeat on the bus. */
export const HEARTBEAT_MS = 100;
/**
 * The stated bound: while this node's own heartbeat and every other node's arrive within it, announcements flow
 * (a node's announcements and heartbeats share one channel and Redis keeps their order, so a heartbeat that arrived
 * proves every announcement its node published before it arrived too). Past it, what a node keeps from announcements
 * may be stale: the holding index answers from the database.
 */
export const HEARTBEAT_BOUND_MS = 250;
/**
 * A node not heard for this long is taken as gone (killed without a goodbye): its silence no longer holds others back —
 * unless it recorded its presence in the database meanwhile (BusPresence): then only its link to Redis is down, its
 * announcements cannot reach this node, and the others keep answering from the database for as long as that lasts.
 */
export const PEER_GONE_MS = 30_000;
/** How often each node records its presence in the database. */
export const PRESENCE_MS = 5_000;

/**
 * Where nodes record that they live, apart from Redis (the database: presence.ts). A node silent on the bus but
 * present there is alive with a stalled Redis link, not gone.
 */
export interface BusPresence {
  beat(node: string): Promise<void>;
  /** A graceful stop: this node is gone at once. */
  leave(node: string): Promise<void>;
  /** Of `nodes`, those that recorded their presence within the last `ms`. */
  alive(nodes: readonly string[], ms: number): Promise<Set<string>>;
}

/** Whether announcements from every node demonstrably reach this one (heartbeats within HEARTBEAT_BOUND_MS). */
export interface BusLink {
  flowing(): boolean;
  /**
   * When announcements last flowed again after a gap (ms since epoch, 0 if never): state built from announcements
   * before then may have missed some, and must be reloaded from the database.
   */
  resumedAt(): number;
  /** Runs each time announcements flow again after a gap. */
  onResumed(fn: () => void): void;
  /** For /health and the metrics: the nodes heard (this one included) and the oldest heartbeat's age. */
  state(): { flowing: boolean; nodes: number; oldestHeartbeatMs: number };
}

/** The bus was flowing once and is not now (not merely starting: this node's first heartbeat not back yet). */
export function busStalled(s: ReturnType<BusLink['state']>): boolean {
  return !s.flowing && s.oldestHeartbeatMs >= 0;
}

/**
 * Cache-invalidation bus. Publishing runs local handlers at once; with Redis the message also reaches every
 * other node (their handlers run when it arrives, within milliseconds).
 */
export interface InvalidationBus {
  publish(topic: string, payload?: string): Promise<void>;
  subscribe(topic: string, handler: BusHandler): () => void;
  close(): Promise<void>;
  link: BusLink;
}

/** One process: every announcement is a function call, nothing can be missed. */
const LOCAL_LINK: BusLink = {
  flowing: () => true,
  resumedAt: () => 0,
  onResumed: () => undefined,
  state: () => ({ flowing: true, nodes: 1, oldestHeartbeatMs: 0 }),
};

export function createMemoryBus(): InvalidationBus {
  const ee = new EventEmitter();
  ee.setMaxListeners(0);
  return {
    link: LOCAL_LINK,
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
export async function createRedisBus(
  pub: Redis,
  sub: Redis,
  prefix: string,
  state: RedisState,
  presence?: BusPresence,
): Promise<InvalidationBus> {
  const nodeId = randomUUID();
  const channel = `${prefix}bus`;
  const local = createMemoryBus();
  const topics = new Set<string>();
  const pending = new Map<string, { topic: string; payload: string }>();
  const heartbeats = new Heartbeats(nodeId, presence);
  const present = () => presence?.beat(nodeId).catch(() => undefined);
  await present();
  const presenceBeat = setInterval(() => void present(), PRESENCE_MS);
  presenceBeat.unref();
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      const msg = JSON.parse(raw) as { node: string; topic: string; payload: string; hb?: 1; bye?: 1 };
      if (msg.hb) return heartbeats.heard(msg.node, performance.now());
      if (msg.bye) return heartbeats.left(msg.node);
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
    if (batch.length && pending.size === 0)
      state.log.info({ messages: batch.length }, 'invalidation messages held during the Redis outage were sent');
  };
  pub.on('ready', () => void flush());
  // this node's own heartbeat came back after a gap: what it could not send meanwhile goes out now
  heartbeats.onOwnResumed(() => void flush());
  const beat = setInterval(() => {
    heartbeats.sweep(performance.now());
    pub.publish(channel, JSON.stringify({ node: nodeId, hb: 1 })).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
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
    link: heartbeats,
    async publish(topic, payload = '') {
      await local.publish(topic, payload);
      await send(topic, payload);
    },
    subscribe(topic, handler) {
      topics.add(topic);
      return local.subscribe(topic, handler);
    },
    async close() {
      clearInterval(beat);
      clearInterval(presenceBeat);
      await presence?.leave(nodeId).catch(() => undefined);
      // a goodbye, after every announcement of this node: the others stop waiting for its heartbeat at once
      if (pub.status === 'ready')
        await pub.publish(channel, JSON.stringify({ node: nodeId, bye: 1 })).catch(() => undefined);
      await sub.unsubscribe(channel).catch(() => undefined);
      await local.close();
    },
  };
}

/**
 * Every node's last heartbeat as this node received it (arrival time on this node's monotonic clock,
 * `performance.now()`: clocks need not agree, and a wall-clock step neither fakes nor hides a gap). Flowing: this node's own heartbeat (published and received back through Redis) and every other node's
 * arrived within HEARTBEAT_BOUND_MS. A heartbeat arriving after a longer silence ends a gap; a node silent for
 * PEER_GONE_MS is forgotten (that ends a gap too: the others trust again after reloading).
 */
class Heartbeats implements BusLink {
  private readonly last = new Map<string, number>();
  private resumed = 0;
  private readonly listeners: (() => void)[] = [];
  private readonly ownListeners: (() => void)[] = [];
  /** A presence check of silent nodes in flight (one at a time). */
  private checking = false;

  constructor(
    private readonly self: string,
    private readonly presence?: BusPresence,
  ) {}

  heard(node: string, at: number): void {
    const before = this.last.get(node);
    this.last.set(node, at);
    if (before !== undefined && at - before > HEARTBEAT_BOUND_MS) {
      if (node === this.self) for (const fn of this.ownListeners) fn();
      this.gapEnded(at);
    }
  }

  left(node: string): void {
    if (node !== this.self) this.last.delete(node);
  }

  sweep(now: number): void {
    const silent = [...this.last].filter(([node, at]) => node !== this.self && now - at > PEER_GONE_MS);
    if (silent.length === 0) return;
    if (!this.presence) {
      for (const [node] of silent) this.forget(node, now);
      return;
    }
    if (this.checking) return;
    this.checking = true;
    // a node still present in the database lives with its Redis link down: it is kept (answers stay from the
    // database); a failed check keeps it too
    void this.presence
      .alive(
        silent.map(([node]) => node),
        PEER_GONE_MS,
      )
      .then((alive) => {
        for (const [node, at] of silent) if (!alive.has(node) && this.last.get(node) === at) this.forget(node, now);
      })
      .catch(() => undefined)
      .finally(() => (this.checking = false));
  }

  private forget(node: string, now: number): void {
    this.last.delete(node);
    this.gapEnded(now);
  }

  private gapEnded(at: number): void {
    this.resumed = Math.max(this.resumed, at);
    for (const fn of this.listeners) fn();
  }

  onOwnResumed(fn: () => void): void {
    this.ownListeners.push(fn);
  }

  flowing(): boolean {
    const now = performance.now();
    if (!this.last.has(this.self)) return false;
    for (const at of this.last.values()) if (now - at > HEARTBEAT_BOUND_MS) return false;
    return true;
  }

  resumedAt(): number {
    return this.resumed;
  }

  onResumed(fn: () => void): void {
    this.listeners.push(fn);
  }

  state(): { flowing: boolean; nodes: number; oldestHeartbeatMs: number } {
    const now = performance.now();
    const oldest = this.last.has(this.self) ? Math.max(0, ...[...this.last.values()].map((at) => now - at)) : -1;
    return { flowing: this.flowing(), nodes: this.last.size, oldestHeartbeatMs: oldest };
  }
}
