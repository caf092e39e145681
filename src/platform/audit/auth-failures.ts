import type { AuditEntry } from './log.js';

/** Auth failures per address per minute written one by one; beyond that they are counted. */
export const INDIVIDUAL_PER_MINUTE = 10;
/** Addresses tracked at once; beyond this (a flood from many addresses) entries are written as they come. */
const MAX_ADDRESSES = 10_000;
const MINUTE = 60_000;

interface Window {
  minute: number;
  written: number;
  repeats: number;
  first: AuditEntry | null;
  failures: Record<string, number>;
  statuses: Record<string, number>;
}

/**
 * Collapses repeated authentication failures from one address: the first INDIVIDUAL_PER_MINUTE of a minute are
 * audited as they come, the rest of that minute become one counted entry (details.collapsed, details.count,
 * per-kind and per-status counts) written when the minute is over. Bogus-key floods then add at most
 * INDIVIDUAL_PER_MINUTE + 1 rows per address per minute, and nothing goes unrecorded. Per node.
 */
export class AuthFailureAudit {
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (e: AuditEntry) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts the background flush of finished minutes. */
  start(intervalMs = 15_000): void {
    this.timer ??= setInterval(() => void this.flush(false).catch(this.onError), intervalMs).unref();
  }

  async record(e: AuditEntry): Promise<void> {
    const minute = Math.floor(this.now() / MINUTE);
    const key = e.ip ?? '-';
    let w = this.windows.get(key);
    if (w && w.minute !== minute) {
      await this.writeSummary(w);
      w = undefined;
    }
    if (!w) {
      if (this.windows.size >= MAX_ADDRESSES) return this.write(e);
      w = { minute, written: 0, repeats: 0, first: null, failures: {}, statuses: {} };
      this.windows.set(key, w);
    }
    if (w.written < INDIVIDUAL_PER_MINUTE) {
      w.written += 1;
      return this.write(e);
    }
    w.repeats += 1;
    w.first ??= e;
    const kind = typeof e.details?.auth_failure === 'string' ? e.details.auth_failure : 'denied';
    w.failures[kind] = (w.failures[kind] ?? 0) + 1;
    w.statuses[String(e.status)] = (w.statuses[String(e.status)] ?? 0) + 1;
  }

  /** Writes the counted entries of finished minutes (all of them when `all`, e.g. on shutdown). */
  async flush(all = true): Promise<void> {
    const minute = Math.floor(this.now() / MINUTE);
    for (const [key, w] of [...this.windows]) {
      if (!all && w.minute === minute) continue;
      this.windows.delete(key);
      await this.writeSummary(w);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async writeSummary(w: Window): Promise<void> {
    this.windows.forEach((v, k) => v === w && this.windows.delete(k));
    if (w.repeats === 0 || !w.first) return;
    const start = new Date(w.minute * MINUTE);
    await this.write({
      ...w.first,
      requestId: `collapsed:${start.toISOString()}`,
      target: null,
      details: {
        collapsed: true,
        count: w.repeats,
        window_start: start.toISOString(),
        window_end: new Date((w.minute + 1) * MINUTE).toISOString(),
        auth_failures: w.failures,
        statuses: w.statuses,
      },
    });
  }
}
