import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { roleHasCap } from '../../../platform/auth/roles.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { PageSchema } from '../paging.js';
import { exportDescription } from './docs.js';
import { Deleted, EntryParams, ExportBody, HistoryItem, HistoryQuery, PreviewBody, PreviewData } from './schemas.js';
import * as service from './service.js';

const tags = ['rental v1: export'];
const V1 = '/rova-rental/v1/admin/export';
/** A stream, not serialised: the schema only documents the three media types. */
const FileResponse = Type.Unsafe<unknown>({
  description: 'The file (attachment). Columns per type: see the description.',
  content: {
    'text/csv': { schema: Type.String() },
    'application/json': { schema: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
    'application/x-ndjson': { schema: Type.String() },
  },
});

/** Spec §5 rule 1: every admin endpoint, export included, needs manage_options; reading needs only the key's `read` scope. */
const reader = { auth: { cap: 'manage_options', scope: 'read' } } as const;

function caller(req: FastifyRequest): service.Caller {
  const user = req.auth.user;
  return { userId: user?.id ?? null, can: (cap) => (user ? roleHasCap(user.role, cap) : false) };
}

/** POST /admin/export (the file), POST /admin/export/preview, GET /admin/export/history, DELETE /admin/export/{id}. */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const ctx = (): service.ExportContext => ({
    db: p.db,
    transients: p.transients,
    timeZone: p.config.storeTimezone,
    now: () => new Date(),
  });

  app.post(
    V1,
    {
      config: reader,
      schema: {
        tags,
        summary:
          'Export bookings, transfers, vehicles, customers, messages, payouts, ledger entries or the audit log as a CSV, JSON or NDJSON file (streamed)',
        description: exportDescription(),
        body: ExportBody,
        response: {
          200: FileResponse,
          ...rentalErrors(400, 401, 403, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const run = await service.startExport(ctx(), req.body, caller(req));
      req.auditTarget = `export:${run.id}`;
      req.auditDetails = { export_type: req.body.type, format: req.body.format };
      return reply
        .header('Content-Type', run.contentType)
        .header('Content-Disposition', `attachment; filename="${run.filename}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('X-Rova-Export-Id', run.id)
        .send(Readable.from(run.body, { objectMode: false }));
    },
  );

  app.post(
    `${V1}/preview`,
    {
      config: { ...reader, readOnly: true },
      schema: {
        tags,
        summary: 'Row count and the first 5 rows an export would give (same filters, same columns)',
        description: 'Same body as POST /admin/export without `format`. Unknown type, bad dates or filters → 400.',
        body: PreviewBody,
        response: { 200: RentalEnvelope(PreviewData), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req) => rentalOk(await service.previewExport(ctx(), req.body, caller(req)), ''),
  );

  app.get(
    `${V1}/history`,
    {
      config: reader,
      schema: {
        tags,
        summary: 'Export history, newest first (≤ 50 entries, each kept 1 week)',
        description: 'Every export run (completed or failed).',
        querystring: HistoryQuery,
        response: { 200: RentalEnvelope(PageSchema(HistoryItem)), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req) => rentalOk(await service.exportHistory(ctx(), req.query), ''),
  );

  app.delete(
    `${V1}/:id`,
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags,
        summary: 'Remove one export history entry',
        description: 'Unknown or expired id → 404 RESOURCE_NOT_FOUND.',
        params: EntryParams,
        response: { 200: RentalEnvelope(Deleted), ...rentalErrors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      await service.deleteExportEntry(ctx(), req.params.id);
      return rentalOk({ id: req.params.id, deleted: true as const }, 'Export entry deleted.');
    },
  );
};
