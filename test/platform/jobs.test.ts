import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// Scheduled jobs over several nodes (issue 23): a job runs once per period whichever node takes it, and a node that
// stops hands its leases back so the next node does not wait for them to run out (rolling restarts).
let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

describe('JobRunner on two nodes', () => {
  it('once per period across nodes, also when a node remembers an older run of its own', async () => {
    const runs: { node: string; at: number }[] = [];
    const job = (node: string) => ({ name: 'period-test', intervalMs: () => 1500, run: async () => void runs.push({ node, at: Date.now() }) });
    // ticks every 50 ms, leases of 200 ms: leases run out well inside a period, so only the recorded run can decide
    const a = new JobRunner(t.platform.db, t.app.log, 50);
    const b = new JobRunner(t.platform.db, t.app.log, 50);
    a.schedule(job('a'));
    b.schedule(job('b'));
    await new Promise((r) => setTimeout(r, 5_500));
    await Promise.all([a.stop(), b.stop()]);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    const gaps = runs.slice(1).map((r, i) => r.at - runs[i]!.at);
    for (const g of gaps) expect(g, `runs at ${runs.map((r) => `${r.node}+${r.at - runs[0]!.at}`).join(', ')}`).toBeGreaterThanOrEqual(1400);
  }, 20_000);

  it('stop() hands the node\'s leases back: another node takes the job at once', async () => {
    const a = new JobRunner(t.platform.db, t.app.log);
    const b = new JobRunner(t.platform.db, t.app.log);
    expect(await a.acquireLease('job:handover', 120_000)).toBe(true);
    expect(await b.acquireLease('job:handover', 120_000)).toBe(false);
    await a.stop();
    const left = await rows<{ n: number }>(t.platform.db, sql`SELECT count(*)::int AS n FROM rova_job_leases WHERE name = 'job:handover'`);
    expect(left[0]!.n).toBe(0);
    expect(await b.acquireLease('job:handover', 120_000)).toBe(true);
    await b.stop();
  });
});
