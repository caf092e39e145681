import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Platform } from '../../../platform/context.js';
import { HttpError } from '../../../platform/http/errors.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { listVendorAudit } from '../ledger/audit.js';
import { vendorBalances } from '../ledger/balances.js';
import { scoreHistory } from '../ledger/score.js';
import { PageSchema, pageOf, parsePaging } from '../paging.js';
import { documentsOf } from './applications/repo.js';
import { recentPayoutsOf } from './portal/payouts-brief.js';
import {
  AuditItem,
  AuditQuery,
  IbanBody,
  IbanDecision,
  IdParams,
  SuspendResult,
  VendorDetail,
  VendorItem,
  VendorsQuery,
} from './schemas.js';
import { documentView } from './applications/views.js';
import { auditView, vendorDetailView, vendorListItem } from './views.js';
import { bookingCounts, listVendors, vendorById, vendorVehicles } from './repo.js';
import { decideIbanChange, requestIbanChange, suspendVendor, unsuspendVendor } from './service.js';

const VM = '/rova-rental/v1/vendor-management';
const admin = { auth: { cap: 'manage_options' } } as const;
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const tags = ['rental v1: vendor management'];

async function detail(p: Platform, id: number) {
  const v = await vendorById(p.db, id);
  if (!v) throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Vendor ${id} does not exist.`);
  const currency = p.storeCurrency.code;
  const docs = v.application_id === null ? [] : await documentsOf(p.db, Number(v.application_id));
  return vendorDetailView(v, p.config.secret, currency, {
    balances: await vendorBalances(p.db, id),
    counts: await bookingCounts(p.db, id),
    vehicles: await vendorVehicles(p.db, id),
    documents: docs.map((d) => documentView(d, p.config.restRoot)),
    payouts: await recentPayoutsOf(p.db, id, currency),
    scores: await scoreHistory(p.db, id),
  });
}

export const vendorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;

  app.get(
    `${VM}/vendors`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Vendors: active ones unless `status` says otherwise (suspended, all); search, sort, paging',
        querystring: VendorsQuery,
        response: { 200: RentalEnvelope(PageSchema(VendorItem)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const q = req.query;
      const r = await listVendors(
        p.db,
        {
          search: q.search,
          status: q.status ?? 'active',
          owing: q.owing,
          sort: q.sort_by ?? 'name',
          order: q.sort_order ?? 'asc',
        },
        pg.limit,
        pg.offset,
      );
      return rentalOk(
        pageOf(
          r.items.map((v) => vendorListItem(v, p.storeCurrency.code)),
          r.total,
          pg,
        ),
        '',
      );
    },
  );

  app.get(
    `${VM}/:id`,
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Vendor detail: masked IBAN, documents (admin download links), statistics, recent payouts, reliability score history, vehicles',
        params: IdParams,
        response: { 200: RentalEnvelope(VendorDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await detail(p, req.params.id), ''),
  );

  app.post(
    `${VM}/:id/suspend`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Suspend an active vendor: hides exactly its listed vehicles (409 unless active)',
        params: IdParams,
        response: { 200: RentalEnvelope(SuspendResult), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => rentalOk(await suspendVendor(p, req.params.id, req.auth.user!), 'Vendor suspended.'),
  );

  app.post(
    `${VM}/:id/unsuspend`,
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Unsuspend a suspended vendor: restores exactly the vehicles its suspension hid (409 unless suspended)',
        params: IdParams,
        response: { 200: RentalEnvelope(SuspendResult), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => rentalOk(await unsuspendVendor(p, req.params.id, req.auth.user!), 'Vendor unsuspended.'),
  );

  app.get(
    `${VM}/:id/audit-log`,
    {
      config: admin,
      schema: {
        tags,
        summary: "A vendor's audit log: commissions, penalties, suspensions, payouts, IBAN changes (newest first)",
        params: IdParams,
        querystring: AuditQuery,
        response: { 200: RentalEnvelope(PageSchema(AuditItem)), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      if (!(await vendorById(p.db, req.params.id)))
        throw new HttpError(404, 'RESOURCE_NOT_FOUND', `Vendor ${req.params.id} does not exist.`);
      const pg = parsePaging(req.query);
      const r = await listVendorAudit(p.db, req.params.id, req.query.event_type, pg.limit, pg.offset);
      return rentalOk(
        pageOf(
          r.items.map((a) => auditView(a, p.storeCurrency.code)),
          r.total,
          pg,
        ),
        '',
      );
    },
  );

  app.post(
    `${VM}/:id/iban-change/approve`,
    {
      config: admin,
      schema: {
        tags,
        summary: "Approve a vendor's pending IBAN change (409 when none)",
        params: IdParams,
        response: { 200: RentalEnvelope(IbanDecision), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => rentalOk(await decideIbanChange(p, req.params.id, req.auth.user!, true), 'IBAN change approved.'),
  );

  app.post(
    `${VM}/:id/iban-change/reject`,
    {
      config: admin,
      schema: {
        tags,
        summary: "Reject a vendor's pending IBAN change (the current IBAN stays)",
        params: IdParams,
        response: { 200: RentalEnvelope(IbanDecision), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => rentalOk(await decideIbanChange(p, req.params.id, req.auth.user!, false), 'IBAN change rejected.'),
  );

  app.get(
    '/rova-rental/v1/vendor/profile',
    {
      config: vendorOnly,
      schema: {
        tags: ['rental v1: vendor self-service'],
        summary: "The calling vendor's own profile and statistics (IBAN masked)",
        response: { 200: RentalEnvelope(VendorDetail), ...rentalErrors(401, 403, 404) },
      },
    },
    async (req) => rentalOk(await detail(p, req.auth.user!.id), ''),
  );

  app.post(
    '/rova-rental/v1/vendor/iban-change',
    {
      config: vendorOnly,
      schema: {
        tags: ['rental v1: vendor self-service'],
        summary: 'Request an IBAN change (takes effect when an administrator approves it)',
        body: IbanBody,
        response: {
          202: RentalEnvelope(Type.Object({ status: Type.Literal('pending') })),
          ...rentalErrors(400, 401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      await requestIbanChange(p, req.auth.user!, req.body.iban);
      return reply
        .code(202)
        .send(rentalOk({ status: 'pending' as const }, 'IBAN change requested; an administrator will review it.'));
    },
  );
};
