import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { toDate } from '../../../../platform/db/types.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { fromMinor } from '../../ledger/money.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../../paging.js';
import { Id, Nullable, Text, lit } from '../../schemas.js';
import { IdParams } from '../schemas.js';
import {
  MIN_DESCRIPTION,
  decideReport,
  fileReport,
  findReports,
  reportWithEvents,
  type ReportEventRow,
  type ReportRow,
} from './service.js';
import { CONTEXT_TYPES, REPORT_STATUSES } from './types.js';

const V1 = '/rova-rental/v1';
const admin = { auth: { cap: 'manage_options' } } as const;
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const tags = ['rental v1: vendor reports'];

const CONTEXT_LABELS = {
  booking: 'Booking',
  vehicle: 'Vehicle',
  vehicle_action: 'Vehicle action',
  penalty: 'Penalty appeal',
  general: 'General',
} as const;
const STATUS_LABELS = { open: 'Open', in_review: 'In Review', resolved: 'Resolved', rejected: 'Rejected' } as const;

const ReportItem = Type.Object({
  id: Type.Integer(),
  vendor_id: Type.Integer(),
  vendor_name: Type.String(),
  context_type: lit(CONTEXT_TYPES),
  context_label: Type.String(),
  context_id: Nullable(
    Type.Integer({ description: 'Booking or vehicle id, the penalty ledger transaction id; null for general' }),
  ),
  title: Type.String(),
  status: lit(REPORT_STATUSES),
  status_label: Type.String(),
  is_terminal: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const ReportDetail = Type.Object({
  ...ReportItem.properties,
  vendor_email: Type.String(),
  description: Type.String(),
  admin_note: Nullable(Type.String()),
  admin_user_id: Nullable(Type.Integer()),
  resolved_at: Nullable(Type.String()),
  audit: Type.Array(
    Type.Object({
      at: Type.String(),
      action: lit(['created', ...REPORT_STATUSES] as const),
      actor_id: Nullable(Type.Integer()),
      note: Nullable(Type.String()),
    }),
    { description: 'Every change, oldest first' },
  ),
});
const ReportsQuery = Type.Object({
  status: Type.Optional(lit(['all', ...REPORT_STATUSES] as const)),
  context_type: Type.Optional(lit(CONTEXT_TYPES)),
  ...PagingQuery,
});
const FileBody = Type.Object(
  {
    context_type: lit(CONTEXT_TYPES),
    context_id: Type.Optional(
      Nullable(
        Id({
          description: 'Required unless general: your booking or vehicle id, or your penalty ledger transaction id',
        }),
      ),
    ),
    title: Text({ minLength: 1, maxLength: 255 }),
    description: Text({ maxLength: 20000, description: `At least ${MIN_DESCRIPTION} characters (trimmed)` }),
  },
  { additionalProperties: false },
);
const NoteBody = Type.Object(
  { admin_note: Type.Optional(Text({ maxLength: 5000, description: 'Optional; trimmed, empty → none' })) },
  { additionalProperties: false },
);
const DecisionSchema = Type.Object({
  id: Type.Integer(),
  status: lit(['in_review', 'resolved', 'rejected'] as const),
  resolved_at: Nullable(Type.String()),
  side_effect: lit(['none', 'penalty_waived', 'penalty_applied', 'penalty_reversed'] as const),
  penalty_amount: Nullable(Type.Number({ description: 'Major units moved (applied/reversed) or waived' })),
  currency: Type.String(),
  ledger_tx_id: Nullable(Type.Integer()),
});

const iso = (v: string | null) => (v === null ? null : toDate(v).toISOString());

function item(r: ReportRow) {
  return {
    id: Number(r.id),
    vendor_id: Number(r.vendor_id),
    vendor_name: `${r.vendor_name} (#${r.vendor_id})`,
    context_type: r.context_type,
    context_label: CONTEXT_LABELS[r.context_type],
    context_id: r.context_id === null ? null : Number(r.context_id),
    title: r.title,
    status: r.status,
    status_label: STATUS_LABELS[r.status],
    is_terminal: r.status === 'resolved' || r.status === 'rejected',
    created_at: toDate(r.created_at).toISOString(),
    updated_at: toDate(r.updated_at).toISOString(),
  };
}

function detail(r: ReportRow, ev: ReportEventRow[]) {
  return {
    ...item(r),
    vendor_email: r.vendor_email,
    description: r.description,
    admin_note: r.admin_note,
    admin_user_id: r.admin_user_id === null ? null : Number(r.admin_user_id),
    resolved_at: iso(r.resolved_at),
    audit: ev.map((e) => ({
      at: toDate(e.created_at).toISOString(),
      action: e.action as 'created',
      actor_id: e.actor_id === null ? null : Number(e.actor_id),
      note: e.note,
    })),
  };
}

/** Vendor reports: vendors file and read their own; administrators list, review, resolve and reject them. */
export const vendorReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const load = async (id: number, vendorId?: number) => {
    const { report, events } = await reportWithEvents(p.db, id, vendorId);
    return detail(report, events);
  };

  app.post(
    `${V1}/vendor/reports`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: 'File a vendor report (one open report per context; 409 duplicate_open_report)',
        body: FileBody,
        response: { 201: RentalEnvelope(ReportDetail), ...rentalErrors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const id = await fileReport(p, req.auth.user!, req.body);
      req.auditTarget = `vendor_report:${id}`;
      return reply.code(201).send(rentalOk(await load(id, req.auth.user!.id), 'Report filed.'));
    },
  );

  app.get(
    `${V1}/vendor/reports`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "The calling vendor's reports (paged; status default all, context_type filter)",
        querystring: ReportsQuery,
        response: { 200: RentalEnvelope(PageSchema(ReportItem)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findReports(
        p.db,
        { status: req.query.status ?? 'all', contextType: req.query.context_type, vendorId: req.auth.user!.id },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(item), r.total, pg), '');
    },
  );

  app.get(
    `${V1}/vendor/reports/:id`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "One of the calling vendor's reports with its audit trail (another vendor's → 404)",
        params: IdParams,
        response: { 200: RentalEnvelope(ReportDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await load(req.params.id, req.auth.user!.id), ''),
  );

  app.get(
    `${V1}/vendor-reports`,
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Vendor reports (paged, newest first; status default open, `all` for every status; context_type filter)',
        querystring: ReportsQuery,
        response: { 200: RentalEnvelope(PageSchema(ReportItem)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findReports(
        p.db,
        { status: req.query.status ?? 'open', contextType: req.query.context_type },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(item), r.total, pg), '');
    },
  );

  app.get(
    `${V1}/vendor-reports/:id`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Vendor report detail: full description and audit trail',
        params: IdParams,
        response: { 200: RentalEnvelope(ReportDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await load(req.params.id), ''),
  );

  const moves = {
    review: {
      to: 'in_review',
      summary: 'Start reviewing an open report (no side effects; 409 unless open)',
      done: 'Report in review.',
    },
    resolve: {
      to: 'resolved',
      summary:
        'Resolve a report (vendor upheld): penalty → reversed once; vehicle_action → deferred penalty waived; 409 when terminal',
      done: 'Report resolved.',
    },
    reject: {
      to: 'rejected',
      summary: 'Reject a report: vehicle_action → the deferred withdrawal penalty is applied; 409 when terminal',
      done: 'Report rejected.',
    },
  } as const;
  for (const [path, m] of Object.entries(moves)) {
    app.post(
      `${V1}/vendor-reports/:id/${path}`,
      {
        config: admin,
        schema: {
          tags,
          summary: m.summary,
          params: IdParams,
          body: Type.Optional(Nullable(NoteBody)),
          response: { 200: RentalEnvelope(DecisionSchema), ...rentalErrors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        req.auditTarget = `vendor_report:${req.params.id}`;
        const note = (req.body as { admin_note?: string } | null | undefined)?.admin_note?.trim() || null;
        const d = await decideReport(p, req.auth.user!, req.params.id, m.to, note);
        return rentalOk(
          {
            ...d,
            penalty_amount: d.penalty_amount === null ? null : fromMinor(d.penalty_amount, p.storeCurrency.code),
            currency: p.storeCurrency.code,
          },
          m.done,
        );
      },
    );
  }
};
