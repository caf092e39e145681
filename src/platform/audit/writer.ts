import { GroupCommit } from '../db/group-commit.js';
import type { Db } from '../db/types.js';
import { insertAuditBatch, type AuditEntry } from './log.js';

/**
 * The audit log's group commit: an entry is written before its response leaves (the caller awaits it), and the
 * entries of concurrent requests share one multi-row INSERT.
 */
export class AuditWriter extends GroupCommit<AuditEntry> {
  constructor(db: Db, maxBatch = 500) {
    super((entries) => insertAuditBatch(db, entries), maxBatch);
  }
}
