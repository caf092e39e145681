import { createHash } from 'node:crypto';
import type { Capability } from '../../../platform/auth/roles.js';
import type { Db } from '../../../platform/db/types.js';
import { RentalErrors } from '../errors.js';
import type { Transients } from '../../../platform/kv/transients.js';
import { localDate } from '../shared/dates.js';
import { pageOf, parsePaging, type Page } from '../paging.js';
import { ENCODERS } from './encode.js';
import { addHistory, deleteHistory, expiryOf, listHistory, newEntryId, type HistoryEntry } from './history.js';
import { exportCount, exportPage, type RawRow } from './repo.js';
import { fileName, parseExportRequest, parseFormat, type ExportRequest } from './request.js';
import { outRow, type OutRow } from './values.js';

export interface ExportContext {
  db: Db;
  transients: Transients;
  timeZone: string;
  now: () => Date;
  /** Rows per keyset page (memory per page, round trips per file). */
  pageSize?: number;
}

/** Who runs the export: a user (HTTP) or the operator (CLI, user null, every capability). */
export interface Caller {
  userId: number | null;
  can(cap: Capability): boolean;
}

export const PAGE_SIZE = 1000;
export const SAMPLE_SIZE = 5;

export interface ExportRun {
  id: string;
  filename: string;
  contentType: string;
  /** The file, chunk by chunk; consuming it to the end (or abandoning it) writes the history entry. */
  body: AsyncGenerator<Buffer>;
}

function authorise(req: ExportRequest, who: Caller): void {
  if (!who.can(req.type.cap)) {
    throw RentalErrors.permissionDenied(
      `Exporting ${req.type.name} needs the ${req.type.cap} capability (it holds customer personal data or admin records).`,
    );
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * Validates, checks the capability and reads the first page (so a database failure before any byte is
 * sent is a plain 500), then returns the file as a stream of chunks. Every run that passes validation
 * leaves a history entry: completed, or failed (with the records and bytes produced so far).
 */
export async function startExport(ctx: ExportContext, input: unknown, who: Caller): Promise<ExportRun> {
  const format = parseFormat((input as { format?: unknown } | null)?.format);
  const req = parseExportRequest(input, ctx.timeZone);
  authorise(req, who);
  const { type, filter } = req;
  const encoder = ENCODERS[format];
  const started = ctx.now();
  const size = ctx.pageSize ?? PAGE_SIZE;
  const id = newEntryId();
  const filename = fileName(type, filter, localDate(started, ctx.timeZone), encoder.extension);
  const keys = type.columns.map((c) => c.key);

  const hash = createHash('sha256');
  let bytes = 0;
  let records = 0;
  const record = async (status: HistoryEntry['status'], error: string | null) => {
    const entry: HistoryEntry = {
      id,
      date: started.toISOString(),
      type: type.name,
      format,
      filename,
      records,
      bytes,
      sha256: hash.copy().digest('hex'),
      status,
      error,
      user_id: who.userId,
      filters: req.filters,
      expires_at: expiryOf(ctx.now()),
    };
    await addHistory(ctx.transients, entry, ctx.now());
  };

  let first: RawRow[];
  try {
    first = await exportPage(ctx.db, type, filter, null, size);
  } catch (err) {
    await record('failed', messageOf(err)).catch(() => undefined);
    throw err;
  }

  const chunk = (text: string): Buffer => {
    const b = Buffer.from(text, 'utf8');
    hash.update(b);
    bytes += b.length;
    return b;
  };

  async function* body(): AsyncGenerator<Buffer> {
    let produced = false;
    let error: string | null = null;
    try {
      const head = encoder.head(keys);
      if (head) yield chunk(head);
      let page = first;
      let isFirst = true;
      while (page.length > 0) {
        const out = page.map((r) => outRow(type, r));
        records += page.length;
        yield chunk(encoder.rows(keys, out, isFirst));
        isFirst = false;
        if (page.length < size) break;
        page = await exportPage(ctx.db, type, filter, page[page.length - 1]!.__id, size);
      }
      const tail = encoder.tail(records);
      produced = true;
      if (tail) yield chunk(tail);
    } catch (err) {
      error = messageOf(err);
      throw err;
    } finally {
      await record(
        produced ? 'completed' : 'failed',
        produced ? null : (error ?? 'interrupted: the receiver went away before the end'),
      ).catch(() => undefined);
    }
  }

  return { id, filename, contentType: encoder.contentType, body: body() };
}

export interface Preview {
  type: string;
  count: number;
  columns: string[];
  sample: OutRow[];
}

/** The number of rows the file would have and its first rows (same columns, same order). */
export async function previewExport(ctx: ExportContext, input: unknown, who: Caller): Promise<Preview> {
  const req = parseExportRequest(input, ctx.timeZone);
  authorise(req, who);
  const [count, rows] = await Promise.all([
    exportCount(ctx.db, req.type, req.filter),
    exportPage(ctx.db, req.type, req.filter, null, SAMPLE_SIZE),
  ]);
  return {
    type: req.type.name,
    count,
    columns: req.type.columns.map((c) => c.key),
    sample: rows.map((r) => outRow(req.type, r)),
  };
}

/** History, newest first (administrators only: the routes require manage_options). */
export async function exportHistory(
  ctx: ExportContext,
  q: { page?: number; per_page?: number },
): Promise<Page<HistoryEntry>> {
  const all = await listHistory(ctx.transients, ctx.now());
  const p = parsePaging(q);
  return pageOf(all.slice(p.offset, p.offset + p.limit), all.length, p);
}

/** Deletes one entry; unknown or expired → 404. */
export async function deleteExportEntry(ctx: ExportContext, id: string): Promise<void> {
  await deleteHistory(ctx.transients, id, ctx.now());
}
