import type { Db } from '../db/types.js';
import { insertAuditRows, type AuditEntry } from './log.js';

/**
 * Group commit for the audit log: an entry is written before its response leaves (the caller awaits it), but
 * entries that arrive while a write is in flight go together in the next one — one multi-row INSERT for many
 * requests under load, and no added wait for a lone request (its write starts at once).
 */
export class AuditWriter {
  private queue: { e: AuditEntry; done: (err?: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 500,
  ) {}

  append(e: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ e, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await insertAuditRows(this.db, batch.map((b) => b.e));
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
