import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 below the kernel's ephemeral range (32768–60999 on Linux), for a server that is stopped
 * and started again on the same port (a test's node). A port from the ephemeral range (what listening on port 0
 * gives) can be taken meanwhile as the local port of one of the machine's outgoing connections — under load there are
 * thousands — and the restarted server then fails with EADDRINUSE.
 */
export async function freeServerPort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
