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
    const job = (node: string) => ({
      name: 'period-test',
      intervalMs: () => 1500,
      run: async () => void runs.push({ node, at: Date.now() }),
    });
    // ticks every 50 ms, leases of 200 ms: leases run out well inside a period, so only the recorded run can decide
    const a = new JobRunner(t.platform.db, t.app.log, 50);
    const b = new JobRunner(t.platform.db, t.app.log, 50);
    a.schedule(job('a'));
    b.schedule(job('b'));
    await new Promise((r) => setTimeout(r, 5_500));
    await Promise.all([a.stop(), b.stop()]);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    // the period is measured between the recorded starts (rova_job_runs, below); when run() itself begins also
    // depends on the database round trip that records the start, so this is only a coarse check
    const gaps = runs.slice(1).map((r, i) => r.at - runs[i]!.at);
    for (const g of gaps)
      expect(g, `runs at ${runs.map((r) => `${r.node}+${r.at - runs[0]!.at}`).join(', ')}`).toBeGreaterThanOrEqual(
        1000,
      );
    // every run is in rova_job_runs: one row each, a period apart, under a lease, finished
    const recorded = await rows<{
      holder: string;
      interval_ms: string;
      started: number;
      lease: number | null;
      finished: boolean;
      outcome: string | null;
    }>(
      t.platform.db,
      sql`SELECT holder, interval_ms::text, (extract(epoch FROM started_at) * 1000)::float8 AS started, (extract(epoch FROM lease_expires_at) * 1000)::float8 AS lease,
            finished_at IS NOT NULL AS finished, outcome FROM rova_job_runs WHERE job = 'period-test' ORDER BY started_at`,
    );
    expect(recorded).toHaveLength(runs.length);
    expect(new Set(recorded.map((r) => r.holder)).size).toBeLessThanOrEqual(2);
    for (const [i, r] of recorded.entries()) {
      expect(r).toMatchObject({ interval_ms: '1500', finished: true, outcome: 'success' });
      expect(r.lease!).toBeGreaterThan(r.started);
      if (i > 0) expect(r.started - recorded[i - 1]!.started).toBeGreaterThanOrEqual(1500);
    }
  }, 20_000);

  it('records a failed run as failure, with its node', async () => {
    const a = new JobRunner(t.platform.db, t.app.log, 50);
    let ran = false;
    a.schedule({
      name: 'failing-test',
      intervalMs: () => 60_000,
      run: async () => {
        ran = true;
        throw new Error('boom');
      },
    });
    for (let i = 0; i < 100 && !ran; i++) await new Promise((r) => setTimeout(r, 50));
    await a.stop();
    const r = await rows<{ node: string; outcome: string | null }>(
      t.platform.db,
      sql`SELECT node, outcome FROM rova_job_runs WHERE job = 'failing-test'`,
    );
    expect(r).toEqual([{ node: expect.stringMatching(new RegExp(`:${process.pid}$`)), outcome: 'failure' }]);
  });

  it("stop() hands the node's leases back: another node takes the job at once", async () => {
    const a = new JobRunner(t.platform.db, t.app.log);
    const b = new JobRunner(t.platform.db, t.app.log);
    expect(await a.acquireLease('job:handover', 120_000)).toBe(true);
    expect(await b.acquireLease('job:handover', 120_000)).toBe(false);
    await a.stop();
    const left = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_job_leases WHERE name = 'job:handover'`,
    );
    expect(left[0]!.n).toBe(0);
    expect(await b.acquireLease('job:handover', 120_000)).toBe(true);
    await b.stop();
  });
});
