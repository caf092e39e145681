import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a child process or a server that must be told its port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 below the kernel's ephemeral range (32768–60999 on Linux), for a server a test stops
 * and starts again on the same port: a port from the ephemeral range (what `freePort` gives) can be taken meanwhile
 * as the local port of one of the machine's outgoing connections, and the restart then fails with EADDRINUSE.
 */
export async function freeServerPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
