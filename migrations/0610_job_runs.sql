-- One row per scheduled-job run (src/platform/jobs.ts), written by the node that took the job's lease: which runner
-- and process ran it, when, the period it was due for, until when its lease held other nodes off, and how it ended
-- (finished_at stays NULL when the process died mid-run). Answers "did every job run once per period, on which
-- node" across nodes, restarts and crashes (the scale test checks it). Rows older than 30 days are dropped as runs
-- are recorded.
CREATE TABLE rova_job_runs (
  id bigserial PRIMARY KEY,
  job text NOT NULL,
  holder text NOT NULL,
  node text NOT NULL,
  interval_ms bigint NOT NULL,
  started_at timestamptz NOT NULL,
  lease_expires_at timestamptz,
  finished_at timestamptz,
  outcome text CHECK (outcome IN ('success', 'failure'))
);
CREATE INDEX rova_job_runs_job ON rova_job_runs(job, started_at);
