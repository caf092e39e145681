import { randomUUID } from 'node:crypto';
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

/**
 * Interval jobs that run on one node at a time: before each run a node takes (or renews) a lease row in the
 * database; other nodes skip while the lease is held by someone else and not expired.
 */
export class JobRunner {
  private readonly holder = randomUUID();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastRun = new Map<string, number>();
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

  schedule(spec: JobSpec): void {
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
              this.lastRun.set(spec.name, Date.now());
              await this.recordRun(spec.name);
              await this.track(spec);
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

  private async track(spec: JobSpec): Promise<void> {
    const started = performance.now();
    const run = spec.run();
    const settled = run.then(
      () => this.observer?.(spec.name, 'success', (performance.now() - started) / 1000),
      () => this.observer?.(spec.name, 'failure', (performance.now() - started) / 1000),
    );
    this.running.add(settled);
    try {
      await run;
    } finally {
      this.running.delete(settled);
    }
  }

  private async lastRunAt(name: string): Promise<number> {
    const r = await rows<{ value: { at: number } }>(this.db, sql`SELECT value FROM rova_options WHERE name = ${'job_last_run:' + name}`);
    return r[0]?.value.at ?? 0;
  }

  private async recordRun(name: string): Promise<void> {
    const v = JSON.stringify({ at: Date.now() });
    await this.db.execute(sql`INSERT INTO rova_options (name, value) VALUES (${'job_last_run:' + name}, ${v}::jsonb)
      ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`);
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
      this.log.warn({ err: { message: (err as Error).message } }, 'job leases not handed back (they expire on their own)');
    });
  }
}
