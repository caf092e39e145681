/**
 * Group commit for append-only rows a request must have written before it answers (audit entries, stored mail):
 * a row's write starts at once when none is in flight, and rows that arrive meanwhile go together in the next
 * multi-row INSERT — under load one statement serves many requests, alone a request waits no longer than before.
 * Each `append` resolves when its own row is written, or rejects with its batch's error.
 */
export class GroupCommit<T> {
  private queue: { row: T; done: (err?: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly insert: (rows: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  append(row: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.insert(batch.map((b) => b.row));
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err ?? new Error('group insert failed'));
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
