import net from 'node:net';

/** A message a client sent PostgreSQL, as the frontend protocol frames it: its type ('Q' query, 'P' parse, 'B' bind…) and body. */
export interface ClientMessage {
  type: string;
  body: Buffer;
}

/** Where `cutAt` cuts: before the message reaches the database, or once the database answers it (the answer dropped). */
export interface CutAt {
  when: 'message' | 'answer';
  /** Every connection through the proxy is cut and new ones refused until `restore()` (a partition), not just this one. */
  partition?: boolean;
}

/**
 * A TCP proxy in front of PostgreSQL (or a pooler, or Redis with `postgres: false`) that a test can cut, as a network
 * partition would, or stall: `cut()` kills
 * every connection through it at once and refuses new ones until `restore()`. Unlike refusing connections in
 * PostgreSQL itself, no connection can slip through the cut — not even one whose login was under way.
 */
export interface CuttableProxy {
  /** `url` with its host and port replaced by the proxy's; the proxy forwards to `url`'s host and port. */
  route(url: string): string;
  cut(): number;
  /**
   * Cuts the connection of the next client message `match` picks, at the moment `at` says: with `when: 'answer'` the
   * message reaches the database and its answer never reaches the client (a COMMIT that committed, its client left
   * not knowing). Resolves with the number of connections cut, once it happened.
   */
  cutAt(match: (m: ClientMessage) => boolean, at: CutAt): Promise<number>;
  /** Forgets a `cutAt` that has not happened (it then never resolves). */
  disarm(): void;
  restore(): void;
  /**
   * A stalled link: nothing is forwarded either way, every connection stays open and new ones are accepted but carry
   * nothing (a hung network path, or a peer that stopped reading). `resume()` delivers what was held back, in order.
   */
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /**
   * The PostgreSQL frontend protocol is parsed (default), so `cutAt` can pick a message. `false` for any other
   * protocol (Redis): the bytes pass untouched and `cutAt` never matches.
   */
  postgres?: boolean;
}

/** Splits a client's byte stream into frontend messages (the startup packet, and an SSL/GSS request before it, untyped). */
function frontendFrames(): (chunk: Buffer) => ClientMessage[] {
  let buf: Buffer = Buffer.alloc(0);
  let startup = true;
  return (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const out: ClientMessage[] = [];
    for (;;) {
      if (startup) {
        if (buf.length < 8 || buf.length < buf.readInt32BE(0)) break;
        const code = buf.readInt32BE(4);
        buf = buf.subarray(buf.readInt32BE(0));
        if (code !== 80877103 && code !== 80877104) startup = false;
        continue;
      }
      if (buf.length < 5 || buf.length < 1 + buf.readInt32BE(1)) break;
      const len = buf.readInt32BE(1);
      out.push({ type: String.fromCharCode(buf[0]!), body: buf.subarray(5, 1 + len) });
      buf = buf.subarray(1 + len);
    }
    return out;
  };
}

interface Armed {
  match: (m: ClientMessage) => boolean;
  at: CutAt;
  done: (n: number) => void;
}

export async function cuttableProxy(opts: ProxyOptions = {}): Promise<CuttableProxy> {
  const postgres = opts.postgres ?? true;
  let to: URL | null = null;
  const open = new Set<net.Socket>();
  let down = false;
  let stalled = false;
  let armed: Armed | null = null;
  const cutAll = () => {
    down = true;
    const n = open.size;
    for (const s of open) s.destroy();
    return n;
  };
  const server = net.createServer((client) => {
    if (down || !to) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(to.port || 5432), to.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
      if (stalled) s.pause();
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const frames = frontendFrames();
    /** The cut waiting for this connection's next answer. */
    let onAnswer: Armed | null = null;
    const cutHere = (a: Armed) => {
      const n = a.at.partition ? cutAll() : (client.destroy(), upstream.destroy(), 1);
      a.done(n);
    };
    client.on('data', (chunk: Buffer) => {
      if (!postgres) return void upstream.write(chunk);
      const messages = frames(chunk); // parsed always: the frames run on across chunks
      if (armed && messages.some((m) => armed!.match(m))) {
        const a = armed;
        armed = null;
        if (a.at.when === 'message') return cutHere(a);
        onAnswer = a;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (onAnswer) return cutHere(onAnswer);
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    route(url) {
      const u = new URL(url);
      if (to && (to.hostname !== u.hostname || to.port !== u.port))
        throw new Error('cuttableProxy: one target per proxy');
      to = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut: cutAll,
    cutAt(match, at) {
      return new Promise<number>((done) => {
        armed = { match, at, done };
      });
    },
    disarm() {
      armed = null;
    },
    restore() {
      down = false;
    },
    stall() {
      stalled = true;
      for (const s of open) s.pause();
    },
    resume() {
      stalled = false;
      for (const s of open) s.resume();
    },
    async close() {
      armed = null;
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
