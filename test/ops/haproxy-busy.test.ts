import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hasHaproxy, startBalancer, type Balancer } from '../helpers/haproxy.js';

// deploy/haproxy.cfg under overload: a node that answers its /readyz late but within `timeout check` (3 s) stays in
// rotation — with the 1 s `inter` as the only timeout, two late answers took every busy node out at once and
// HAProxy answered 503 to everyone (the 2-node soak of 2026-11-27 17:09). A node that does not answer within the
// timeout still leaves it. The nodes here are stand-ins whose only trait is how late /readyz answers.

let servers: Server[] = [];
let lb: Balancer | undefined;
afterEach(async () => {
  await lb?.stop();
  lb = undefined;
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** A node whose /readyz answers 200 after `readyMs`; anything else at once, naming the node. */
async function node(name: string, readyMs: number): Promise<number> {
  const s = createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(name);
    if (req.url === '/readyz') setTimeout(answer, readyMs);
    else answer();
  });
  s.keepAliveTimeout = 1;
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasHaproxy())('deploy/haproxy.cfg with busy nodes', () => {
  it('keeps a node whose /readyz answers in 1.5 s in rotation, and takes out one that answers in 6 s', async () => {
    const busy = await node('busy', 1_500);
    const hung = await node('hung', 6_000);
    // rise 2: the busy node is in rotation once two of its late checks passed
    lb = await startBalancer([busy, hung], 15_000, 1);
    // fall 2: two checks answered after the timeout take a node out; watched for three rounds of the 3 s timeout
    const seen = new Set<string>();
    for (const until = Date.now() + 12_000; Date.now() < until; await sleep(250))
      for (const n of await lb.up()) seen.add(n);
    expect(await lb.up()).toEqual(['node1']);
    expect([...seen]).toEqual(['node1']);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(lb!.url + '/').then(async (r) => `${r.status} ${await r.text()}`)),
    );
    expect(answers).toEqual(Array(6).fill('200 busy'));
  }, 30_000);
});
