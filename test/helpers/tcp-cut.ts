import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL (or a pooler) that a test can cut, as a network partition would: `cut()` kills
 * every connection through it at once and refuses new ones until `restore()`. Unlike refusing connections in
 * PostgreSQL itself, no connection can slip through the cut — not even one whose login was under way.
 */
export interface CuttableProxy {
  /** `url` with its host and port replaced by the proxy's; the proxy forwards to `url`'s host and port. */
  route(url: string): string;
  cut(): number;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableProxy(): Promise<CuttableProxy> {
  let to: URL | null = null;
  const open = new Set<net.Socket>();
  let down = false;
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
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    route(url) {
      const u = new URL(url);
      if (to && (to.hostname !== u.hostname || to.port !== u.port)) throw new Error('cuttableProxy: one target per proxy');
      to = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      down = true;
      const n = open.size;
      for (const s of open) s.destroy();
      return n;
    },
    restore() {
      down = false;
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
