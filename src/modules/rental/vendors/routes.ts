import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { PageSchema, pageOf, parsePaging } from '../paging.js';
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
import { auditView, vendorListItem } from './views.js';
import {
  decideIbanChange,
  findVendors,
  requestIbanChange,
  suspendVendor,
  unsuspendVendor,
  vendorAuditLog,
  vendorDetail,
} from './service.js';

const VM = '/rova-rental/v1/vendor-management';
const admin = { auth: { cap: 'manage_options' } } as const;
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const tags = ['rental v1: vendor management'];

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
      const r = await findVendors(
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
    async (req) => rentalOk(await vendorDetail(p, req.params.id), ''),
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
      const pg = parsePaging(req.query);
      const r = await vendorAuditLog(p.db, req.params.id, req.query.event_type, pg.limit, pg.offset);
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
    async (req) => rentalOk(await vendorDetail(p, req.auth.user!.id), ''),
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
