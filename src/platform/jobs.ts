import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rows, type Db } from './db/types.js';

export interface JobSpec {
  name: string;
  /** Milliseconds between runs, read before each run (settings may change it); null = paused. */
  intervalMs: () => Promise<number | null> | number | null;
  run: () => Promise<void>;
}

/** Told about every job run (metrics). */
export type JobRunObserver = (job: string, outcome: 'success' | 'failure', seconds: number) => void;

/** Runs kept in rova_job_runs. */
const RUNS_KEPT_DAYS = 30;

/**
 * Interval jobs that run on one node at a time: before each run a node takes (or renews) a lease row in the
 * database; other nodes skip while the lease is held by someone else and not expired. Every run is recorded in
 * rova_job_runs (job, runner, process, start, lease, end, outcome).
 */
export class JobRunner {
  private readonly holder = randomUUID();
  /** This process, as recorded with each run. */
  private readonly node = `${hostname()}:${process.pid}`;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastRun = new Map<string, number>();
  private readonly names: string[] = [];
  private stopped = false;
  /** Runs in progress: stop() waits for them so a shutdown never cuts a job's writes off. */
  private readonly running = new Set<Promise<void>>();
  private observer: JobRunObserver | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly tickMs = 30_000,
  ) {}

  /** Takes the named lease for ttlMs; true when this node holds it. */
  async acquireLease(name: string, ttlMs: number): Promise<boolean> {
    const expires = new Date(Date.now() + ttlMs).toISOString();
    const r = await rows<{ holder: string }>(
      this.db,
      sql`INSERT INTO rova_job_leases (name, holder, expires_at) VALUES (${name}, ${this.holder}, ${expires})
          ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
          WHERE rova_job_leases.holder = EXCLUDED.holder OR rova_job_leases.expires_at < now()
          RETURNING holder`,
    );
    return r[0]?.holder === this.holder;
  }

  /** The names of the jobs scheduled on this node (what a start runs; tests wait for each). */
  scheduled(): string[] {
    return [...this.names];
  }

  schedule(spec: JobSpec): void {
    this.names.push(spec.name);
    const tick = async () => {
      if (this.stopped) return;
      try {
        const interval = await spec.intervalMs();
        if (interval !== null && interval > 0) {
          const seen = this.lastRun.get(spec.name) ?? (await this.lastRunAt(spec.name));
          if (Date.now() - seen >= interval && (await this.acquireLease(`job:${spec.name}`, this.tickMs * 4))) {
            // Under the lease, from the database: another node may have run it since this node last looked (and
            // handed its lease back on shutdown), and the period is the job's, not the node's.
            const last = await this.lastRunAt(spec.name);
            if (Date.now() - last >= interval) {
              const at = Date.now();
              this.lastRun.set(spec.name, at);
              const runId = await this.recordRun(spec.name, at, interval);
              await this.track(spec, runId);
            } else {
              this.lastRun.set(spec.name, last);
            }
          }
        }
      } catch (err) {
        this.log.error({ err, job: spec.name }, 'scheduled job failed');
      }
      if (!this.stopped) this.timers.set(spec.name, setTimeout(() => void tick(), this.tickMs).unref());
    };
    this.timers.set(spec.name, setTimeout(() => void tick(), 1_000).unref());
  }

  /** Receives every run's outcome and duration. */
  observe(observer: JobRunObserver): void {
    this.observer = observer;
  }

  private async track(spec: JobSpec, runId: string): Promise<void> {
    const started = performance.now();
    const run = spec.run();
    const settled = run.then(
      () => this.finished(spec.name, runId, 'success', started),
      () => this.finished(spec.name, runId, 'failure', started),
    );
    this.running.add(settled);
    try {
      await run;
    } finally {
      this.running.delete(settled);
    }
  }

  private async lastRunAt(name: string): Promise<number> {
    const r = await rows<{ value: { at: number } }>(
      this.db,
      sql`SELECT value FROM rova_options WHERE name = ${'job_last_run:' + name}`,
    );
    return r[0]?.value.at ?? 0;
  }

  /** The run's start, in one statement: the job's last run (what the period is measured from) and its rova_job_runs row. */
  private async recordRun(name: string, at: number, intervalMs: number): Promise<string> {
    const v = JSON.stringify({ at });
    const r = await rows<{ id: string }>(
      this.db,
      sql`WITH last AS (
        INSERT INTO rova_options (name, value) VALUES (${'job_last_run:' + name}, ${v}::jsonb)
        ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
      )
      INSERT INTO rova_job_runs (job, holder, node, interval_ms, started_at, lease_expires_at)
      VALUES (${name}, ${this.holder}, ${this.node}, ${intervalMs}, to_timestamp(${at}::double precision / 1000),
        (SELECT expires_at FROM rova_job_leases WHERE name = ${'job:' + name}))
      RETURNING id::text AS id`,
    );
    return r[0]!.id;
  }

  /** The run's end in rova_job_runs (old runs of the job go), then the observer (metrics). */
  private async finished(name: string, runId: string, outcome: 'success' | 'failure', started: number): Promise<void> {
    const seconds = (performance.now() - started) / 1000;
    try {
      await this.db.execute(
        sql`UPDATE rova_job_runs SET finished_at = now(), outcome = ${outcome} WHERE id = ${runId}`,
      );
      await this.db.execute(
        sql`DELETE FROM rova_job_runs WHERE job = ${name} AND started_at < now() - make_interval(days => ${RUNS_KEPT_DAYS})`,
      );
    } catch (err) {
      this.log.warn({ err: { message: (err as Error).message }, job: name }, 'job run end not recorded');
    }
    this.observer?.(name, outcome, seconds);
  }

  /**
   * Schedules nothing more, resolves once the runs in progress have finished, and hands this node's leases back so
   * another node takes the next period at its next tick instead of after the lease runs out (a rolling restart).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.running]);
    // every call: a lease taken meanwhile through acquireLease (the webhook loop, during a drain) goes back too
    await this.db.execute(sql`DELETE FROM rova_job_leases WHERE holder = ${this.holder}`).catch((err: unknown) => {
      this.log.warn(
        { err: { message: (err as Error).message } },
        'job leases not handed back (they expire on their own)',
      );
    });
  }
}
