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

/** A free port below the ephemeral range, for a server a test stops and starts again on the same port (scripts/ports.mjs). */
export { freeServerPort } from '../../scripts/ports.mjs';
